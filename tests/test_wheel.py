"""From the wheel, as a learner gets it: the whole course, outside any checkout.

Builds the sdist and, from it, the wheel (``uv build``: so the sdist is proved
complete too), checks what they hold, installs the wheel with its ``lab`` extra
into a fresh virtual environment in a temporary folder, and then, from an empty
folder with nothing of the checkout on the path:

- ``battleline-lab check library`` and ``python -m battleline_lab check library``
  verify every bundled puzzle;
- ``battleline-lab lessons`` copies the course out;
- pytest with strict ``--nbval`` runs every copied lesson with that environment's Python.

Each step counts what it saw against the checkout (puzzles, lessons, code cells),
so it cannot pass on an empty library or course.  Needs the network or uv's cache
(PyPI) for the build back end and the ``lab`` extra.  Marker: ``wheel``
(``./dev test -m "not wheel"`` leaves it out).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from battleline_lab import __version__
from battleline_lab.quiz.loader import iter_puzzle_files
from tests.test_reachability import KNOWN_UNREACHABLE

pytestmark = pytest.mark.wheel

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = sorted(p.relative_to(ROOT / "puzzles").as_posix() for p in iter_puzzle_files([ROOT / "puzzles"]))
LESSONS = sorted(
    [
        *(p.relative_to(ROOT / "notebooks").as_posix() for p in (ROOT / "notebooks").rglob("*.ipynb")),
        "rules.md",  # the rules page the lessons link to
    ]
)
LESSONS = [name for name in LESSONS if ".ipynb_checkpoints" not in name]
UV = [sys.executable, "-m", "uv"]


def _code_cells(path: Path) -> int:
    book = json.loads(path.read_text(encoding="utf-8"))
    return sum(1 for cell in book["cells"] if cell["cell_type"] == "code")


def _run(command: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 900) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{command} failed ({done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def test_a_learner_gets_the_whole_course_from_the_wheel(tmp_path: Path) -> None:
    started = time.perf_counter()
    assert len(PUZZLES) >= 100 and len(LESSONS) >= 8  # the checkout itself is complete

    # a clean environment: nothing of the checkout, the caller's venv or the user's Jupyter set-up
    home = tmp_path / "home"
    home.mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "PYTEST", "VIRTUAL_ENV", "JUPYTER", "IPYTHON"))
    }
    env.update(
        HOME=str(home),
        JUPYTER_CONFIG_DIR=str(home / "jupyter-config"),
        JUPYTER_DATA_DIR=str(home / "jupyter-data"),
        IPYTHONDIR=str(home / "ipython"),
        BATTLELINE_LAB_DATA=str(home / "battleline-data"),
        PYTHONIOENCODING="utf-8",
    )
    if "UV_CACHE_DIR" not in env:  # HOME moved: keep using the machine's uv cache (fast, offline-friendly)
        cache = subprocess.run([*UV, "cache", "dir"], capture_output=True, text=True, check=True).stdout.strip()
        env["UV_CACHE_DIR"] = cache

    # 1. the sdist, then the wheel built from the sdist
    dist = tmp_path / "dist"
    _run([*UV, "build", "--out-dir", str(dist), str(ROOT)], cwd=tmp_path, env=env)
    [wheel] = dist.glob(f"battleline_lab-{__version__}-*.whl")
    [sdist] = dist.glob(f"battleline_lab-{__version__}.tar.gz")
    names = zipfile.ZipFile(wheel).namelist()
    bundled_puzzles = sorted(
        n.removeprefix("battleline_lab/puzzles/") for n in names if n.startswith("battleline_lab/puzzles/")
    )
    bundled_lessons = sorted(
        n.removeprefix("battleline_lab/lessons/") for n in names if n.startswith("battleline_lab/lessons/")
    )
    assert [n for n in bundled_puzzles if n.endswith((".yaml", ".yml"))] == PUZZLES
    assert bundled_lessons == LESSONS
    assert "battleline_lab/__main__.py" in names and "battleline_lab/locale/zh/package.json" in names
    # the site builder rides along (battleline-lab site): the script, its front page and the rules page
    # and the reading pages' widget manager (read/reader.js) and live cells (read/live.js)
    for bundled in (
        "tools/build_site.py",
        "tools/site-requirements.txt",
        "tools/site/course.json",
        "tools/site/reader.js",
        "tools/site/live.js",
        "docs/rules.md",
    ):
        assert f"battleline_lab/sitebuild/{bundled}" in names
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {f"puzzles/{p}" for p in PUZZLES} <= in_sdist and {f"notebooks/{n}" for n in LESSONS} <= in_sdist

    # 2. a fresh venv outside the checkout, with the wheel and its lab extra (and the test runner)
    venv = tmp_path / "venv"
    _run([*UV, "venv", "--quiet", "--python", sys.executable, str(venv)], cwd=tmp_path, env=env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = str(bin_dir / "python")
    _run(
        [*UV, "pip", "install", "--quiet", "--python", python, f"{wheel}[lab]", "nbval>=0.11,<0.12", "pytest>=8,<10"],
        cwd=tmp_path,
        env=env,
    )
    env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")

    # 3. from an empty folder: the package is the installed one, and so are its library and lessons
    work = tmp_path / "empty"
    work.mkdir()
    where = _run(
        [
            python,
            "-c",
            "import battleline_lab.quiz.library as l; print(l.__file__); print(l.root()); print(l.lessons_root())",
        ],
        cwd=work,
        env=env,
    ).split("\n")
    assert all(Path(line).is_relative_to(venv) for line in where[:3]), where

    # battleline-lab site: the teacher's bad puzzle file is a located error (exit 2) before anything is built,
    # and the builder packs the installed package back into the very wheel it came from
    bad = work / "mine"
    bad.mkdir()
    (bad / "bad.yaml").write_text("id: x\nflags: {5: [\n", encoding="utf-8")
    done = subprocess.run(
        ["battleline-lab", "site", "--puzzles", "mine"], cwd=work, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2 and re.search(r"bad\.yaml:\d+:\d+: error: ", done.stderr), done.stderr
    shutil.rmtree(bad)
    code = (
        "import sys, zipfile; from battleline_lab.cli.site import builder; "
        "w = builder().installed_wheel(__import__('pathlib').Path(sys.argv[1])); "
        "print('\\n'.join(sorted(zipfile.ZipFile(w).namelist())))"
    )
    printed = _run([python, "-c", code, str(tmp_path / "repacked")], cwd=work, env=env).splitlines()
    packed = [line for line in printed if line and not line.startswith("==> ")]  # the builder's log lines
    assert packed == sorted(names)
    # every puzzle passes; the library's known positions that cannot arise in a game are warnings
    warned = len(KNOWN_UNREACHABLE)
    out = _run(["battleline-lab", "check", "library"], cwd=work, env=env)
    assert out.strip() == f"checked {len(PUZZLES)} puzzles: {len(PUZZLES)} ok, warnings: {warned}"
    out = _run([python, "-m", "battleline_lab", "--lang", "zh", "check", "library"], cwd=work, env=env)
    assert out.strip() == f"检查了{len(PUZZLES)}道谜题：{len(PUZZLES)}道通过、警告：{warned}个"

    # 4. the course, copied out and run under strict nbval with the venv's Python
    out = _run(["battleline-lab", "lessons"], cwd=work, env=env)
    assert f": {len(LESSONS)}." in out and "battleline-lab lab battleline-lessons" in out
    course = work / "battleline-lessons"
    copied = sorted(p.relative_to(course).as_posix() for p in course.rglob("*") if p.suffix in (".ipynb", ".md"))
    assert copied == LESSONS
    cells = sum(_code_cells(course / name) for name in LESSONS if name.endswith(".ipynb"))
    out = _run(
        [python, "-m", "pytest", "--nbval", "-p", "no:cacheprovider", "-q", "battleline-lessons"], cwd=work, env=env
    )
    summary = re.search(r"(\d+) passed", out)
    assert summary and int(summary.group(1)) == cells, out[-2000:]
    assert not re.search(r"\d+ (failed|skipped|errors?)", out), out[-2000:]
    print(
        f"wheel {wheel.stat().st_size} bytes; {len(PUZZLES)} puzzles, {len(LESSONS)} lessons, {cells} cells; "
        f"{time.perf_counter() - started:.1f} s"
    )


def _doc_block(language: str, after: str) -> str:
    """The first ```language block of docs/authoring.md after the line ``after``."""
    text = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    rest = text[text.index(after) :]
    start = rest.index(f"```{language}\n") + len(f"```{language}\n")
    return rest[start : rest.index("```", start)]


