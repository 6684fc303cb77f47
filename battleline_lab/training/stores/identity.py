"""Who a data folder belongs to: its learner's random id and name, kept in ``learner.json`` beside the store.

A data folder gets a random id the first time progress is kept in it; every row written there
carries it, and so does every export, so a teacher's report tells two learners apart even when
they share a name.  The name comes from the hub (``$JUPYTERHUB_USER``, else ``$BATTLELINE_LEARNER``:
then it is also the folder's ``account``, the hub name the class folder was made for), else from the
learner (the gym asks once; ``battleline-lab progress name NAME``); it is empty until then.

The file is written atomically: a new folder's file is linked into place from a temporary file, so
two kernels starting at once agree on one id and neither replaces the other's; a new name replaces
the file whole (the id is kept).  A file that cannot be read is set aside under a new name, never
deleted, and the folder gets a new id.  Folders made before ids existed get one the first time
they are opened; their old rows (no id, learner ``me``) stay the folder's learner's.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> first = ensure_identity(folder)
>>> ensure_identity(folder) == first, first.name, len(first.id)
(True, '', 12)
>>> save_name(folder, " Ann ").name, read_identity(folder).id == first.id
('Ann', True)
"""

from __future__ import annotations

import json
import os
import re
import secrets
from dataclasses import dataclass, replace
from pathlib import Path

from .base import _unique_aside

__all__ = ["IDENTITY_FILE", "MAX_NAME", "Identity", "check_name", "ensure_identity", "new_id", "read_identity"]

#: The file, in a data folder, that says whose it is.
IDENTITY_FILE = "learner.json"
#: The longest name a learner can give.
MAX_NAME = 100
_ID = re.compile(r"[0-9a-f]{6,32}")
_BAD = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


@dataclass(frozen=True)
class Identity:
    """A data folder's learner: ``id`` (random, 12 hex digits), ``name`` ("" until known), ``account`` (the
    hub name a class folder was made for; "" outside a class)."""

    id: str
    name: str = ""
    account: str = ""


def new_id() -> str:
    """A new random learner id (12 hex digits)."""
    return secrets.token_hex(6)


def check_name(name: str) -> str:
    """A learner's name as kept (spaces at the ends removed); ValueError says why one cannot be.

    >>> check_name("  Bo Li ")
    'Bo Li'
    """
    text = name.strip()
    if not text:
        raise ValueError("a name cannot be empty")
    if len(text) > MAX_NAME:
        raise ValueError(f"a name is at most {MAX_NAME} characters ({len(text)} given)")
    bad = _BAD.search(text)
    if bad is not None:
        raise ValueError(f"a name cannot hold a control character (U+{ord(bad.group()):04X})")
    return text


def _parse(raw: bytes) -> Identity | None:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("id"), str) or not _ID.fullmatch(data["id"]):
        return None
    name, account = data.get("name", ""), data.get("account", "")
    if not isinstance(name, str) or not isinstance(account, str):
        return None
    for text in (name, account):
        if len(text) > MAX_NAME * 10 or _BAD.search(text):
            return None
    return Identity(data["id"], name.strip(), account)


def read_identity(folder: Path) -> Identity | None:
    """The folder's identity, or None where there is none (or it cannot be read).  Reads only."""
    from ...formats.files import FileTooBigError, read_regular

    path = Path(folder) / IDENTITY_FILE
    if not path.is_file():
        return None
    try:
        return _parse(read_regular(path, 1 << 16))
    except (OSError, FileTooBigError):
        return None


def _text(identity: Identity) -> bytes:
    data = {"id": identity.id, "name": identity.name, "account": identity.account}
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def _write_temp(folder: Path, identity: Identity) -> Path:
    temp = folder / f".{IDENTITY_FILE}.{secrets.token_hex(4)}.tmp"
    with open(temp, "xb") as out:
        out.write(_text(identity))
        out.flush()
        os.fsync(out.fileno())
    return temp


def ensure_identity(folder: Path, account: str | None = None) -> Identity:
    """The folder's identity, made (atomically, never over another's) if it has none yet.

    ``account``: the hub name (``$JUPYTERHUB_USER``); a new identity takes it as its name, and
    an unnamed one is named by it.  A folder that cannot be written gets an identity in memory
    (the same folder opened again gets another: nothing can be kept there anyway).
    """
    folder = Path(folder)
    found = read_identity(folder)
    path = folder / IDENTITY_FILE
    if found is None and (path.exists() or path.is_symlink()):
        try:  # unreadable: kept under a new name, never deleted, and the folder starts a new identity
            path.rename(_unique_aside(path, "damaged"))
        except OSError:
            return Identity(new_id(), account or "", account or "")
    if found is not None:
        if account and not found.name:
            return replace(found, name=account)
        return found
    made = Identity(new_id(), account or "", account or "")
    try:
        temp = _write_temp(folder, made)
    except OSError:
        return made
    link = getattr(os, "link", None)  # Pyodide's os (the site) has no hard links
    try:
        if link is None:
            raise OSError("no hard links here")
        link(temp, path)  # never replaces a file: a kernel that made one at the same moment wins
    except FileExistsError:
        return read_identity(folder) or made
    except OSError:
        try:  # a file system without hard links: a rename that may replace only an identical new file
            if not path.exists():
                os.replace(temp, path)
        except OSError:
            return made
    finally:
        try:
            temp.unlink()
        except OSError:
            pass
    return read_identity(folder) or made


def save_name(folder: Path, name: str) -> Identity:
    """Give the folder's learner a name (``check_name``'s ValueError if it cannot be one); the id is kept."""
    folder = Path(folder)
    current = replace(ensure_identity(folder), name=check_name(name))
    temp = _write_temp(folder, current)
    try:
        os.replace(temp, folder / IDENTITY_FILE)
    except OSError:
        temp.unlink(missing_ok=True)
        raise
    return current
