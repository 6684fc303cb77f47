"""Build the course as a static JupyterLite site (``./dev site``; see docs/site.md).

Everything comes from the package registries the project already uses, at build time only:

- a build venv (``tools/site-requirements.txt``: jupyterlite-core, the Pyodide kernel, the
  widgets' front end, jupyter_server) made with uv;
- Pyodide's core from the npm package ``pyodide`` (``npm pack``), at the version the kernel
  expects (read from the kernel's own JavaScript);
- the pure wheels the kernel needs (the versions Pyodide's lock names) and ipywidgets, comm and
  jupyterlab_widgets, from PyPI (``pip download``);
- a pure PyYAML wheel built here from its sdist, and the battleline_lab wheel built from this
  checkout (it carries the puzzles and the lessons).

Pyodide's lock is cut down to what is shipped, with each wheel's real ``sha256``, and the
package, PyYAML and the widgets are preloaded (``jupyter-lite.json``), so the site fetches
nothing from any other host at run time.  Downloads are cached in ``.site-cache/``
(gitignored): a second build needs no network and is much faster.

The lessons are copied with their outputs, each multi-line output joined into one string (a
list of lines renders with stray commas in JupyterLite before the cell is re-run).

Usage: ``python tools/build_site.py [--out _site] [--cache .site-cache]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "tools" / "site-requirements.txt"

#: Pure wheels of the widgets, from PyPI (jupyterlab_widgets: the same version as the front end
#: in site-requirements.txt).
WIDGET_WHEELS = {"ipywidgets": "8.1.9", "comm": "0.2.3", "jupyterlab-widgets": "3.0.17"}
#: The board component (anywidget, same version as its front end in site-requirements.txt).
WIDGET_WHEELS |= {"anywidget": "0.11.0", "psygnal": "0.16.1", "typing-extensions": "4.15.0"}
#: What each of them needs in Pyodide (lock names).
WIDGET_DEPENDS = {
    "ipywidgets": ["comm", "ipython", "traitlets", "jupyterlab-widgets"],
    "comm": ["traitlets"],
    "jupyterlab-widgets": [],
    "anywidget": ["ipywidgets", "psygnal", "typing-extensions"],
    "psygnal": [],
    "typing-extensions": [],
}
WIDGET_IMPORTS = {"ipywidgets": ["ipywidgets"], "comm": ["comm"], "jupyterlab-widgets": ["jupyterlab_widgets"]}
WIDGET_IMPORTS |= {"anywidget": ["anywidget"], "psygnal": ["psygnal"], "typing-extensions": ["typing_extensions"]}
#: What battleline_lab needs in Pyodide (lock names).
OUR_DEPENDS = ["pyyaml", "ipywidgets", "anywidget"]
PYYAML_VERSION = "6.0.3"
#: What the Pyodide kernel loads itself (its closure is taken from Pyodide's lock).
KERNEL_ROOTS = ("micropip", "packaging", "ipython", "jedi")
#: Preloaded when the kernel starts (lock names: Pyodide looks packages up by normalized name,
#: ``battleline-lab``; ``battleline_lab`` is "No known package").
PRELOAD: tuple[str, ...] = ("battleline-lab", "pyyaml", "ipywidgets", "comm", "jupyterlab-widgets")
PRELOAD += ("anywidget", "psygnal", "typing-extensions")  # the board component
#: The files of Pyodide's core (from the npm package) the site needs.
CORE_FILES = (
    "pyodide.mjs",
    "pyodide.js",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "package.json",
)
#: Which files of the checkout's notebooks/ and puzzles/ go into the site (as in setup.py).
LESSON_SUFFIXES = (".ipynb", ".md", ".png", ".svg", ".jpg", ".gif")
PUZZLE_SUFFIXES = (".yaml", ".yml", ".md")
SKIPPED_PARTS = {".ipynb_checkpoints", "__pycache__", ".pytest_cache"}


def log(message: str) -> None:
    print(f"==> {message}", flush=True)


def run(cmd: Sequence[str | Path], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        sys.stderr.write(result.stdout.decode(errors="replace")[-4000:])
        raise SystemExit(f"error: {' '.join(str(c) for c in cmd)} failed with exit code {result.returncode}")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def build_venv(cache: Path) -> Path:
    """The build venv (JupyterLite and friends), re-made only when the requirements change."""
    stamp = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()[:16]
    venv = cache / "venv"
    python = venv / "bin" / "python"
    marker = venv / f".installed-{stamp}"
    if not marker.exists():
        log("build venv: " + ", ".join(line.split("#")[0].strip() for line in _requirement_lines()))
        if venv.exists():
            shutil.rmtree(venv)
        run([sys.executable, "-m", "uv", "venv", "-q", "--python", sys.executable, venv])
        run([sys.executable, "-m", "uv", "pip", "install", "-q", "--python", python, "-r", REQUIREMENTS])
        marker.touch()
    return venv


def _requirement_lines() -> list[str]:
    lines = (line.split("#")[0].strip() for line in REQUIREMENTS.read_text().splitlines())
    return [line for line in lines if line]


def kernel_pyodide_version(venv: Path) -> str:
    """The Pyodide version the installed JupyterLite kernel loads by default (from its JavaScript)."""
    found: set[str] = set()
    for js in (venv / "share" / "jupyter" / "labextensions").glob("@jupyterlite/pyodide-kernel*/static/*.js"):
        found.update(re.findall(r"pyodide/v(\d+\.\d+\.\d+)/full", js.read_text(errors="replace")))
    if len(found) != 1:
        raise SystemExit(f"error: cannot tell which Pyodide the kernel expects (found {sorted(found) or 'none'})")
    return found.pop()


def pyodide_core(cache: Path, version: str) -> Path:
    """The npm package ``pyodide@version``, unpacked (``npm pack``: nothing installed)."""
    unpacked = cache / f"pyodide-{version}"
    if not (unpacked / "pyodide-lock.json").exists():
        log(f"npm pack pyodide@{version}")
        with tempfile.TemporaryDirectory(dir=cache) as tmp:
            run(["npm", "pack", "--silent", f"pyodide@{version}"], cwd=Path(tmp))
            tarballs = list(Path(tmp).glob("pyodide-*.tgz"))
            if len(tarballs) != 1:
                raise SystemExit("error: npm pack gave no pyodide tarball")
            with tarfile.open(tarballs[0]) as tar:
                tar.extractall(tmp, filter="data")
            staging = Path(tmp) / "package"
            if unpacked.exists():
                shutil.rmtree(unpacked)
            staging.rename(unpacked)
    return unpacked


def lock_closure(lock: dict[str, Any], roots: Iterable[str]) -> list[str]:
    """The lock names of ``roots`` and everything they depend on (per the lock)."""
    packages = lock["packages"]
    seen: list[str] = []
    todo = [normalize(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in packages:
            raise SystemExit(f"error: Pyodide's lock has no package {name!r}")
        seen.append(name)
        todo.extend(normalize(d) for d in packages[name]["depends"])
    return sorted(seen)


def download_wheels(cache: Path, wanted: dict[str, str], python: str) -> dict[str, Path]:
    """``{lock name: wheel}`` for ``{lock name: version}``, pure wheels for Pyodide's ``python`` from PyPI (cached)."""
    folder = cache / "wheels"
    folder.mkdir(parents=True, exist_ok=True)

    def cached(name: str, version: str) -> Path | None:
        for wheel in folder.glob("*.whl"):
            dist, wheel_version = wheel.name.split("-")[:2]
            if normalize(dist) == name and wheel_version == version and wheel.name.endswith("-none-any.whl"):
                return wheel
        return None

    missing = [f"{name}=={version}" for name, version in wanted.items() if cached(name, version) is None]
    if missing:
        log(f"pip download {len(missing)} wheels")
        run(
            [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps"]
            + ["--only-binary", ":all:", "--python-version", python, "--dest", folder, *missing]
            + ["--platform", "any", "--implementation", "py", "--abi", "none"]  # pure: psygnal also has compiled ones
        )
    out = {}
    for name, version in wanted.items():
        wheel = cached(name, version)
        if wheel is None:
            raise SystemExit(f"error: no pure wheel of {name}=={version} on PyPI")
        out[name] = wheel
    return out


def pure_pyyaml(cache: Path) -> Path:
    """PyYAML without its C extension, built locally from its sdist: honestly ``py3-none-any``.

    Only PyYAML itself is built from source (``--no-binary pyyaml``): with ``:all:`` pip would
    also compile its build dependency Cython from source, which takes many minutes.
    """
    folder = cache / "pyyaml"
    wheels = list(folder.glob(f"pyyaml-{PYYAML_VERSION}-py3-none-any.whl"))
    if not wheels:
        log(f"building a pure PyYAML {PYYAML_VERSION} wheel")
        env = dict(os.environ, PYYAML_FORCE_LIBYAML="0")
        run(
            [sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check", "--no-deps"]
            + ["--no-binary", "pyyaml", "--wheel-dir", folder, f"pyyaml=={PYYAML_VERSION}"],
            env=env,
        )
        wheels = [w for w in folder.glob("*.whl") if w.name.lower().startswith(f"pyyaml-{PYYAML_VERSION}-")]
        if len(wheels) != 1 or not wheels[0].name.endswith("-py3-none-any.whl"):
            raise SystemExit(f"error: expected one pure PyYAML wheel, got {[w.name for w in wheels]}")
    return wheels[0]


def package_wheel(work: Path) -> Path:
    """The battleline_lab wheel built from this checkout (puzzles and lessons inside)."""
    log("building the battleline_lab wheel")
    out = work / "dist"
    run([sys.executable, "-m", "uv", "build", "-q", "--wheel", "--out-dir", out, ROOT])
    wheels = list(out.glob("battleline_lab-*-py3-none-any.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"error: expected one battleline_lab wheel, got {[w.name for w in out.iterdir()]}")
    return wheels[0]


def lock_entry(name: str, wheel: Path, imports: list[str], depends: list[str]) -> dict[str, Any]:
    version = wheel.name.split("-")[1]
    return {
        "depends": depends,
        "file_name": wheel.name,
        "imports": imports,
        "install_dir": "site",
        "name": name,
        "package_type": "package",
        "sha256": sha256(wheel),
        "unvendored_tests": False,
        "version": version,
    }


#: The kernel of JupyterLite's Pyodide kernel (a lesson saved with ``python3`` would ask which kernel to use).
PYODIDE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}


def site_notebook(notebook: dict[str, Any]) -> dict[str, Any]:
    """The lesson as the site serves it: outputs kept, each multi-line output (a list of lines)
    joined into one string, its code cells with outputs marked trusted, and the Pyodide kernel
    named as its kernel.
    """
    notebook.setdefault("metadata", {})["kernelspec"] = dict(PYODIDE_KERNELSPEC)
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code" and cell.get("outputs"):
            # JupyterLite checks no notebook signatures: without this its sanitizer strips the
            # saved SVG boards out of the HTML outputs.  They are the checkout's own lessons' outputs.
            cell.setdefault("metadata", {})["trusted"] = True
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            if isinstance(output.get("text"), list):
                output["text"] = "".join(output["text"])
            data = output.get("data", {})
            for mime, value in data.items():
                if isinstance(value, list):
                    data[mime] = "".join(value)
    return notebook


def copy_tree(source: Path, target: Path, suffixes: tuple[str, ...]) -> list[Path]:
    copied = []
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(source)
        if not path.is_file() or path.suffix.lower() not in suffixes or SKIPPED_PARTS & set(rel.parts):
            continue
        if path.name.startswith("."):
            continue
        destination = target / rel
        destination.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".ipynb":
            notebook = site_notebook(json.loads(path.read_text(encoding="utf-8")))
            destination.write_text(json.dumps(notebook, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        else:
            shutil.copyfile(path, destination)
        copied.append(rel)
    return copied


def build(out: Path, cache: Path) -> Path:
    started = time.monotonic()
    cache.mkdir(parents=True, exist_ok=True)
    venv = build_venv(cache)
    version = kernel_pyodide_version(venv)
    core = pyodide_core(cache, version)
    lock = json.loads((core / "pyodide-lock.json").read_text())
    kernel_names = lock_closure(lock, KERNEL_ROOTS)
    python = ".".join(lock["info"]["python"].split(".")[:2])
    kernel_wheels = download_wheels(cache, {n: lock["packages"][n]["version"] for n in kernel_names}, python)
    widget_wheels = download_wheels(cache, WIDGET_WHEELS, python)
    pyyaml = pure_pyyaml(cache)

    with tempfile.TemporaryDirectory(prefix="site-", dir=cache) as tmp:
        work = Path(tmp)
        ours = package_wheel(work)
        lite = work / "lite"
        static = lite / "static" / "pyodide"
        static.mkdir(parents=True)
        for name in CORE_FILES:
            shutil.copyfile(core / name, static / name)

        packages: dict[str, Any] = {}
        for name, wheel in kernel_wheels.items():
            entry = dict(lock["packages"][name], file_name=wheel.name, sha256=sha256(wheel), unvendored_tests=False)
            packages[name] = entry
        for name, wheel in widget_wheels.items():
            packages[name] = lock_entry(name, wheel, WIDGET_IMPORTS[name], WIDGET_DEPENDS[name])
        packages["pyyaml"] = lock_entry("pyyaml", pyyaml, ["yaml"], [])
        packages["battleline-lab"] = lock_entry("battleline-lab", ours, ["battleline_lab"], OUR_DEPENDS)
        for name, entry in packages.items():
            missing = [d for d in entry["depends"] if normalize(d) not in packages]
            if missing:
                raise SystemExit(f"error: {name} depends on {missing}, which the site would not ship")
        for wheel in [*kernel_wheels.values(), *widget_wheels.values(), pyyaml, ours]:
            shutil.copyfile(wheel, static / wheel.name)
        (static / "pyodide-lock.json").write_text(json.dumps({"info": lock["info"], "packages": packages}, indent=1))

        (lite / "jupyter-lite.json").write_text(
            json.dumps(
                {
                    "jupyter-lite-schema-version": 0,
                    "jupyter-config-data": {
                        "appName": "Battle Line Lab",
                        "litePluginSettings": {
                            "@jupyterlite/pyodide-kernel-extension:kernel": {
                                "disablePyPIFallback": True,
                                "loadPyodideOptions": {"packages": list(PRELOAD)},
                            }
                        },
                    },
                },
                indent=1,
            )
        )
        contents = work / "contents"
        lessons = copy_tree(ROOT / "notebooks", contents, LESSON_SUFFIXES)
        puzzles = copy_tree(ROOT / "puzzles", contents / "puzzles", PUZZLE_SUFFIXES)
        log(f"jupyter lite build: {sum(p.suffix == '.ipynb' for p in lessons)} lessons, {len(puzzles)} puzzle files")
        staging = work / "site"
        env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1", JUPYTER_CONFIG_DIR=str(work / "jupyter-config"))
        run(
            [venv / "bin" / "jupyter", "lite", "build", "--no-sourcemaps", "--lite-dir", lite]
            + ["--contents", contents, "--output-dir", staging],
            cwd=lite,
            env=env,
        )
        for stray in (".jupyterlite.doit.db",):
            (staging / stray).unlink(missing_ok=True)
        if out.exists():
            shutil.rmtree(out)
        shutil.move(str(staging), out)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    log(f"built {out} ({size / 1e6:.1f} MB) in {time.monotonic() - started:.0f} s")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "_site", help="the site's folder (replaced)")
    parser.add_argument("--cache", type=Path, default=ROOT / ".site-cache", help="downloads and the build venv")
    args = parser.parse_args(argv)
    build(args.out.resolve(), args.cache.resolve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
