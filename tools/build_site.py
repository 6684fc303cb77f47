"""Build the course as a static JupyterLite site (``./dev site``; see docs/site.md).

Everything comes from the package registries the project already uses, at build time only:

- a build venv (``tools/site-requirements.txt``: jupyterlite-core, the Pyodide kernel,
  jupyter_server; and the widgets' front ends at the versions of :data:`SITE_WHEELS`) made with uv;
- Pyodide's core from the npm package ``pyodide`` (``npm pack``), at the version the kernel
  expects (read from the kernel's own JavaScript);
- the pure wheels the kernel needs (the versions Pyodide's lock names), and the rows of
  :data:`SITE_WHEELS` (ipywidgets, anywidget and what they need: each pinned once, there), from
  PyPI (``pip download``), PyYAML built here from its sdist into a pure wheel;
- the battleline_lab wheel built from this
  checkout (it carries the puzzles and the lessons).

Every wheel is shipped with its bytecode, compiled by Pyodide itself in Node.js
(``tools/site/compile_wheels.mjs``; ``--no-bytecode`` to leave it out).  Pyodide's lock is cut
down to what is shipped, with each wheel's real ``sha256``, and the package, PyYAML, the
widgets and the kernel's own start-up packages are preloaded (``jupyter-lite.json``), so the
site fetches nothing from any other host at run time, and the kernel installs nothing after
Pyodide is up.  Downloads are cached in ``.site-cache/``
(gitignored): a second build needs no network and is much faster.

The lessons are copied with their outputs, each multi-line output joined into one string (a
list of lines renders with stray commas in JupyterLite before the cell is re-run).  The site's
``lab/index.html`` gets one small script of ours, ``tools/site/lab-history.js``, so that the
browser's Back returns from a lesson to the front page; every JupyterLite page gets
``tools/site/drive-gate.js``, so that the lesson's kernel always gets the browser-kept drive.

Usage: ``python tools/build_site.py [--out _site] [--cache .site-cache] [--no-bytecode]``.
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
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple

try:
    import fcntl
except ImportError:  # not on Windows: builds that share a cache there are not kept apart
    fcntl = None  # type: ignore[assignment]

#: The checkout, or in an installed wheel the package's ``sitebuild/`` folder, which carries this
#: script, ``tools/site/`` and ``docs/rules.md`` in the same places (``battleline-lab site``).
ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "tools" / "site-requirements.txt"
#: Built from a checkout (``./dev site``), else from the installed package (``battleline-lab site``).
IN_CHECKOUT = (ROOT / "pyproject.toml").is_file()


def course_folders() -> tuple[Path, Path]:
    """The lessons and the puzzle library: the checkout's, else the installed package's."""
    if IN_CHECKOUT:
        return ROOT / "notebooks", ROOT / "puzzles"
    from battleline_lab.quiz.library import lessons_root, root

    return lessons_root(), root()


class SiteWheel(NamedTuple):
    """One pure wheel the site ships beside Pyodide's own packages (a row of :data:`SITE_WHEELS`)."""

    #: The one pin: the wheel, and the JupyterLab extension of the same name in the build venv.
    version: str
    #: The top-level modules it provides (Pyodide's lock: ``imports``).
    imports: tuple[str, ...]
    #: What it needs in Pyodide (lock names: a row of this table, or a package of Pyodide's lock).
    depends: tuple[str, ...] = ()
    #: battleline_lab imports it (the package's own lock entry depends on it).
    ours: bool = False
    #: Its JupyterLab front end (the PyPI name) is installed into the build venv at the same version.
    front_end: str | None = None
    #: Built here from its sdist without its C extension (PyPI has no pure wheel of it).
    from_sdist: bool = False


#: Every wheel the site adds to Pyodide's, pinned once: the build venv's front ends, the downloads,
#: the lock entries and the preload list are all read from here.  A new pure dependency of
#: battleline_lab (ruamel.yaml, say) is one more row: ``"ruamel-yaml": SiteWheel("0.18.16",
#: ("ruamel",), ours=True)``.
SITE_WHEELS: dict[str, SiteWheel] = {
    "pyyaml": SiteWheel("6.0.3", ("yaml",), ours=True, from_sdist=True),
    "ipywidgets": SiteWheel(
        "8.1.9", ("ipywidgets",), ("comm", "ipython", "traitlets", "jupyterlab-widgets"), ours=True
    ),
    "comm": SiteWheel("0.2.3", ("comm",), ("traitlets",)),
    "jupyterlab-widgets": SiteWheel("3.0.17", ("jupyterlab_widgets",), front_end="jupyterlab_widgets"),
    # the board component
    "anywidget": SiteWheel(
        "0.11.0", ("anywidget",), ("ipywidgets", "psygnal", "typing-extensions"), ours=True, front_end="anywidget"
    ),
    "psygnal": SiteWheel("0.16.1", ("psygnal",)),
    "typing-extensions": SiteWheel("4.15.0", ("typing_extensions",)),
}


def our_depends() -> list[str]:
    """What battleline_lab needs in Pyodide (lock names)."""
    return [name for name, wheel in SITE_WHEELS.items() if wheel.ours]


def front_end_pins() -> list[str]:
    """The build venv's JupyterLab front ends, pinned to the versions of their kernel wheels."""
    return [f"{w.front_end}=={w.version}" for w in SITE_WHEELS.values() if w.front_end]


#: What the Pyodide kernel loads itself (its closure is taken from Pyodide's lock).
KERNEL_ROOTS = ("micropip", "packaging", "ipython", "jedi")


def preload() -> list[str]:
    """Lock names preloaded with the kernel: the package and every row of :data:`SITE_WHEELS`
    (lock names: Pyodide looks packages up by normalized name, ``battleline-lab``;
    ``battleline_lab`` is "No known package")."""
    return ["battleline-lab", *SITE_WHEELS]


#: The kernel's own start-up, preloaded with the rest (one parallel fetch and install): without
#: them in the list, the kernel installs each one after Pyodide is up, one after another
#: (``loadPackage("micropip")``, ``micropip.install(piplite)``, then ``piplite.install`` of
#: ipykernel, comm, pyodide-kernel, jedi and ipython, each resolved by micropip), about 3 s.
KERNEL_PRELOAD = ("micropip", "piplite", "ipykernel", "pyodide-kernel", "jedi", "ipython")
#: The kernel's own wheels (in its extension's ``static/pypi/``, which piplite installs from):
#: put into Pyodide's lock so that they can be preloaded.  {lock name: (imports, depends)}
KERNEL_OWN_WHEELS = {
    "piplite": (["piplite"], ["micropip"]),
    "ipykernel": (["ipykernel"], ["pyodide-kernel"]),
    "pyodide-kernel": (["pyodide_kernel"], ["comm", "ipython"]),
}
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


#: What this build fetched from the registries (printed at the end; empty when all came from the cache).
FETCHED: list[str] = []
#: The build venv's Python (set by :func:`build_venv`): pip, uv and JupyterLite all run from it,
#: never from the development venv.
PYTHON: list[Path] = []


