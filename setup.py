"""Build hook: the wheel carries the puzzle library and the lessons as package data.

The checkout keeps them where authors and teachers edit them, at the top level
(``puzzles/`` and ``notebooks/``); building the package copies them into it:

- ``puzzles/**`` -> ``battleline_lab/puzzles/`` (read by ``battleline_lab.quiz.library``);
- ``notebooks/**`` lessons (``*.ipynb`` and the pictures or notes beside them; no
  checkpoints, no pytest ``conftest.py``) -> ``battleline_lab/lessons/`` (copied out by
  ``battleline-lab lessons``);
- the static site's builder (``tools/build_site.py``, ``tools/site/``, its requirements and
  ``docs/rules.md``) -> ``battleline_lab/sitebuild/``, in the same places (run by
  ``battleline-lab site``, which builds the course site from the wheel, no checkout needed).

An editable install (``pip install -e .``) copies nothing: there ``library.root()``
and ``library.lessons_root()`` find the checkout's folders.  ``MANIFEST.in`` puts
both folders into the sdist, so a wheel built from the sdist carries them too.
Everything else about the package is declared in ``pyproject.toml``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: (folder in the checkout, folder inside the package, which files to take).
BUNDLES = (
    ("puzzles", "puzzles", (".yaml", ".yml", ".md")),
    ("notebooks", "lessons", (".ipynb", ".md", ".png", ".svg", ".jpg", ".gif")),
)
SKIPPED_PARTS = {".ipynb_checkpoints", "__pycache__", ".pytest_cache"}
#: The site builder's files, copied to ``battleline_lab/sitebuild/`` at the same relative paths.
SITE_BUILD = (
    "tools/build_site.py",
    "tools/site-requirements.txt",
    "tools/site/compile_wheels.mjs",
    "tools/site/course.json",
    "tools/site/lab-history.js",
    "tools/site/live.js",
    "tools/site/reader.css",
    "tools/site/reader-page.js",
    "tools/site/reader.js",
    "tools/site/style.css",
    "docs/rules.md",
)


def _bundled_files(source: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(
        path
        for path in source.rglob("*")
        if path.is_file()
        and path.suffix.lower() in suffixes
        and not SKIPPED_PARTS & set(path.relative_to(source).parts)
        and not path.name.startswith(".")
    )


class BuildPyWithLibrary(build_py):  # type: ignore[misc]
    """``build_py`` that also copies the puzzle library and the lessons into the package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's folders directly
        for source_name, target_name, suffixes in BUNDLES:
            source = HERE / source_name
            target = Path(self.build_lib) / "battleline_lab" / target_name
            if target.exists():
                shutil.rmtree(target)  # no stale copies of deleted files from an earlier build
            files = _bundled_files(source, suffixes)
            if not files:
                raise SystemExit(f"error: nothing to bundle from {source_name}/ (is this a complete checkout/sdist?)")
            for path in files:
                destination = target / path.relative_to(source)
                destination.parent.mkdir(parents=True, exist_ok=True)
                self.copy_file(str(path), str(destination), preserve_mode=False)
        target = Path(self.build_lib) / "battleline_lab" / "sitebuild"
        if target.exists():
            shutil.rmtree(target)
        for name in SITE_BUILD:
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(str(HERE / name), str(destination), preserve_mode=False)


setup(cmdclass={"build_py": BuildPyWithLibrary})