def test_puzzle_ci_in_a_teachers_repository_runs_as_documented(tmp_path: Path) -> None:
    """docs/authoring.md's puzzle CI without a package index: a wheel in the repository, then the workflow."""
    import yaml

    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST", "VIRTUAL_ENV"))}
    home = tmp_path / "home"
    home.mkdir()
    env.update(
        HOME=str(home),
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.org",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.org",
        GIT_CONFIG_NOSYSTEM="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    if "UV_CACHE_DIR" not in env:
        env["UV_CACHE_DIR"] = subprocess.run(
            [*UV, "cache", "dir"], capture_output=True, text=True, check=True
        ).stdout.strip()

    # the wheel, built in the checkout (the documented `uv build --wheel`)
    dist = tmp_path / "dist"
    _run([*UV, "build", "--wheel", "--out-dir", str(dist), str(ROOT)], cwd=tmp_path, env=env)
    [wheel] = dist.glob(f"battleline_lab-{__version__}-*.whl")

    # the teacher's repository, as docs/authoring.md lays it out
    repo = tmp_path / "my-puzzles"
    (repo / "puzzles" / "week-1").mkdir(parents=True)
    (repo / "wheels").mkdir()
    (repo / "wheels" / wheel.name).write_bytes(wheel.read_bytes())
    (repo / "pyproject.toml").write_text(_doc_block("toml", "### Puzzle CI"), encoding="utf-8")
    workflow = _doc_block("yaml", "as a GitHub Actions workflow")
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "puzzles.yml").write_text(workflow, encoding="utf-8")
    puzzle = repo / "puzzles" / "week-1" / "first-claim.yaml"
    puzzle.write_text(
        "id: first-claim\ntitle: My first claim\nflags:\n  5: {you: [r3, r4, r5], opponent: [r6, g6]}\n"
        "question: {kind: claim, flag: 5}\nanswer: true\n",
        encoding="utf-8",
    )
    for command in (["git", "init", "--quiet"], ["git", "add", "-A"], ["git", "commit", "--quiet", "-m", "puzzles"]):
        _run(command, cwd=repo, env=env)

    # what CI does: a fresh clone (actions/checkout), a Python with pip (setup-python), the run: steps
    steps = [step["run"] for step in yaml.safe_load(workflow)["jobs"]["puzzles"]["steps"] if "run" in step]
    assert steps[0].startswith("pip install wheels/") and steps[-1] == "pytest"  # no package index for battleline_lab

    def ci(expect_ok: bool) -> str:
        checkout = tmp_path / f"ci-{expect_ok}"
        _run(["git", "clone", "--quiet", str(repo), str(checkout)], cwd=tmp_path, env=env)
        venv = tmp_path / f"venv-{expect_ok}"
        _run([*UV, "venv", "--quiet", "--seed", "--python", sys.executable, str(venv)], cwd=tmp_path, env=env)
        run_env = dict(env, PATH=str(venv / "bin") + os.pathsep + env.get("PATH", ""), VIRTUAL_ENV=str(venv))
        out = ""
        for n, step in enumerate(steps):
            done = subprocess.run(
                step, shell=True, cwd=checkout, env=run_env, capture_output=True, text=True, timeout=900
            )
            out = done.stdout + done.stderr
            last = n == len(steps) - 1
            assert done.returncode == 0 or (last and not expect_ok), f"{step}:\n{out[-3000:]}"
            if last:
                assert (done.returncode == 0) is expect_ok, out[-3000:]
        return out

    assert "1 passed" in ci(True)
    # a wrong answer fails the workflow, located in the file
    puzzle.write_text(puzzle.read_text(encoding="utf-8").replace("answer: true", "answer: false"), encoding="utf-8")
    _run(["git", "commit", "--quiet", "-am", "a wrong answer"], cwd=repo, env=env)
    failed = ci(False)
    assert "1 failed" in failed and "first-claim.yaml" in failed and "wrong answer" in failed
