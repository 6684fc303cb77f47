"""Where a learner's data lives: the data folder (settings, a class folder, the browser's drive), the review folder.

The settings themselves are read by :mod:`battleline_lab.formats.settings`.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from ...formats.settings import CLASS_DIR_VARIABLE
from .legacy import LEGACY_FILE
from .rows import DEFAULT_LEARNER
from .sqlite import _sqlite_available

__all__ = [
    "BROWSER_DATA_FOLDER",
    "BROWSER_DRIVE",
    "REVIEW_FOLDER",
    "class_dir",
    "class_learner",
    "data_account",
    "data_dir",
    "in_browser",
    "review_dir",
]

#: The folder, inside the data folder, of the puzzles saved from the learner's own games.
REVIEW_FOLDER = "review"


#: JupyterLite's Pyodide kernel mounts the file browser's contents (kept in the browser) here.
BROWSER_DRIVE = Path("/drive")
#: The data folder in the browser, under :data:`BROWSER_DRIVE` (visible in the file browser).
BROWSER_DATA_FOLDER = "battleline-data"


def _browser_data_dir(drive: Path = BROWSER_DRIVE, cwd: Path | None = None) -> Path:
    """The data folder under Pyodide: on the persisted drive, whichever folder the notebook is in.

    Outside the drive (another Pyodide front end), the working folder is used.

    >>> _browser_data_dir(Path("/no-such-drive"), cwd=Path("/home/pyodide")).as_posix()
    '/home/pyodide/battleline-data'
    """
    if drive.is_dir():
        return drive / BROWSER_DATA_FOLDER
    return (cwd if cwd is not None else Path.cwd()) / BROWSER_DATA_FOLDER


def class_learner() -> str:
    """The learner's name in a class folder: the JupyterHub user (``$JUPYTERHUB_USER``), else the login name.

    >>> import os; os.environ["JUPYTERHUB_USER"] = "ann"; class_learner()
    'ann'
    >>> del os.environ["JUPYTERHUB_USER"]
    """
    import getpass

    from ...formats.settings import learner_setting

    name = learner_setting()
    if not name:
        try:
            name = getpass.getuser()
        except (KeyError, OSError):  # pragma: no cover - no user name on this system
            name = DEFAULT_LEARNER
    return name


def _login_fallback() -> bool:
    """Whether :func:`class_learner` gives the login name (neither the hub nor ``BATTLELINE_LEARNER`` names one)."""
    from ...formats.settings import learner_setting

    return not learner_setting()


def data_account() -> str | None:
    """The account the data folder :func:`data_dir` gives is kept for (``learner.json``'s ``account``).

    In a class folder, the learner's name there (:func:`class_learner`: the hub's, else
    ``$BATTLELINE_LEARNER``, else the login name), so a folder made under a login name is refused
    to another name just as a hub name's is (:func:`class_folder`); elsewhere the learner setting
    (None: not set; a personal folder is for no account).
    """
    from ...formats.settings import DATA_VARIABLE, SettingError, folder_setting, learner_setting

    try:
        in_class = folder_setting(DATA_VARIABLE) is None and class_dir() is not None
    except SettingError:
        in_class = False
    return class_learner() if in_class else learner_setting()


_PLAIN_LIMIT = 80


def _plain(name: str) -> bool:
    """Whether a name is already one safe folder name (letters, digits, ``-_.@``; no leading dot; short)."""
    return 0 < len(name) <= _PLAIN_LIMIT and not name.startswith(".") and all(c.isalnum() or c in "-_.@" for c in name)


def _folder_name(name: str) -> str:
    """A learner's name as one safe folder name that no other name maps to.

    A name that is one already is its own folder (so a hub's folders stay where they were); any
    other is a readable part and ``+`` and 12 hex digits of its SHA-256 (``+`` is in no plain
    name, so the two kinds never meet, and two names differ in their hash).

    >>> _folder_name("ann_1@x.org"), _folder_name("ann+1@x.org"), _folder_name("a/b")
    ('ann_1@x.org', 'ann_1@x.org+a058b9694c3b', 'a_b+c14cddc033f6')
    """
    if _plain(name):
        return name
    readable = "".join(c if c.isalnum() or c in "-_.@" else "_" for c in name).lstrip(".")[:60]
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{readable}+{digest}"


def class_folder(shared: Path, name: str) -> Path:
    """The learner's own folder in the class folder ``shared``; SettingError if it is another learner's.

    A folder whose ``learner.json`` names another account (a hub name, ``$BATTLELINE_LEARNER`` or
    a login name) is refused (two names never share one folder, even on a file system that folds case).
    """
    from ...formats.settings import HUB_USER_VARIABLE, LEARNER_VARIABLE, SettingError
    from .identity import read_identity

    folder = shared / _folder_name(name)
    found = read_identity(folder)
    if found is not None and found.account and found.account != name:
        problem = f"{folder.name} is the folder of {found.account!r}, not of {name!r}; nothing is written there"
        if _login_fallback():  # the name no one chose: say where it came from and how to give one
            problem += (
                f" ({name!r} is this computer's login name: neither {HUB_USER_VARIABLE} nor {LEARNER_VARIABLE}"
                f" is set; set {LEARNER_VARIABLE} to a name of your own)"
            )
        raise SettingError(CLASS_DIR_VARIABLE, str(shared), problem)
    return folder


def class_dir() -> Path | None:
    """The class folder named by ``$BATTLELINE_CLASS_DIR``, or None outside a class.

    Read by :mod:`battleline_lab.formats.settings` (``~`` expanded; one that cannot be raises its ``SettingError``).
    """
    from ...formats.settings import folder_setting

    return folder_setting(CLASS_DIR_VARIABLE)


def data_dir() -> Path:
    """Where battleline_lab keeps user data (see the module docstring).

    In a class (``$BATTLELINE_CLASS_DIR`` set, ``$BATTLELINE_LAB_DATA`` not): the learner's
    own subfolder of the class folder, ``CLASS_DIR/<learner>/``, which the teacher's
    ``battleline-lab report CLASS_DIR`` reads directly.  The settings are read by
    :mod:`battleline_lab.formats.settings`: a ``~`` that cannot be expanded raises its ``SettingError``.
    """
    from ...formats.settings import DATA_VARIABLE, XDG_DATA_VARIABLE, folder_setting

    explicit = folder_setting(DATA_VARIABLE)
    if explicit is not None:
        return explicit
    shared = class_dir()
    if shared is not None:
        return class_folder(shared, class_learner())
    if sys.platform == "emscripten":
        return _browser_data_dir()
    xdg = folder_setting(XDG_DATA_VARIABLE)
    base = xdg if xdg is not None else Path.home() / ".local" / "share"
    return base / "battleline_lab"


def review_dir(path: Path | str | None = None) -> Path:
    """Where the puzzles of the learner's game reviews are kept: ``review/`` in the data folder.

    ``path`` is what :class:`Progress` takes (a data folder, a database or a
    ``progress.json`` file; ``None``: the user's data folder).  The game's
    "Review this game" saves there (:func:`battleline_lab.game.review.save_for_learner`)
    and the trainer reads from there; this function is the one place the two agree on.

    >>> review_dir("/data/progress.sqlite3").as_posix(), review_dir("/data").as_posix()
    ('/data/review', '/data/review')
    """
    return _locate(path)[0] / REVIEW_FOLDER


def _locate(path: Path | str | None) -> tuple[Path, Path | None, Path | None]:
    """The folder, database file (None: the default name) and legacy JSON file for a ``Progress`` path."""
    if path is None:
        folder = data_dir()
        return folder, None, folder / LEGACY_FILE
    p = Path(path)
    if p.suffix == ".json":
        return p.parent, p.with_name(p.stem + ".sqlite3") if _sqlite_available() else p.with_suffix(".jsonl"), p
    if p.is_dir() or not p.suffix:
        return p, None, p / LEGACY_FILE
    return p.parent, p, None


def in_browser() -> bool:
    """True in Pyodide (JupyterLite): the learner's data is in the browser's storage."""
    return sys.platform == "emscripten"