def tool_python() -> Path:
    if not PYTHON:
        raise SystemExit("error: the build venv is not made yet")
    return PYTHON[0]


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
    """The build venv (pip, uv, JupyterLite and friends, from tools/site-requirements.txt), re-made only
    when the requirements change.  Made with the standard library's ``venv`` by whatever Python
    runs this script, so the site needs nothing of the development environment (``.venv``).

    When that Python has uv already (the development venv's, or ``battleline-lab site`` where uv is
    installed), the venv is made without pip and that uv installs pip, uv and the requirements in one
    go from its cache: ``venv``'s own pip set-up (ensurepip) and a pip run to fetch uv cost more CPU
    than the rest of a cached install.  The venv holds the same packages either way (pip the newest
    rather than the one Python came with), so both ways share the stamp."""
    # the recipe is part of the stamp: a venv made another way (older builds: uv, no pip) is re-made
    pins = front_end_pins()
    recipe = REQUIREMENTS.read_bytes() + "\n".join(pins).encode() + b"\nrecipe: stdlib venv + pip + uv"
    stamp = hashlib.sha256(recipe).hexdigest()[:16]
    venv = cache / "venv"
    python = venv / "bin" / "python"
    marker = venv / f".installed-{stamp}"
    if not marker.exists():
        names = [*_requirement_lines(), *pins]
        log("build venv: " + ", ".join(names))
        if venv.exists():
            shutil.rmtree(venv)
        uv = own_uv()
        if uv:
            run([sys.executable, "-m", "venv", "--without-pip", venv])
            run([*uv, "pip", "install", "-q", "--python", python, "pip", "uv", "-r", REQUIREMENTS, *pins])
        else:
            run([sys.executable, "-m", "venv", venv])
            run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "uv"])
            run([python, "-m", "uv", "pip", "install", "-q", "--python", python, "-r", REQUIREMENTS, *pins])
        installed = subprocess.run(
            [str(python), "-m", "uv", "pip", "list", "--python", str(python)], capture_output=True, text=True
        ).stdout
        count = max(0, len(installed.strip().splitlines()) - 2)
        FETCHED.append(f"the build venv: {count} packages from PyPI (uv's cache first) for {', '.join(names)}")
        marker.touch()
    PYTHON[:] = [python]
    return venv


