"""The environment settings battleline_lab reads, read in one place.

``BATTLELINE_LAB_DATA`` (the learner's data folder), ``BATTLELINE_CLASS_DIR`` (a class's shared
folder, one subfolder per learner), ``XDG_DATA_HOME`` (the usual base of the data folder) and
``BATTLELINE_LEARNER`` (the learner's name in a class folder when ``JUPYTERHUB_USER`` is not set) and
``BATTLELINE_PUZZLES`` (the teacher's puzzle folder: what the gym and the trainer serve when no
puzzles are named).

A folder setting is read the same way whichever it is: empty means unset; ``~`` and ``~user`` are
expanded as a shell would; a relative folder is taken from the working folder when the setting is
read (so the data folder stays put when a notebook changes folder).  A ``~`` that cannot be
expanded (``~nouser/x``: no such user) is refused with a :class:`SettingError` naming the variable,
never taken as a folder literally named ``~nouser``.  The command line ends such a refusal with
exit 2; the widgets show its message and keep the learner's answers in memory.

>>> env = {"BATTLELINE_LAB_DATA": "~/lab", "HOME": "/home/ann"}
>>> folder_setting(DATA_VARIABLE, env).as_posix()
'/home/ann/lab'
>>> folder_setting(CLASS_DIR_VARIABLE, {"BATTLELINE_CLASS_DIR": ""}) is None
True
>>> folder_setting(CLASS_DIR_VARIABLE, {"BATTLELINE_CLASS_DIR": "~no-such-user-here/x"})
Traceback (most recent call last):
...
battleline_lab.formats.settings.SettingError: BATTLELINE_CLASS_DIR='~no-such-user-here/x': ...
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = [
    "CLASS_DIR_VARIABLE",
    "DATA_VARIABLE",
    "LEARNER_VARIABLE",
    "PUZZLES_VARIABLE",
    "XDG_DATA_VARIABLE",
    "SettingError",
    "folder_setting",
    "learner_setting",
    "puzzles_setting",
]

#: The learner's data folder (wins over a class folder).
DATA_VARIABLE = "BATTLELINE_LAB_DATA"
#: A class's shared folder (JupyterHub, one shared computer): each learner's data goes to a subfolder.
CLASS_DIR_VARIABLE = "BATTLELINE_CLASS_DIR"
#: The learner's name in a class folder, when JupyterHub does not give one (``JUPYTERHUB_USER``).
LEARNER_VARIABLE = "BATTLELINE_LEARNER"
#: The teacher's puzzle folder: the gym's and the trainer's puzzles when none are named.
PUZZLES_VARIABLE = "BATTLELINE_PUZZLES"
#: The base of the default data folder (the XDG base directory rules).
XDG_DATA_VARIABLE = "XDG_DATA_HOME"
#: Who is logged in to JupyterHub: the learner's name in a class folder.
HUB_USER_VARIABLE = "JUPYTERHUB_USER"


class SettingError(Exception):
    """A setting that cannot be used; the message names the variable and its value (escaped)."""

    def __init__(self, variable: str, value: str, problem: str) -> None:
        from .safe_yaml import escape_control

        self.variable, self.value, self.problem = variable, value, problem
        # the problem may repeat the value (a folder name to write instead): escaped like the value
        super().__init__(f"{variable}={escape_control(repr(value))}: {escape_control(problem)}")


def _environ(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def _expand_user(value: str, environ: Mapping[str, str]) -> str:
    """``~`` and ``~user`` at the start of ``value`` expanded (``~`` alone: ``environ``'s HOME)."""
    if not value.startswith("~"):
        return value
    user, sep, rest = value[1:].partition("/")
    home = (environ.get("HOME") or os.path.expanduser("~")) if not user else os.path.expanduser("~" + user)
    if home.startswith("~"):
        return value  # not expanded: the caller refuses it
    return os.path.join(home, rest) if sep else home


def folder_setting(variable: str, environ: Mapping[str, str] | None = None) -> Path | None:
    """The folder ``variable`` names (``None``: unset or empty), ``~`` expanded and made absolute.

    Raises :class:`SettingError` for a ``~`` or ``~user`` that cannot be expanded, and for a
    value holding a NUL character (no folder can have one).

    >>> folder_setting("X", {"X": "~", "HOME": "/home/ann"}).as_posix()
    '/home/ann'
    >>> folder_setting("X", {"X": "data"}) == Path.cwd() / "data"
    True
    """
    value = _environ(environ).get(variable)
    if not value:
        return None
    if "\0" in value:
        raise SettingError(variable, value, "a folder name cannot hold a NUL character")
    expanded = _expand_user(value, _environ(environ))
    if expanded.startswith("~"):
        user = value[1:].partition("/")[0]
        if user:
            problem = f"'~{user}' cannot be expanded: there is no user {user!r}"
        else:
            problem = "'~' cannot be expanded: no home folder"
        raise SettingError(variable, value, f"{problem} (write ./{value} for a folder of that name)")
    return Path(os.path.abspath(expanded))


def learner_setting(environ: Mapping[str, str] | None = None) -> str | None:
    """The learner's name from ``JUPYTERHUB_USER``, else ``BATTLELINE_LEARNER`` (``None``: neither is set).

    A name, not a folder: nothing is expanded (the class folder makes it one safe folder name).

    >>> learner_setting({"BATTLELINE_LEARNER": "~ann"}), learner_setting({"BATTLELINE_LEARNER": ""})
    ('~ann', None)
    """
    env = _environ(environ)
    return env.get(HUB_USER_VARIABLE) or env.get(LEARNER_VARIABLE) or None


def puzzles_setting(environ: Mapping[str, str] | None = None) -> Path | None:
    """The teacher's puzzle folder named by ``BATTLELINE_PUZZLES`` (``None``: unset or empty).

    Read like every folder setting; a value that names no folder is refused with a
    :class:`SettingError` (a class served the library while the teacher thinks it has their set
    would be a silent mistake).

    >>> puzzles_setting({"BATTLELINE_PUZZLES": ""}) is None
    True
    >>> puzzles_setting({"BATTLELINE_PUZZLES": "no-such-folder-here"})
    Traceback (most recent call last):
    ...
    battleline_lab.formats.settings.SettingError: BATTLELINE_PUZZLES='no-such-folder-here': no such folder
    """
    folder = folder_setting(PUZZLES_VARIABLE, environ)
    if folder is not None and not folder.is_dir():
        raise SettingError(PUZZLES_VARIABLE, _environ(environ)[PUZZLES_VARIABLE], "no such folder")
    return folder
