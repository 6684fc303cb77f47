"""The environment settings, read in one place: each variable with ``~``, ``~nouser/x``, empty and relative.

A folder setting (``BATTLELINE_LAB_DATA``, ``BATTLELINE_CLASS_DIR``, ``XDG_DATA_HOME``) expands
``~`` and ``~user``, is taken from the working folder when relative, and is unset when empty; one
whose ``~`` cannot be expanded is refused naming the variable: exit 2 in the command line, a
message in the widgets (never an exception, never a folder literally named ``~nouser``).  The
learner's name (``BATTLELINE_LEARNER``) is a name, never a path: it always gives one folder
inside the class folder.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from battleline_lab.training.progress import ProgressWarning, class_dir, data_dir
from tests.solving import solve
from tests.test_robustness import run

DATA, CLASS, LEARNER, XDG = "BATTLELINE_LAB_DATA", "BATTLELINE_CLASS_DIR", "BATTLELINE_LEARNER", "XDG_DATA_HOME"
UNKNOWN = "~no-such-user-of-battleline/x"


class Env:
    """The test's folders: ``home`` (``$HOME``), ``cwd`` (the working folder), ``klass`` (a class folder)."""

    def __init__(self, tmp_path: Path) -> None:
        self.home = tmp_path / "home"
        self.cwd = tmp_path / "work"
        self.klass = tmp_path / "class"
        for folder in (self.home, self.cwd):
            folder.mkdir()


Expect = Callable[[Env], Path]

#: (variable, value, the data folder expected; None: refused, naming the variable)
CASES: list[tuple[str, str, Expect | None]] = [
    (DATA, "~", lambda e: e.home),
    (DATA, "~/lab", lambda e: e.home / "lab"),
    (DATA, UNKNOWN, None),
    (DATA, "~x", None),
    (DATA, "", lambda e: e.home / ".local" / "share" / "battleline_lab"),
    (DATA, "rel/data", lambda e: e.cwd / "rel" / "data"),
    (CLASS, "~", lambda e: e.home / "ann"),
    (CLASS, "~/class", lambda e: e.home / "class" / "ann"),
    (CLASS, UNKNOWN, None),
    (CLASS, "", lambda e: e.home / ".local" / "share" / "battleline_lab"),
    (CLASS, "rel", lambda e: e.cwd / "rel" / "ann"),
    (XDG, "~", lambda e: e.home / "battleline_lab"),
    (XDG, UNKNOWN, None),
    (XDG, "", lambda e: e.home / ".local" / "share" / "battleline_lab"),
    (XDG, "rel", lambda e: e.cwd / "rel" / "battleline_lab"),
]
KINDS = {"~": "tilde", "~/lab": "tilde-path", "~/class": "tilde-path", UNKNOWN: "nouser", "~x": "nouser-short"}


def _id(case: tuple[str, str, Expect | None]) -> str:
    return f"{case[0]}-{KINDS.get(case[1], 'empty' if not case[1] else 'relative')}"


def _setting(monkeypatch: pytest.MonkeyPatch, env: Env, variable: str, value: str) -> None:
    """Only ``variable`` set (to ``value``), beside ``$HOME``; the learner is ``ann`` in a class."""
    for name in (DATA, CLASS, LEARNER, XDG, "JUPYTERHUB_USER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(env.home))
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")
    monkeypatch.chdir(env.cwd)
    monkeypatch.setenv(variable, value)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_each_setting_names_its_folder_or_is_refused(
    case: tuple[str, str, Expect | None], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    variable, value, expected = case
    env = Env(tmp_path)
    _setting(monkeypatch, env, variable, value)
    if expected is None:
        from battleline_lab.formats.settings import SettingError

        with pytest.raises(SettingError) as refused:
            data_dir()
        assert variable in str(refused.value) and value in str(refused.value)
        assert not any(p.name.startswith("~") for p in (env.cwd, *env.cwd.iterdir()))
        return
    folder = data_dir()
    assert folder.is_absolute() and folder == expected(env)
    if variable == CLASS and value:
        assert class_dir() == folder.parent


@pytest.mark.parametrize("case", [c for c in CASES if c[2] is None], ids=[_id(c) for c in CASES if c[2] is None])
def test_a_setting_that_cannot_be_expanded_is_a_located_exit_2(
    case: tuple[str, str, Expect | None], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    variable, value, _ = case
    env = Env(tmp_path)
    _setting(monkeypatch, env, variable, value)
    status, out, err = run(["progress", "export"])
    assert status == 2, (status, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"battleline-lab: error: {variable}="), err
    assert "internal error" not in err and "Traceback" not in err
    assert not list(env.cwd.iterdir())  # no folder named after the unexpanded setting


@pytest.mark.parametrize("case", [c for c in CASES if c[2] is None], ids=[_id(c) for c in CASES if c[2] is None])
def test_the_widgets_show_the_refused_setting_and_keep_answers(
    case: tuple[str, str, Expect | None], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from battleline_lab.quiz import library
    from battleline_lab.widgets import PuzzleGym, PuzzleWidget, default_progress

    variable, value, _ = case
    env = Env(tmp_path)
    _setting(monkeypatch, env, variable, value)
    # a fresh kernel-wide cache, where default_progress() looks it up
    monkeypatch.setattr("battleline_lab.widgets._common._DEFAULT_PROGRESS", {})
    puzzle = library.get("one-end-open")
    widget = PuzzleWidget(puzzle)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProgressWarning)
        assert solve(widget) is True
        gym = PuzzleGym("seed-examples")
    progress = default_progress()
    assert progress.get(puzzle.id).solved  # kept (in memory) for the session
    assert variable in (progress.problem or "")
    assert variable in gym.warning.value
    assert not list(env.cwd.iterdir())


#: The learner's name in a class folder: never expanded, never a path, always one folder in the class.
NAMES = ["~", UNKNOWN, "", "rel/x", "../../escape"]


@pytest.mark.parametrize("name", NAMES, ids=["tilde", "nouser", "empty", "relative", "dotdot"])
def test_the_learners_name_is_one_folder_in_the_class(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = Env(tmp_path)
    _setting(monkeypatch, env, CLASS, str(env.klass))
    monkeypatch.delenv("JUPYTERHUB_USER")
    monkeypatch.setenv(LEARNER, name)
    folder = data_dir()
    assert folder.parent == env.klass and folder.name not in ("", ".", "..") and "/" not in folder.name