def own_uv() -> list[str]:
    """How to run the uv of the Python that runs this script (``python -m uv``), or ``[]`` if it has none."""
    import importlib.util

    return [sys.executable, "-m", "uv"] if importlib.util.find_spec("uv") is not None else []


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
            FETCHED.append(f"pyodide@{version} from npm ({tarballs[0].stat().st_size / 1e6:.1f} MB)")
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
        FETCHED.append(f"{len(missing)} wheels from PyPI: {', '.join(missing)}")
        run(
            [tool_python(), "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps"]
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


def pure_wheel_from_sdist(cache: Path, name: str, version: str) -> Path:
    """``name`` without its C extension, built locally from its sdist: honestly ``py3-none-any``
    (PyYAML: ``PYYAML_FORCE_LIBYAML=0``).

    Only the package itself is built from source (``--no-binary NAME``): with ``:all:`` pip would
    also compile its build dependencies (PyYAML's Cython) from source, which takes many minutes.
    """
    folder = cache / "sdist-wheels"
    folder.mkdir(parents=True, exist_ok=True)

    def built() -> list[Path]:
        return [
            w
            for w in folder.glob("*.whl")
            if normalize(w.name.split("-")[0]) == name and w.name.split("-")[1] == version
        ]

    wheels = built()
    if not wheels:
        log(f"building a pure {name} {version} wheel")
        env = dict(os.environ, PYYAML_FORCE_LIBYAML="0")
        FETCHED.append(f"the {name} {version} sdist from PyPI (built here into a pure wheel)")
        run(
            [tool_python(), "-m", "pip", "wheel", "-q", "--disable-pip-version-check", "--no-deps"]
            + ["--no-binary", name, "--wheel-dir", folder, f"{name}=={version}"],
            env=env,
        )
        wheels = built()
    if len(wheels) != 1 or not wheels[0].name.endswith("-py3-none-any.whl"):
        raise SystemExit(f"error: expected one pure {name} wheel, got {[w.name for w in wheels]}")
    return wheels[0]


def site_wheels(cache: Path, python: str) -> dict[str, Path]:
    """``{lock name: wheel}`` of every row of :data:`SITE_WHEELS` (downloaded, or built from the sdist)."""
    wanted = {name: w.version for name, w in SITE_WHEELS.items() if not w.from_sdist}
    out = download_wheels(cache, wanted, python)
    for name, wheel in SITE_WHEELS.items():
        if wheel.from_sdist:
            out[name] = pure_wheel_from_sdist(cache, name, wheel.version)
    return {name: out[name] for name in SITE_WHEELS}


def site_lock(
    lock: dict[str, Any], kernel: dict[str, Path], ours: Path, extra: dict[str, Path], own: dict[str, Path]
) -> dict[str, Any]:
    """The site's ``pyodide-lock.json``: Pyodide's ``info``, its entries for the kernel's packages
    (with the shipped wheels' names and hashes), and one entry per row of :data:`SITE_WHEELS`, per
    kernel wheel and for battleline_lab.  Refuses a dependency the site would not ship."""
    packages: dict[str, Any] = {}
    for name, wheel in kernel.items():
        packages[name] = dict(
            lock["packages"][name], file_name=wheel.name, sha256=sha256(wheel), unvendored_tests=False
        )
    for name, wheel in extra.items():
        row = SITE_WHEELS[name]
        packages[name] = lock_entry(name, wheel, list(row.imports), list(row.depends))
    for name, wheel in own.items():
        imports, depends = KERNEL_OWN_WHEELS[name]
        packages[name] = lock_entry(name, wheel, imports, depends)
    packages["battleline-lab"] = lock_entry("battleline-lab", ours, ["battleline_lab"], our_depends())
    for name, entry in packages.items():
        missing = [d for d in entry["depends"] if normalize(d) not in packages]
        if missing:
            raise SystemExit(f"error: {name} depends on {missing}, which the site would not ship")
    return {"info": lock["info"], "packages": packages}


#: The date of every entry of the battleline_lab wheel (``SOURCE_DATE_EPOCH``, unless the caller set
#: one): 1980-01-01, the earliest a zip file can hold.
WHEEL_EPOCH = "315532800"


def package_wheel(work: Path) -> Path:
    """The battleline_lab wheel: built from this checkout, else packed from the installed package
    (puzzles and lessons inside either way)."""
    out = work / "dist"
    if not IN_CHECKOUT:
        return installed_wheel(out)
    log("building the battleline_lab wheel")
    # a fixed date in every zip entry: the same checkout gives the same wheel, byte for byte, so
    # its bytecode is found in the cache (compiled_wheels, keyed by the wheel's sha256) by the next
    # build (``battleline-lab site --puzzles`` after ``./dev site``), not made again in Node.js
    env = dict(os.environ)
    env.setdefault("SOURCE_DATE_EPOCH", WHEEL_EPOCH)
    run([tool_python(), "-m", "uv", "build", "-q", "--wheel", "--out-dir", out, ROOT], env=env)
    wheels = list(out.glob("battleline_lab-*-py3-none-any.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"error: expected one battleline_lab wheel, got {[w.name for w in out.iterdir()]}")
    return wheels[0]


#: A wheel's own ``dist-info`` files (the rest there is the installer's, and ``RECORD`` is rewritten).
WHEEL_METADATA = ("METADATA", "WHEEL", "entry_points.txt", "top_level.txt")


def _wheel_metadata(parts: tuple[str, ...]) -> bool:
    return parts[0] in WHEEL_METADATA or parts[0] == "licenses" or parts[0].startswith(("LICENSE", "COPYING", "NOTICE"))


def installed_wheel(out: Path) -> Path:
    """The installed battleline_lab packed back into its pure wheel: every file its ``RECORD`` lists
    (the package, its data, its ``dist-info``), with a fresh ``RECORD``; no bytecode."""
    import base64
    import zipfile
    from importlib.metadata import distribution

    dist = distribution("battleline-lab")
    version = dist.version
    files = [f for f in dist.files or [] if f.suffix != ".pyc" and "__pycache__" not in f.parts]
    files = [f for f in files if f.parts[0] == "battleline_lab" or f.parts[0].endswith(".dist-info")]
    info = next((f.parts[0] for f in files if f.parts[0].endswith(".dist-info")), None)
    if info is None or not any(f.parts[0] == "battleline_lab" for f in files):
        raise SystemExit("error: battleline_lab is not installed from a wheel here (run ./dev site in a checkout)")
    out.mkdir(parents=True, exist_ok=True)
    wheel = out / f"battleline_lab-{version}-py3-none-any.whl"
    record: list[str] = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(files, key=lambda f: (f.parts[0].endswith(".dist-info"), str(f))):
            name = file.as_posix()
            if file.parts[0] == info and not _wheel_metadata(file.parts[1:]):
                continue  # written by the installer (INSTALLER, REQUESTED, direct_url.json, uv_cache.json), or RECORD
            data = Path(str(dist.locate_file(file))).read_bytes()
            archive.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{name},sha256={digest},{len(data)}")
        record.append(f"{info}/RECORD,,")
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    log(f"packed the installed battleline_lab {version} into {wheel.name}")
    return wheel


def kernel_own_wheels(venv: Path) -> dict[str, Path]:
    """``{lock name: wheel}`` of :data:`KERNEL_OWN_WHEELS`, from the installed kernel's extension."""
    folder = venv / "share" / "jupyter" / "labextensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    out = {}
    for name in KERNEL_OWN_WHEELS:
        wheels = [w for w in (folder / "pypi").glob("*.whl") if normalize(w.name.split("-")[0]) == name]
        if len(wheels) != 1:
            raise SystemExit(f"error: the Pyodide kernel's extension has no single {name} wheel ({wheels})")
        out[name] = wheels[0]
    return out


#: Pre-compiles the shipped wheels to bytecode with Pyodide itself, in Node.js (see the script).
COMPILE_SCRIPT = ROOT / "tools" / "site" / "compile_wheels.mjs"


def compiled_wheels(cache: Path, core: Path, wheels: list[Path]) -> dict[Path, Path]:
    """``{wheel: the same wheel with bytecode}``: each ``.py`` gets its ``__pycache__/*.cpython-314.pyc``.

    In the browser Pyodide compiles every module it imports from source, every time (its drive
    is in memory): IPython, prompt_toolkit, jedi, ipywidgets and battleline_lab are most of what
    the kernel does before it is ready.  The bytecode is made by the site's own Python (Pyodide
    from the npm package, run by Node.js: no other CPython has its magic number), as
    "unchecked-hash" pycs, which are read without the source being looked at again (the source
    stays, for tracebacks).  Cached in ``.site-cache/compiled/`` by the wheel's sha256.
    """
    folder = cache / "compiled"
    folder.mkdir(parents=True, exist_ok=True)
    recipe = hashlib.sha256(COMPILE_SCRIPT.read_bytes() + core.name.encode()).hexdigest()[:8]
    out = {wheel: folder / f"{sha256(wheel)[:16]}-{recipe}" / wheel.name for wheel in wheels}
    jobs = [[str(w), str(c)] for w, c in out.items() if not c.exists()]
    if jobs:
        log(f"compiling {len(jobs)} wheels to bytecode (Pyodide in Node.js)")
        for _wheel, target in jobs:
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", suffix=".json", dir=cache, delete=False) as file:
            json.dump(jobs, file)
        try:
            run(["node", COMPILE_SCRIPT, core, file.name])
        finally:
            os.unlink(file.name)
    return out


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


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: What the Pyodide kernel answers to ``kernel_info`` (its JavaScript; checked at build time by
#: :func:`check_language_info`).  JupyterLab writes the kernel's ``language_info`` into the
#: notebook when the kernel connects: a lesson saved by CPython (``"version": "3.11.7"``) was
#: thereby *modified* as soon as it opened, and every reload asked "Leave site?".
PYODIDE_LANGUAGE_INFO = {
    "codemirror_mode": {"name": "python", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
    "version": "3.8",
}


def _js(value: object) -> str:
    """``value`` as the kernel's minified JavaScript writes it (``{name:"python",version:3}``)."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_js(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def check_language_info(venv: Path) -> None:
    """The installed Pyodide kernel still reports :data:`PYODIDE_LANGUAGE_INFO`."""
    wanted = f"language_info:{_js(PYODIDE_LANGUAGE_INFO)}"
    folder = venv / "share" / "jupyter" / "labextensions" / "@jupyterlite" / "pyodide-kernel-extension"
    if not any(wanted in js.read_text(errors="replace") for js in folder.rglob("*.js")):
        raise SystemExit(f"error: the Pyodide kernel no longer reports {wanted}: update PYODIDE_LANGUAGE_INFO")


def builds_only_a_widget(cell: dict[str, Any]) -> bool:
    """A code cell whose every saved output is a widget (a puzzle, the gym, the game, the editor...)."""
    outputs = cell.get("outputs") or []
    return bool(outputs) and all(WIDGET_VIEW in output.get("data", {}) for output in outputs)


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: A saved output's pictures, which a cold open can show at once.
PICTURES = ("image/svg+xml", "text/html", "image/png")


def saved_pictures(state: dict[str, Any], model_id: str) -> list[str]:
    """The SVG pictures (a board, cards) in the saved state of a widget and its shown children, in order."""
    found: list[str] = []
    seen: set[str] = set()

    def walk(ref: object) -> None:
        key = ref.removeprefix("IPY_MODEL_") if isinstance(ref, str) else ""
        model = state.get(key)
        if model is None or key in seen:
            return
        seen.add(key)
        values = model.get("state", {})
        layout = state.get(str(values.get("layout", "")).removeprefix("IPY_MODEL_"), {}).get("state", {})
        if layout.get("display") == "none":
            return  # hidden when saved
        value = values.get("value")
        if model.get("model_name") == "HTMLModel" and isinstance(value, str) and "<svg" in value:
            found.append(value)
        for child in values.get("children", []):
            walk(child)

    walk(model_id)
    return found


def saved_html(state: dict[str, Any], model_id: str) -> list[str]:
    """A lone HTML widget's saved value (the editor's proof lines, ``editor.engine``), as JupyterLab
    draws it from the saved state on a cold open; ``[]`` for any other widget."""
    model = state.get(model_id, {})
    value = model.get("state", {}).get("value")
    return [value] if model.get("model_name") == "HTMLModel" and isinstance(value, str) else []


def cold_picture(output: dict[str, Any], state: dict[str, Any], note: str) -> bool:
    """Show a saved widget output as its picture on a cold open (nothing run yet); True if it does now.

    In the site the saved widgets wait for the kernel (15-40 s) before JupyterLab's widget
    manager draws them from the saved state, and until then show "Loading widget...".  An output
    that saved an SVG picture beside its widget (the game's board, the editor's) shows that picture;
    one that did not (the gym) gets the SVG boards of its saved state as its picture; either with
    ``note`` under it (run the cell to use it).  Running the cell replaces the output with the live widget.
    """
    data = output.get("data", {})
    view = data.get(WIDGET_VIEW)
    if not isinstance(view, dict):
        return False
    svg = data.get("image/svg+xml")
    if isinstance(svg, list):
        svg = "".join(svg)
    if isinstance(svg, str) and "<svg" in svg:  # its own picture (the game, a puzzle, the editor): and the note
        svgs = [svg]
        del data["image/svg+xml"]
    elif any(mime in data for mime in PICTURES):
        svgs = []  # a picture of another kind: kept as it is
    else:
        model_id = str(view.get("model_id", ""))
        svgs = saved_pictures(state, model_id) or saved_html(state, model_id)
        if not svgs:
            return False
    if svgs:
        data["text/html"] = f'<div class="bl-saved-picture">{"".join(svgs)}<p><small>{_esc(note)}</small></p></div>'
    del data[WIDGET_VIEW]
    return True


#: What the picture of a saved widget says under it (the lesson's language: zh/ lessons in Chinese).
COLD_NOTE = {
    "en": "The widget as it was saved: run the cell (Run ▸ Run All Cells) to use it.",
    "zh": "这是保存时的画面：运行这个单元格（Run ▸ Run All Cells）后就能操作。",
}


#: The tag (and cell id) of a lesson's last, hidden cell, whose saved output draws the lesson's saved
#: widgets in a static HTML export (``jupyter nbconvert --to html``; written by ``tools/run_lessons.py``,
#: docs/site.md "Exported to HTML").  The site has its own reading pages: it leaves the cell out.
HTML_EXPORT_TAG = "bl-html-export"


def is_export_cell(cell: dict[str, Any]) -> bool:
    """The cell that draws a lesson's saved widgets in an HTML export (:data:`HTML_EXPORT_TAG`)."""
    return HTML_EXPORT_TAG in (cell.get("metadata", {}).get("tags") or [])


def without_export_cell(notebook: dict[str, Any]) -> dict[str, Any]:
    """``notebook`` without its HTML export cell (in place; returned)."""
    notebook["cells"] = [cell for cell in notebook.get("cells", []) if not is_export_cell(cell)]
    return notebook


def site_notebook(notebook: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The lesson as the site serves it: outputs kept, each multi-line output (a list of lines)
    joined into one string, its code cells with outputs marked trusted, the code of cells that
    only build a widget collapsed, and the Pyodide kernel named as its kernel, with the
    ``language_info`` that kernel reports (so that opening a lesson does not modify it).  The HTML
    export cell is left out (the site draws saved widgets with its own pages and JupyterLab).
    """
    without_export_cell(notebook)
    notebook.setdefault("metadata", {})["kernelspec"] = dict(PYODIDE_KERNELSPEC)
    notebook["metadata"]["language_info"] = json.loads(json.dumps(PYODIDE_LANGUAGE_INFO))
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code" and cell.get("outputs"):
            # JupyterLite checks no notebook signatures: without this its sanitizer strips the
            # saved SVG boards out of the HTML outputs.  They are the checkout's own lessons' outputs.
            cell.setdefault("metadata", {})["trusted"] = True
        if cell.get("cell_type") == "code" and builds_only_a_widget(cell):
            # app mode: a cell that only shows a widget is collapsed to its output (the learner can
            # open it), so its code neither distracts nor gives the puzzle's id away
            cell.setdefault("metadata", {}).setdefault("jupyter", {})["source_hidden"] = True
    # a cold open shows saved widgets as their pictures, not "Loading widget..." until the kernel is up
    metadata_widgets = notebook["metadata"].get("widgets", {})
    state = metadata_widgets.get(WIDGET_STATE, {}).get("state", {})
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            cold_picture(output, state, COLD_NOTE[lang])
    if not any(WIDGET_VIEW in o.get("data", {}) for c in notebook.get("cells", []) for o in c.get("outputs", [])):
        notebook["metadata"].pop("widgets", None)  # no saved widget is drawn from it any more
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
            lang = "zh" if "zh" in rel.parts else "en"
            notebook = site_notebook(json.loads(path.read_text(encoding="utf-8")), lang)
            destination.write_text(json.dumps(notebook, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        else:
            shutil.copyfile(path, destination)
        copied.append(rel)
    return copied


#: The front page's texts and stylesheet (index.html in English, zh.html in Chinese, rules.html).
FRONT = ROOT / "tools" / "site"
#: The learner's path, the practice entries and the teachers' lessons, in order (paths in notebooks/;
#: the Chinese page uses the ``zh/`` copy of a lesson where there is one).
PATH_LESSONS = (
    "00-the-game-in-ten-minutes.ipynb",
    "01-cards-and-formations.ipynb",
    "02-comparing-and-the-tie-rule.ipynb",
    "03-claim-proofs.ipynb",
    "04-tactics-cards.ipynb",
    "07-outs-and-odds.ipynb",  # after the game (lesson 06): what the unseen cards can still do
    "08-three-at-the-table.ipynb",
)
PRACTICE_LESSONS = ("05-puzzle-gym.ipynb", "06-play-a-game.ipynb")
TEACHER_LESSONS = ("teachers/01-writing-puzzles.ipynb", "teachers/02-puzzle-editor.ipynb")


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def lesson_title(notebook: Path) -> str:
    """A lesson's name: its first heading without "Lesson 3 —" / "第3课 ——"."""
    book = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in book.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for line in source.splitlines():
            if line.startswith("# "):
                title = line[2:].strip()
                prefix = r"^(Lesson \d+|第\d+课|For teachers)\s*[—:-]+\s*"
                while re.match(prefix, title, flags=re.IGNORECASE):
                    title = re.sub(prefix, "", title, count=1, flags=re.IGNORECASE)
                return title[:1].upper() + title[1:]
    return notebook.stem


def lesson_link(rel: str) -> tuple[str, str]:
    """The two ways to open a lesson: JupyterLab (with the file browser) and the simple notebook view."""
    return f"lab/index.html?path={rel}", f"notebooks/index.html?path={rel}"


#: The teacher's set on the site (``--puzzles``): its folder and its gym notebook, beside the lessons.
CLASS_PUZZLES = "class-puzzles"
CLASS_GYM = "class-puzzles.ipynb"


def class_gym_notebook(lang: str, texts: dict[str, Any]) -> dict[str, Any]:
    """The teacher's set as a gym page: a heading, one line of what it is, and the gym on that folder."""
    t = texts[lang]
    gym = f'PuzzleGym("{CLASS_PUZZLES}", lang={lang!r})'
    return {
        "cells": [
            {
                "cell_type": "markdown",
                "id": "title",
                "metadata": {},
                "source": f"# {t['class_gym']}\n\n{t['class_gym_goal']}",
            },
            {
                "cell_type": "code",
                "execution_count": None,
                "id": "gym",
                "metadata": {},
                "outputs": [],
                "source": f"from battleline_lab.widgets import PuzzleGym\n\n{gym}",
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def copy_class_puzzles(folder: Path, contents: Path, texts: dict[str, Any]) -> list[Path]:
    """The teacher's puzzle files (as files: never run) into ``contents/class-puzzles/``, and the gym page
    on them (``class-puzzles.ipynb``; ``zh/class-puzzles.zh.ipynb`` for the Chinese front page)."""
    from battleline_lab.quiz.loader import iter_puzzle_files

    copied = []
    for path in sorted(iter_puzzle_files([folder])):
        rel = path.relative_to(folder) if path.is_relative_to(folder) else Path(path.name)
        destination = contents / CLASS_PUZZLES / rel
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, destination)
        copied.append(rel)
    if not copied:
        raise SystemExit(f"error: {folder} holds no puzzle file")
    for lang, rel in (("en", CLASS_GYM), ("zh", f"zh/{CLASS_GYM.removesuffix('.ipynb')}.zh.ipynb")):
        notebook = site_notebook(class_gym_notebook(lang, texts), lang)
        if lang == "zh":  # the gym's folder, seen from zh/
            code = notebook["cells"][1]
            code["source"] = code["source"].replace(f'"{CLASS_PUZZLES}"', f'"../{CLASS_PUZZLES}"')
        (contents / rel).parent.mkdir(parents=True, exist_ok=True)
        (contents / rel).write_text(json.dumps(notebook, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return copied


def front_page(
    lang: str, texts: dict[str, Any], notebooks: Path, config_script: str = "", *, class_gym: bool = False
) -> str:
    """The course's own page (static HTML: no script, no CDN) in ``lang``.

    ``config_script``: JupyterLite's ``<script id="jupyter-config-data" type="application/json">``
    from the root ``index.html`` it built.  Its apps (``lab/``, ``notebooks/``) read the site's
    configuration from the root page, so the front page that replaces it must carry that element
    (JSON data, never run); JupyterLite's redirect to its launcher (``config-utils.js``) is left out.
    """
    t = texts[lang]

    def pick(name: str) -> tuple[str, bool]:
        """The lesson to link for ``name`` in this language, and whether it is the English one on the zh page."""
        if lang == "zh":  # 05-puzzle-gym.ipynb -> zh/05-puzzle-gym.zh.ipynb, teachers/01-... -> zh/teachers/01-...
            zh = f"zh/{name.removesuffix('.ipynb')}.zh.ipynb"
            if (notebooks / zh).exists():
                return zh, False
        return name, lang == "zh"

    def entry(name: str, number: int | None) -> str:
        if name == CLASS_GYM:  # the teacher's set: written by the build, not one of the lessons
            rel = CLASS_GYM if lang == "en" else f"zh/{CLASS_GYM.removesuffix('.ipynb')}.zh.ipynb"
            lab, app = lesson_link(rel)
            return (  # the teacher's gym needs Python: it opens as a notebook
                f'<li id="class-gym"><a class="name wide" href="{_esc(lab)}">{_esc(t["class_gym"])}</a>'
                f'<a class="name narrow" href="{_esc(app)}">{_esc(t["class_gym"])}</a>'
                f'<a class="other" href="{_esc(app)}">{_esc(t["app_link"])}</a>'
                f'<span class="goal">{_esc(t["class_gym_goal"])}</span></li>'
            )
        rel, english = pick(name)
        lab, app = lesson_link(rel)
        title = lesson_title(notebooks / rel)
        if number is not None:
            word = t["lesson_word"].format(n=number) if "{n}" in t["lesson_word"] else f"{t['lesson_word']} {number}"
            title = f"{word} · {title}"
        title += t["english_only"] if english else ""
        goal = t["goals"].get(rel) or t["goals"].get(name, "")
        return (  # the lesson's reading page; the notebook (JupyterLab, or the simple view on a phone) beside it
            f'<li><a class="name" href="read/{_esc(reader_name(rel))}">{_esc(title)}</a>'
            f'<a class="notebook wide" href="{_esc(lab)}">{_esc(t["notebook_link"])}</a>'
            f'<a class="notebook narrow" href="{_esc(app)}">{_esc(t["notebook_link"])}</a>'
            f'<span class="goal">{_esc(goal)}</span></li>'
        )

    start_rel, _ = pick(PATH_LESSONS[0])
    start_inner = f"{_esc(t['start'])} →<small>{_esc(t['start_note'])}</small>"
    path = "".join(entry(name, int(name[:2])) for name in PATH_LESSONS)
    practice = "".join(entry(name, None) for name in ((CLASS_GYM,) if class_gym else ()) + PRACTICE_LESSONS)
    teachers = "".join(entry(name, None) for name in TEACHER_LESSONS)
    other = "en" if lang == "zh" else "zh"
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(t["title"])}</title>
<link rel="stylesheet" href="site.css">
{config_script}
</head>
<body>
<main>
<header><h1>{_esc(t["title"])}</h1>
<a class="lang" href="{_esc(t["other_page"])}" hreflang="{other}">{_esc(t["other_lang"])}</a></header>
<p class="tagline">{_esc(t["tagline"])}</p>
<p class="about">{_esc(t["about"])}</p>
<a class="start" id="start-here" href="read/{_esc(reader_name(start_rel))}">{start_inner}</a>
<p class="note">{_esc(t["how"])} {_esc(t["phone"])}</p>
<h2>{_esc(t["path"])}</h2>
<ol class="lessons" id="path">{path}</ol>
<h2>{_esc(t["practice"])}</h2>
<ul class="lessons" id="practice">{practice}</ul>
<h2>{_esc(t["teachers"])}</h2>
<ul class="lessons" id="teachers">{teachers}</ul>
<h2>{_esc(t["rules"])}</h2>
<p><a id="rules" href="rules.html">{_esc(t["rules"])}</a> — {_esc(t["rules_note"])}</p>
</main>
</body>
</html>
"""


def rules_page(venv: Path, rules: Path) -> str:
    """docs/rules.md as a page of the site, rendered with mistune (in the build venv, from nbconvert)."""
    code = "import sys, mistune; sys.stdout.write(mistune.html(sys.stdin.read()))"
    result = subprocess.run(
        [str(venv / "bin" / "python"), "-c", code],
        input=rules.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"error: rendering {rules} failed: {result.stderr[-2000:]}")
    # links to other docs pages the site does not ship become plain text
    body = re.sub(r'<a href="(?!https?:|#)[^"]*\.md(#[^"]*)?">(.*?)</a>', r"\2", result.stdout)
    # each rule's item gets its id as an anchor, so a proof step's link (rules.html#R12) lands on it
    body = re.sub(r"<li>(\s*)<strong>([RG]\d+)</strong>", r'<li id="\2">\1<strong>\2</strong>', body)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Battle Line: the rules</title>
<link rel="stylesheet" href="site.css">
</head>
<body>
<main class="rules">
<p><a href="index.html">← Battle Line Lab</a> · <a href="zh.html">古战阵实验室</a></p>
{body}
</main>
</body>
</html>
"""


def course_texts() -> dict[str, Any]:
    """The front page's texts (``tools/site/course.json``), by language."""
    texts: dict[str, Any] = json.loads((FRONT / "course.json").read_text(encoding="utf-8"))
    return texts


def write_front_pages(out: Path, venv: Path, *, class_gym: bool = False) -> None:
    """index.html (English; replaces JupyterLite's redirect to its launcher), zh.html, rules.html."""
    texts = course_texts()
    notebooks, _puzzles = course_folders()
    built = (out / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<script id="jupyter-config-data".*?</script>', built, flags=re.DOTALL)
    if found is None:
        raise SystemExit("error: JupyterLite's index.html has no jupyter-config-data (its apps need it)")
    page = front_page("en", texts, notebooks, found.group(0), class_gym=class_gym)
    (out / "index.html").write_text(page, encoding="utf-8")
    (out / "zh.html").write_text(front_page("zh", texts, notebooks, class_gym=class_gym), encoding="utf-8")
    (out / "rules.html").write_text(rules_page(venv, ROOT / "docs" / "rules.md"), encoding="utf-8")
    shutil.copyfile(FRONT / "style.css", out / "site.css")


#: Our script on the site's JupyterLab page: the browser's Back leaves a lesson opened by its
#: ``lab/index.html?path=`` link (docs/site.md, "Back to the front page").
LAB_HISTORY = FRONT / "lab-history.js"
#: Our script on every JupyterLite page: the kernel always gets the browser-kept drive
#: (docs/site.md, "The drive on every page").
DRIVE_GATE = FRONT / "drive-gate.js"
#: Where the drive gate's script gets the site's JupyterLite version.
VERSION_SLOT = "__JUPYTERLITE_VERSION__"
#: JupyterLite's start-up in each app page: the inline script that imports ``config-utils.js``.
BOOT = re.compile(r"(\n[ \t]*)(await import\(\s*'\.\./config-utils\.js)")


def inline_first(html: str, script: str, name: str) -> str:
    """A JupyterLite page ``html`` with ``script`` inline (``<script id="NAME">``), first in its head
    (before any of JupyterLite's scripts, so that it is in place when JupyterLite starts)."""
    head = re.search(r"<head[^>]*>", html)
    if head is None or html.find("<script") < head.end():
        raise SystemExit("error: JupyterLite's page has no <head> before its scripts")
    if "</script" in script.lower():
        raise SystemExit(f"error: the script {name} cannot be inlined (it has </script)")
    tag = f'\n<script id="{name}">\n{script.strip()}\n</script>'
    return html[: head.end()] + tag + html[head.end() :]


def lab_page(html: str, script: str) -> str:
    """JupyterLite's ``lab/index.html`` with ``script`` (:data:`LAB_HISTORY`) inline, first in its head."""
    return inline_first(html, script, "battleline-lab-history")


def gated_page(html: str, script: str, version: str) -> str:
    """A JupyterLite app page with the drive gate (``script``, its version slot filled with
    ``version``) inline first in its head, and JupyterLite's start-up made to wait for it
    (``await battlelineLabDriveReady()`` before ``config-utils.js`` is imported)."""
    if not re.fullmatch(r"[0-9A-Za-z.+-]+", version):
        raise SystemExit(f"error: JupyterLite's appVersion {version!r} is not a version")
    if script.count(VERSION_SLOT) != 1:
        raise SystemExit(f"error: the drive gate's script has no single {VERSION_SLOT}")
    html, found = BOOT.subn(r"\1await window.battlelineLabDriveReady();\1\2", html)
    if found != 1:
        raise SystemExit(f"error: JupyterLite's page starts in {found} places (import of config-utils.js), not one")
    return inline_first(html, script.replace(VERSION_SLOT, version), "battleline-drive-gate")


def app_pages(out: Path) -> list[Path]:
    """JupyterLite's app pages in the built site ``out`` (``lab/``, ``notebooks/``, ``tree/`` ...):
    each ``*/index.html`` that starts JupyterLite (imports ``config-utils.js``)."""
    return sorted(p for p in out.glob("*/index.html") if BOOT.search(p.read_text(encoding="utf-8")))


def write_app_pages(out: Path) -> None:
    """Put :data:`LAB_HISTORY` into the site's ``lab/index.html`` and :data:`DRIVE_GATE` into every
    JupyterLite app page (the lab and the simple notebook view among them)."""
    page = out / "lab" / "index.html"
    script = LAB_HISTORY.read_text(encoding="utf-8")
    page.write_text(lab_page(page.read_text(encoding="utf-8"), script), encoding="utf-8")
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8")).get("jupyter-config-data", {})
    version = str(config.get("appVersion", ""))
    if config.get("enableServiceWorkerCache"):
        raise SystemExit("error: the drive gate registers JupyterLite's service worker with its cache off")
    gate = DRIVE_GATE.read_text(encoding="utf-8")
    pages = app_pages(out)
    if not {"lab", "notebooks"} <= {p.parent.name for p in pages}:
        raise SystemExit(f"error: JupyterLite's app pages not found in {out}: {[p.parent.name for p in pages]}")
    for page in pages:
        page.write_text(gated_page(page.read_text(encoding="utf-8"), gate, version), encoding="utf-8")


# -- the reading view: each lesson as a web page (read/NAME.html), its saved widgets drawn by reader.js --

#: The reading view's script (our small widget manager), its start-up and its stylesheet, shipped in read/.
READER_FILES = ("reader.js", "reader-page.js", "reader.css", "live.js")
#: Where a saved widget's output prefers to be drawn from, after the widget itself.
TEXT_MIMES = ("text/html", "image/svg+xml", "text/plain")


def reader_name(rel: str) -> str:
    """A lesson's reading page in ``read/``: ``zh/03-claim-proofs.zh.ipynb`` -> ``zh-03-claim-proofs.html``.

    One flat folder, so that every page reaches the site's rules page as ``../rules.html``."""
    return rel.removesuffix(".ipynb").removesuffix(".zh").replace("/", "-") + ".html"


def _text(value: object) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def reader_link(href: str, rel: str, lessons: set[str]) -> str | None:
    """Where a lesson's link goes from its reading page: a rule (``rules.md#R12``, ``/rules.md#R12``)
    to the site's rules page, another lesson to its reading page; ``None``: left as it is."""
    path, _, anchor = href.partition("#")
    if re.match(r"^[a-z][a-z0-9+.-]*:", path, flags=re.IGNORECASE) or not path:
        return None
    if path.endswith("rules.md"):
        return "../rules.html" + (f"#{anchor}" if anchor else "")
    parts = [] if path.startswith("/") else rel.split("/")[:-1]
    for part in path.strip("/").split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    target = "/".join(parts)
    return reader_name(target) if target in lessons else None


def _fix_links(html: str, rel: str, lessons: set[str]) -> str:
    def swap(found: re.Match[str]) -> str:
        to = reader_link(found.group(2), rel, lessons)
        return found.group(0) if to is None else f"{found.group(1)}{_esc(to)}{found.group(3)}"

    return re.sub(r'(<a\b[^>]*?\bhref=")([^"]*)(")', swap, html)


#: A lesson's paragraph that tells the learner to run the notebook (its menu Run ▸ Run All Cells): the
#: reading page runs what needs Python by itself, so there the paragraph would only mislead.
NOTEBOOK_ONLY = re.compile(r"<p>(?:(?!</p>).)*Run ▸ Run All Cells(?:(?!</p>).)*</p>\s*", re.DOTALL)


def reading_markdown(html: str) -> str:
    """A markdown cell's HTML as the reading page shows it: without the notebook's "run the cells" paragraph.

    >>> reading_markdown("<h1>Lesson</h1><p><b>先运行所有单元格</b>（菜单 Run ▸ Run All Cells）。</p>\\n<p>Go.</p>")
    '<h1>Lesson</h1><p>Go.</p>'
    """
    return NOTEBOOK_ONLY.sub("", html)


def reader_output(output: dict[str, Any], state: dict[str, Any]) -> str:
    """One saved output as HTML: a widget as a place reader.js draws it into (its saved picture
    inside until then), else the saved HTML, SVG or text."""
    kind = output.get("output_type")
    if kind == "stream":
        stream = "bl-stderr" if output.get("name") == "stderr" else "bl-stdout"
        return f'<pre class="bl-out {stream}">{_esc(_text(output.get("text")))}</pre>'
    if kind == "error":
        return f'<pre class="bl-out bl-stderr">{_esc(output.get("ename", ""))}: {_esc(output.get("evalue", ""))}</pre>'
    data = output.get("data", {})
    view = data.get(WIDGET_VIEW)
    inner = ""
    for mime in TEXT_MIMES:
        if mime in data:
            value = _text(data[mime])
            inner = value if mime != "text/plain" else f'<pre class="bl-out">{_esc(value)}</pre>'
            break
    if isinstance(view, dict) and str(view.get("model_id", "")) in state:
        model_id = _esc(str(view["model_id"]))
        return f'<div class="bl-out bl-widget" data-model-id="{model_id}">{inner}</div>'
    return f'<div class="bl-out">{inner}</div>' if inner else ""


#: A reference to another widget model in a saved model's state (``"IPY_MODEL_<id>"``).
MODEL_REFERENCE = re.compile(r"IPY_MODEL_([0-9A-Za-z_-]+)")


def model_references(model: Any) -> list[str]:
    """The ids a saved widget model refers to (children, layout, style...), in the order its sorted state names them."""
    return MODEL_REFERENCE.findall(json.dumps(model, sort_keys=True))


def walk_models(state: dict[str, Any], root: str, seen: set[str] | None = None) -> Iterator[str]:
    """The ids of ``root`` and every saved model it refers to, each once, depth first (a model, then the ones
    it refers to, in :func:`model_references` order); ids not in ``state`` are passed over.  ``seen`` holds
    the ids walked already (shared by several walks, each model comes out of only one).

    >>> state = {"box": {"state": {"children": ["IPY_MODEL_b", "IPY_MODEL_a"], "layout": "IPY_MODEL_l"}},
    ...          "a": {"state": {"children": ["IPY_MODEL_box"]}}, "b": {}, "l": {}}
    >>> list(walk_models(state, "box")), list(walk_models(state, "a", {"box"}))
    (['box', 'b', 'a', 'l'], ['a'])
    """
    seen = set() if seen is None else seen
    stack = [root]
    while stack:
        key = stack.pop()
        if key in seen or key not in state:
            continue
        seen.add(key)
        yield key
        stack.extend(reversed(model_references(state[key])))


def needs_python(state: dict[str, Any], model_id: str) -> bool:
    """The widget has controls of its own (buttons, menus, fields) beside a board: they need a kernel (the
    reading pages and a lesson's HTML export cell, ``tools/run_lessons.py``, both ask this)."""
    controls = {"ButtonModel", "CheckboxModel", "DropdownModel", "FileUploadModel", "TextModel", "TextareaModel"}
    controls.add("ToggleButtonModel")  # (ToggleButtons alone, a puzzle's language switch, is not one of them)
    return any(state[key].get("model_name") in controls for key in walk_models(state, model_id))


def shipped_state(state: dict[str, Any], files: dict[str, str]) -> dict[str, Any]:
    """The saved widget state with each AnyModel's module and stylesheet in a file of the site
    (``esm/<sha256>.js`` / ``.css``, one per content, added to ``files``): imported once, not
    repeated in every page."""
    out: dict[str, Any] = {}
    for model_id, model in state.items():
        values = dict(model.get("state", {}))
        for key, suffix in (("_esm", ".js"), ("_css", ".css")):
            if model.get("model_name") == "AnyModel" and isinstance(values.get(key), str):
                content = values[key]
                name = f"esm/{hashlib.sha256(content.encode()).hexdigest()[:16]}{suffix}"
                files[name] = content
                values[key] = name
        out[model_id] = dict(model, state=values)
    return out


def reader_page(
    notebook: dict[str, Any],
    rel: str,
    lang: str,
    texts: dict[str, Any],
    markdown: dict[str, str],
    lessons: set[str],
    files: dict[str, str],
) -> str:
    """A lesson as a web page (no JupyterLab): its markdown rendered (``markdown``: source -> HTML),
    its code and saved outputs, the code of cells that only show a widget folded away, and its saved
    widgets drawn by ``reader.js`` from the notebook's saved widget state (no kernel); the notebook
    one click away.  ``files`` gets the AnyModels' modules (see :func:`shipped_state`)."""
    t = texts[lang]
    saved = notebook.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {})
    state = saved.get("state", {})
    cells: list[str] = []
    title = lesson_title_of(notebook) or rel
    for cell in notebook.get("cells", []):
        if is_export_cell(cell):
            continue  # the HTML export's own drawing: this page draws the widgets itself
        source = _text(cell.get("source"))
        if cell.get("cell_type") == "markdown":
            html = _fix_links(reading_markdown(markdown.get(source, f"<p>{_esc(source)}</p>")), rel, lessons)
            cells.append(f'<section class="bl-md">{html}</section>')
            continue
        if cell.get("cell_type") != "code":
            continue
        outputs = cell.get("outputs") or []
        hidden = builds_only_a_widget(cell) or cell.get("metadata", {}).get("jupyter", {}).get("source_hidden", False)
        code = f'<pre class="bl-code"><code>{_esc(source)}</code></pre>' if source.strip() else ""
        if code and hidden:
            code = f'<details class="bl-code-fold"><summary>{_esc(t["code"])}</summary>{code}</details>'
        shown = "".join(reader_output(output, state) for output in outputs)
        for output in outputs:
            view = output.get("data", {}).get(WIDGET_VIEW)
            if isinstance(view, dict) and needs_python(state, str(view.get("model_id", ""))):
                shown += f'<p class="bl-needs-python">{_esc(t["needs_python_note"])}</p>'
                break
        shown = _fix_links(shown, rel, lessons)
        if code or shown:
            cells.append(f'<section class="bl-cell">{code}{shown}</section>')
    data = json.dumps({"state": shipped_state(state, files)}, ensure_ascii=False, separators=(",", ":"))
    data = data.replace("<", "\\u003c")  # JSON data in the page, never markup: no "</script" inside
    live = json.dumps(live_texts()[lang], ensure_ascii=False).replace("<", "\\u003c")
    lab, app = lesson_link(rel)
    home = "zh.html" if lang == "zh" else "index.html"
    links = (  # JupyterLab on a wide screen, the simple notebook view on a phone (site.css)
        f'<a class="bl-open-notebook wide" href="../{_esc(lab)}">{_esc(t["open_notebook"])}</a>'
        f'<a class="bl-open-notebook narrow" href="../{_esc(app)}">{_esc(t["open_notebook"])}</a>'
    )
    return f"""<!DOCTYPE html>
<html lang="{lang}" data-bl-needs-python="{_esc(t["needs_python"])}" data-bl-notebook="../files/{_esc(rel)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(title)} · {_esc(t["title"])}</title>
<link rel="stylesheet" href="../site.css">
<link rel="stylesheet" href="reader.css">
</head>
<body class="bl-reader">
<nav class="bl-reader-bar">
<a class="bl-home" href="../{home}">← {_esc(t["home"])}</a>
{links}
</nav>
<main class="bl-lesson">
{"".join(cells)}
<p class="bl-notebook-note">{links}: {_esc(t["open_notebook_note"])}</p>
</main>
<script type="application/json" id="bl-widget-state">{data}</script>
<script type="application/json" id="bl-live-texts">{live}</script>
<script type="module" src="reader-page.js"></script>
</body>
</html>
"""


def live_texts() -> dict[str, dict[str, str]]:
    """What a reading page's live cells say ("starting…"), by language: the package's message
    catalogue (``locale/<lang>/live.json``, beside the builder when it ships inside the package)."""
    for locale in (ROOT / "battleline_lab" / "locale", ROOT.parent / "locale"):
        if locale.is_dir():
            return {
                lang: json.loads((locale / lang / "live.json").read_text(encoding="utf-8")) for lang in ("en", "zh")
            }
    raise SystemExit("error: the message catalogue (locale/) is not beside the site builder")


def lesson_title_of(notebook: dict[str, Any]) -> str:
    """A lesson's first heading, as it is written."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            for line in _text(cell.get("source")).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return ""


def render_markdown(python: Path, sources: list[str]) -> dict[str, str]:
    """``{source: HTML}`` of markdown texts, rendered with mistune (in the build venv, from nbconvert)
    in one process."""
    code = "import json, sys, mistune; print(json.dumps([mistune.html(s) for s in json.load(sys.stdin)]))"
    unique = sorted(set(sources))
    result = subprocess.run(
        [str(python), "-c", code], input=json.dumps(unique), capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise SystemExit(f"error: rendering the lessons' markdown failed: {result.stderr[-2000:]}")
    return dict(zip(unique, json.loads(result.stdout), strict=True))


def write_reader_pages(out: Path, python: Path, notebooks: Path) -> list[str]:
    """``read/``: a reading page per lesson (English, ``zh/``, ``teachers/``), the modules their saved
    widgets use, and the reading view's script and stylesheet.  Returns the pages' names."""
    texts = course_texts()
    books = {
        path.relative_to(notebooks).as_posix(): without_export_cell(json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(notebooks.rglob("*.ipynb"))
        if not SKIPPED_PARTS & set(path.relative_to(notebooks).parts)
    }
    cells = [cell for book in books.values() for cell in book.get("cells", [])]
    sources = [_text(cell.get("source")) for cell in cells if cell.get("cell_type") == "markdown"]
    markdown = render_markdown(python, sources)
    folder = out / "read"
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    names = []
    for rel, book in books.items():
        lang = "zh" if "zh" in rel.split("/") else "en"
        page = reader_page(book, rel, lang, texts, markdown, set(books), files)
        (folder / reader_name(rel)).write_text(page, encoding="utf-8")
        names.append(reader_name(rel))
    for name, content in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(content, encoding="utf-8")
    for name in READER_FILES:
        shutil.copyfile(FRONT / name, folder / name)
    return names


def build(out: Path, cache: Path, *, bytecode: bool = True, puzzles: Path | None = None) -> Path:
    """Build the site into ``out`` (replaced); ``puzzles``: the teacher's own folder, served by a
    gym page of its own."""
    started = time.monotonic()
    cache.mkdir(parents=True, exist_ok=True)
    filling = hold_cache(cache)  # released once the wheels are in this build's own folder
    try:
        return _build(out, cache, filling, bytecode=bytecode, puzzles=puzzles, started=started)
    finally:
        filling.close()


def hold_cache(cache: Path) -> IO[str]:
    """An open lock file of ``cache``, locked for this build alone (closing it unlocks it).

    Two builds that share a cache (the course site and a teacher's site, built side by side by the
    browser tests) would otherwise both fill an empty one: each making the build venv (the second
    deleting the first's under it), downloading and compiling the same wheels, and building the
    checkout's wheel in the same ``build/`` folder.  The second now waits, then finds it all cached.
    """
    file = (cache / ".lock").open("w")
    if fcntl is not None:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"waiting for another build that is filling {cache}")
            fcntl.flock(file, fcntl.LOCK_EX)
    return file


def _build(out: Path, cache: Path, filling: IO[str], *, bytecode: bool, puzzles: Path | None, started: float) -> Path:
    """:func:`build`, with ``filling`` (:func:`hold_cache`) held until nothing more is taken from the cache."""
    venv = build_venv(cache)
    version = kernel_pyodide_version(venv)
    check_language_info(venv)
    core = pyodide_core(cache, version)
    lock = json.loads((core / "pyodide-lock.json").read_text())
    kernel_names = lock_closure(lock, KERNEL_ROOTS)
    python = ".".join(lock["info"]["python"].split(".")[:2])
    kernel_wheels = download_wheels(cache, {n: lock["packages"][n]["version"] for n in kernel_names}, python)
    extra = site_wheels(cache, python)

    with tempfile.TemporaryDirectory(prefix="site-", dir=cache) as tmp:
        work = Path(tmp)
        ours = package_wheel(work)
        lite = work / "lite"
        static = lite / "static" / "pyodide"
        static.mkdir(parents=True)
        for name in CORE_FILES:
            shutil.copyfile(core / name, static / name)

        own = kernel_own_wheels(venv)
        if bytecode:
            everything = [*kernel_wheels.values(), *extra.values(), *own.values(), ours]
            compiled = compiled_wheels(cache, core, everything)
            kernel_wheels = {name: compiled[wheel] for name, wheel in kernel_wheels.items()}
            extra = {name: compiled[wheel] for name, wheel in extra.items()}
            own = {name: compiled[wheel] for name, wheel in own.items()}
            ours = compiled[ours]

        site = site_lock(lock, kernel_wheels, ours, extra, own)
        for wheel in [*kernel_wheels.values(), *extra.values(), *own.values(), ours]:
            shutil.copyfile(wheel, static / wheel.name)
        (static / "pyodide-lock.json").write_text(json.dumps(site, indent=1))
        filling.close()  # the rest runs from this build's folder and the build venv

        (lite / "jupyter-lite.json").write_text(
            json.dumps(
                {
                    "jupyter-lite-schema-version": 0,
                    "jupyter-config-data": {
                        "appName": "Battle Line Lab",
                        "litePluginSettings": {
                            "@jupyterlite/pyodide-kernel-extension:kernel": {
                                "disablePyPIFallback": True,
                                "loadPyodideOptions": {"packages": [*KERNEL_PRELOAD, *preload()]},
                            }
                        },
                    },
                },
                indent=1,
            )
        )
        contents = work / "contents"
        notebooks, library = course_folders()
        lessons = copy_tree(notebooks, contents, LESSON_SUFFIXES)
        shipped = copy_tree(library, contents / "puzzles", PUZZLE_SUFFIXES)
        log(f"jupyter lite build: {sum(p.suffix == '.ipynb' for p in lessons)} lessons, {len(shipped)} puzzle files")
        if puzzles is not None:
            teachers = copy_class_puzzles(puzzles, contents, course_texts())
            log(f"the teacher's set: {len(teachers)} puzzle files, served by {CLASS_GYM}")
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
        write_front_pages(staging, venv, class_gym=puzzles is not None)
        pages = write_reader_pages(staging, venv / "bin" / "python", notebooks)
        log(f"reading pages: {len(pages)} lessons in read/")
        write_app_pages(staging)
        if out.exists():
            shutil.rmtree(out)
        shutil.move(str(staging), out)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    log("fetched: " + ("; ".join(FETCHED) if FETCHED else "nothing (everything came from the cache)"))
    log(f"built {out} ({size / 1e6:.1f} MB) in {time.monotonic() - started:.0f} s")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "_site", help="the site's folder (replaced)")
    parser.add_argument("--cache", type=Path, default=ROOT / ".site-cache", help="downloads and the build venv")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="ship the wheels without pre-compiled bytecode (slower kernel start)"
    )
    parser.add_argument("--puzzles", type=Path, help="the teacher's own puzzle folder, as a gym page of its own")
    args = parser.parse_args(argv)
    teacher = args.puzzles.resolve() if args.puzzles else None
    build(args.out.resolve(), args.cache.resolve(), bytecode=not args.no_bytecode, puzzles=teacher)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
