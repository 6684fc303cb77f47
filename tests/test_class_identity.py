"""A class that knows who is who: each learner's name and id, one folder per hub name, hand-ins that never
replace each other, and a report that points each learner's help at what they missed.

Table-driven, one table per family (each id starts with it):

* ``identity``: a data folder's random id and name (hub, the gym's question, ``progress name``), on every
  row and export, an old folder's rows kept;
* ``folder``: hub names that must not share a class folder, and a folder that is another name's refused
  (whether the name is the hub's, ``BATTLELINE_LEARNER`` or the login name);
* ``hand-in``: whose each hand-in is (file, folder), duplicates merged by id, two learners of one name apart;
* ``report``: the page and ``report --json``: rules and themes per learner, counted once, cut lists say so,
  a never-solved column, answers in words, no level from a handful of learners, a Mud miss (R25) counted;

and the whole story: three site downloads handed in to one folder, reported by name, no row lost.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.cli import main
from battleline_lab.quiz import library
from battleline_lab.training.progress import (
    DATABASE_FILE,
    EXPORT_FORMAT,
    IDENTITY_FILE,
    MIGRATIONS,
    Progress,
    ProgressWarning,
    export_filename,
)
from battleline_lab.training.stores.folders import _folder_name
from battleline_lab.training.trainer import PuzzleSession
from battleline_lab.widgets import PuzzleGym

HAND = "seed-blue-seven-in-your-hand"  # a wrong answer misses R13
FOG = "fog-wrecks-a-low-wedge"  # R24
MUD = "mud-needs-a-fourth"  # R25


def _wrong(answer: object) -> object:
    return (not answer) if isinstance(answer, bool) else "b"


def _answer(progress: Progress, pid: str, right: bool) -> None:
    puzzle = library.get(pid)
    session = PuzzleSession(puzzle, progress=progress, source="gym")
    session.answer(puzzle.solve() if right else _wrong(puzzle.solve()))
    if not right:
        session.answer(puzzle.solve())


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- identity -------------------------------------------------------------------------------------


def _fresh_folders_differ(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = Progress(tmp_path / "a"), Progress(tmp_path / "b")
    assert re.fullmatch(r"[0-9a-f]{12}", a.learner_id) and a.learner_id != b.learner_id
    assert Progress(tmp_path / "a").learner_id == a.learner_id  # kept in the folder
    a.record_attempt("p", correct=True)
    assert a.attempts()[0].learner_id == a.learner_id


def _hub_names_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTERHUB_USER", "ann")
        p = Progress(tmp_path)
        p.record_attempt("p", correct=True)
    assert p.learner == "ann" and p.named
    row = p.attempts()[0]
    assert (row.learner, row.learner_id) == ("ann", p.learner_id)


def _old_folder_keeps_its_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = sqlite3.connect(tmp_path / DATABASE_FILE)  # a database as an older version left it: no ids at all
    for version in MIGRATIONS[:2]:
        for statement in version:
            db.execute(statement)
    db.execute("PRAGMA user_version = 2")
    db.execute("INSERT INTO attempts (learner, puzzle_id, kind, correct, at) VALUES ('me', 'old', 'answer', 1, 1.0)")
    db.commit()
    db.close()
    code, out, _err = _run(["progress", "export", "--data", str(tmp_path)], capsys)  # read only: no migration
    assert code == 0 and [a["puzzle_id"] for a in json.loads(out)["attempts"]] == ["old"]
    assert not (tmp_path / IDENTITY_FILE).exists()
    p = Progress(tmp_path)
    assert (tmp_path / IDENTITY_FILE).is_file() and p.get("old").solved  # an id added, the row still theirs
    p.set_name("Ann")
    p.record_attempt("new", correct=True)
    again = Progress(tmp_path)
    assert again.learner == "Ann" and {r.puzzle_id for r in again.attempts()} == {"old", "new"}
    code, out, _err = _run(["progress", "export", "--data", str(tmp_path)], capsys)
    document = json.loads(out)  # the folder's learner, every row saying whose (the old one too)
    assert (document["learner"], document["learner_id"]) == ("Ann", p.learner_id)
    assert [(a["puzzle_id"], a["learner_id"]) for a in document["attempts"]] == [
        ("old", p.learner_id),
        ("new", p.learner_id),
    ]


def _name_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Progress(tmp_path).record_attempt("p", correct=True)
    code, out, _ = _run(["progress", "name", "--data", str(tmp_path)], capsys)
    learner_id = Progress(tmp_path).learner_id
    assert code == 0 and "no name yet" in out and learner_id in out
    code, out, _ = _run(["progress", "name", "Bo Li", "--data", str(tmp_path)], capsys)
    assert code == 0 and out.startswith("Bo Li (learner id " + learner_id)
    code, out, _ = _run(["progress", "export", "--data", str(tmp_path)], capsys)  # the folder's learner
    document = json.loads(out)
    assert (document["learner"], document["learner_id"], len(document["attempts"])) == ("Bo Li", learner_id, 1)
    code, _out, err = _run(["progress", "name", " ", "--data", str(tmp_path)], capsys)
    assert code == 2 and err.count("\n") == 1 and ": error: " in err and "Traceback" not in err


def _gym_asks_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gym = PuzzleGym("seed-examples", progress=Progress(tmp_path))
    assert gym.name_box.layout.display != "none" and "Your name, for your teacher" in gym.name_label.value
    gym.save_progress()  # before a name: the short id keeps two such downloads apart
    assert f'download="battleline-progress-me-{gym.progress.learner_id[:6]}.json"' in gym.transfer.value
    assert not gym.give_name("\x07") and gym.name_box.layout.display != "none"
    assert gym.give_name("Ann Lee") and gym.name_box.layout.display == "none"
    gym.save_progress()
    assert 'download="battleline-progress-Ann-Lee.json"' in gym.transfer.value
    again = PuzzleGym("seed-examples", progress=Progress(tmp_path), lang="zh")
    assert again.name_box.layout.display == "none" and again.progress.learner == "Ann Lee"  # asked once
    zh = PuzzleGym("seed-examples", progress=Progress(tmp_path / "other"), lang="zh")
    assert "你的名字（给老师看）" in zh.name_label.value


IDENTITY: list[tuple[str, Callable[[Path, pytest.CaptureFixture[str]], None]]] = [
    ("identity-fresh-folders-get-their-own-id", _fresh_folders_differ),
    ("identity-the-hub-names-every-row", _hub_names_rows),
    ("identity-an-old-folder-keeps-its-rows-and-gets-an-id", _old_folder_keeps_its_rows),
    ("identity-progress-name-shows-and-sets", _name_command),
    ("identity-the-gym-asks-the-name-once", _gym_asks_once),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_progress_name_of_a_folder_with_no_progress_is_one_line_in_the_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from battleline_lab.text.messages import message

    code, out, err = _run(["--lang", lang, "progress", "name", "--data", str(tmp_path / "none")], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err == f"{tmp_path / 'none'}:1:1: error: {message('trainer.cli.name.none', lang)}\n"


@pytest.mark.parametrize("case", [c[1] for c in IDENTITY], ids=[c[0] for c in IDENTITY])
def test_identity(
    case: Callable[[Path, pytest.CaptureFixture[str]], None], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case(tmp_path, capsys)


def test_identity_without_hard_links_as_in_pyodide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The site's Python (Pyodide) has no ``os.link``: a folder still gets one identity, kept."""
    from battleline_lab.training.stores import identity

    monkeypatch.delattr(identity.os, "link")
    made = identity.ensure_identity(tmp_path, "ann")
    assert made.name == "ann" and identity.read_identity(tmp_path) == made
    assert identity.ensure_identity(tmp_path) == made
    assert sorted(p.name for p in tmp_path.iterdir()) == [identity.IDENTITY_FILE]


# -- one folder per hub name ------------------------------------------------------------------------

SHARED_PREFIX = "x" * 80
FOLDER_PAIRS = [
    ("folder-plus-and-underscore", "ann+1@x.org", "ann_1@x.org"),
    ("folder-slash-and-underscore", "a/b", "a_b"),
    ("folder-eighty-shared-characters", SHARED_PREFIX + "1", SHARED_PREFIX + "2"),
    ("folder-space-and-underscore", "ann lee", "ann_lee"),
]


@pytest.mark.parametrize(("one", "other"), [c[1:] for c in FOLDER_PAIRS], ids=[c[0] for c in FOLDER_PAIRS])
def test_two_hub_names_never_share_a_folder(
    one: str, other: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BATTLELINE_LAB_DATA", raising=False)
    monkeypatch.setenv("BATTLELINE_CLASS_DIR", str(tmp_path))
    folders: list[Path] = []
    for name in (one, other):
        monkeypatch.setenv("JUPYTERHUB_USER", name)
        p = Progress()
        p.record_attempt(f"by-{len(folders)}", correct=True)
        assert p.folder is not None and p.folder.parent == tmp_path and "/" not in _folder_name(name)
        folders.append(p.folder)
    assert folders[0] != folders[1]
    monkeypatch.setenv("JUPYTERHUB_USER", one)
    assert [r.puzzle_id for r in Progress().attempts()] == ["by-0"]  # nobody sees another's rows


def test_folder_of_another_account_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BATTLELINE_LAB_DATA", raising=False)
    monkeypatch.setenv("BATTLELINE_CLASS_DIR", str(tmp_path))
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")
    Progress().record_attempt("ann's", correct=True)
    ident = tmp_path / "ann" / IDENTITY_FILE
    data = json.loads(ident.read_text())
    ident.write_text(json.dumps({**data, "account": "Ann"}))  # as a case-folding file system would share it
    with pytest.warns(ProgressWarning, match="not of 'ann'"):
        p = Progress()
    assert p.attempts() == [] and p.folder is None  # nothing read from, nothing written to, the other's folder


#: Where the learner's name in a class folder comes from: the hub, ``BATTLELINE_LEARNER``, or (neither
#: set) the login name; whichever it is, the folder is that name's and refused to another.
NAME_SOURCES = [
    ("folder-account-from-the-hub", {"JUPYTERHUB_USER": "ann"}),
    ("folder-account-from-BATTLELINE_LEARNER", {"BATTLELINE_LEARNER": "ann"}),
    ("folder-account-from-the-login-name", {}),
]


def _class_learner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    import getpass

    monkeypatch.delenv("BATTLELINE_LAB_DATA", raising=False)
    monkeypatch.setenv("BATTLELINE_CLASS_DIR", str(tmp_path))
    for variable in ("JUPYTERHUB_USER", "BATTLELINE_LEARNER"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in env.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setattr(getpass, "getuser", lambda: "ann")  # the login name, where nothing else names one


@pytest.mark.parametrize("env", [c[1] for c in NAME_SOURCES], ids=[c[0] for c in NAME_SOURCES])
def test_a_class_folder_is_kept_for_its_name_wherever_the_name_comes_from(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _class_learner(tmp_path, monkeypatch, env)
    Progress().record_attempt("ann's", correct=True)
    ident = tmp_path / "ann" / IDENTITY_FILE
    data = json.loads(ident.read_text())
    assert data["account"] == "ann" and data["name"] == "ann"
    # "Ann" made the folder on a file system that folds case: "ann" shares it only by accident
    ident.write_text(json.dumps({**data, "account": "Ann"}))
    with pytest.warns(ProgressWarning, match="'ann'; nothing is written there"):
        p = Progress()
    assert p.attempts() == [] and p.folder is None  # nothing read from, nothing written to, the other's folder
    code, out, err = _run(["progress", "name"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "not of 'ann'" in err, err
    assert ("login name" in err) == (env == {}), err  # the name no one chose is said to be the login name
    assert json.loads(ident.read_text())["account"] == "Ann"


# -- whose hand-ins ---------------------------------------------------------------------------------


def _doc(
    name: str, learner_id: str | None, rows: list[tuple[str, bool | None, str | None]], **extra: Any
) -> dict[str, Any]:
    """An export document: rows of (puzzle id, right or wrong (None: the solution shown), rule)."""
    attempts = []
    for n, (pid, correct, rule) in enumerate(rows):
        row: dict[str, Any] = {"learner": name, "puzzle_id": pid, "at": float(n + 1), "hints": 0}
        row.update(kind="reveal", correct=False) if correct is None else row.update(kind="answer", correct=correct)
        if rule:
            row["rule"] = rule
        if learner_id:
            row["learner_id"] = learner_id
        attempts.append(row)
    doc: dict[str, Any] = {"format": EXPORT_FORMAT, "version": 1, "learner": name, "attempts": attempts, **extra}
    if learner_id:
        doc["learner_id"] = learner_id
    return doc


def _report(
    tmp_path: Path, files: dict[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> tuple[dict[str, Any], str, str]:
    """``report --json`` and the page for these files, and what was said on stderr."""
    folder = tmp_path / "handed-in"
    folder.mkdir(exist_ok=True)
    for name, doc in files.items():
        (folder / name).write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = _run(["report", str(folder), "--json"], capsys)
    assert code == 0, err
    page = tmp_path / "class.html"
    code, _out, _err = _run(["report", str(folder), "--out", str(page), "--force"], capsys)
    assert code == 0
    return json.loads(out), page.read_text(encoding="utf-8"), err


def _names(data: dict[str, Any]) -> list[str]:
    return sorted(learner["name"] for learner in data["learners"])


def _three_named_by_file(data: dict[str, Any], page: str, err: str) -> None:
    assert _names(data) == ["ann", "bo", "cy"] and "3 learners" in page


def _twice_is_once(data: dict[str, Any], page: str, err: str) -> None:
    assert [(x["name"], x["tried"], x["missed_rules"]) for x in data["learners"]] == [("ann", 1, {"R13": 1})]


def _same_name_apart(data: dict[str, Any], page: str, err: str) -> None:
    assert sorted(x["id"] for x in data["learners"]) == ["aaaaaa000001", "bbbbbb000002"]
    assert "ann · aaaaaa" in page and "ann · bbbbbb" in page
    assert "2 learners are called ann" in err and "2 learners are called ann" in page


def _row_of_another(data: dict[str, Any], page: str, err: str) -> None:
    assert _names(data) == ["ann"] and data["learners"][0]["missed_rules"] == {"R11": 1, "R13": 1}
    # a located warning on stderr (the file it is about), the same words on the page
    said = r"ann\.json:1:1: warning: rows naming another learner \(bo; 1 in all\) are counted as ann's"
    assert re.search(said, err), err
    assert "ann.json: rows naming another learner (bo; 1 in all) are counted as ann&#x27;s" in page or (
        "ann.json: rows naming another learner (bo; 1 in all) are counted as ann's" in page
    )


BO_ROW = {"learner": "bo", "learner_id": "bbbbbb000002", "puzzle_id": "p2", "kind": "answer", "correct": False,
          "rule": "R11", "at": 9.0}  # fmt: skip
ANN = _doc("ann", "aaaaaa000001", [("p1", False, "R13")])
HAND_INS: list[tuple[str, dict[str, dict[str, Any]], Callable[[dict[str, Any], str, str], None]]] = [
    (
        "hand-in-three-old-exports-all-called-me-are-three-learners-named-by-file",
        {f"{n}.json": _doc("me", None, [(f"p{n}", n == "ann", "R13")]) for n in ("ann", "bo", "cy")},
        _three_named_by_file,
    ),
    (
        "hand-in-the-same-export-twice-is-one-learner-each-row-once",
        {
            "battleline-progress-ann.json": _doc("ann", "aaaaaa000001", [("p1", False, "R13"), ("p1", True, None)]),
            "battleline-progress-ann (1).json": ANN,
        },
        _twice_is_once,
    ),
    (
        "hand-in-two-learners-sharing-a-name-are-shown-apart-with-a-warning",
        {
            "a.json": _doc("ann", "aaaaaa000001", [("p1", True, None)]),
            "b.json": _doc("ann", "bbbbbb000002", [("p1", False, "R11")]),
        },
        _same_name_apart,
    ),
    (
        "hand-in-a-row-naming-another-learner-is-the-files-with-a-warning",
        {"ann.json": {**ANN, "attempts": [*ANN["attempts"], BO_ROW]}},
        _row_of_another,
    ),
]


@pytest.mark.parametrize(("files", "check"), [c[1:] for c in HAND_INS], ids=[c[0] for c in HAND_INS])
def test_hand_ins(
    files: dict[str, dict[str, Any]],
    check: Callable[[dict[str, Any], str, str], None],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data, page, err = _report(tmp_path, files, capsys)
    check(data, page, err)


def test_hand_in_class_folder_takes_identity_from_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    classroom = tmp_path / "class"
    ann = Progress(classroom / "ann")
    ann.set_name("Ann Lee")
    _answer(ann, HAND, right=False)
    Progress(classroom / "ann", learner="bo").record_attempt("p-bo", correct=False)  # a row naming someone else
    code, out, err = _run(["report", str(classroom), "--json"], capsys)
    assert code == 0
    learners = json.loads(out)["learners"]
    assert [(x["name"], x["id"]) for x in learners] == [("Ann Lee", ann.learner_id)]
    assert "rows naming another learner (bo; 1 in all) are counted as Ann Lee's" in err


# -- what the report says ---------------------------------------------------------------------------


def _learner_row(page: str, name: str) -> str:
    table = page[page.index('class="bl-report-class-learners') :]
    start = table.index(f'<td class="bl-name">{name}</td>')
    return table[start : table.index("</tr>", start)]


def _rules_everywhere(data: dict[str, Any], page: str, err: str) -> None:
    # one learner, one Fog miss: every rule count on the page is that one (no second table's other count)
    assert data["learners"][0]["missed_rules"] == {"R24": 1}
    assert set(re.findall(r"R\d+ \(\d+×\)", page)) == {"R24 (1×)"}


def _cut_lists_say_so(data: dict[str, Any], page: str, err: str) -> None:
    row = _learner_row(page, "di")
    assert "and 2 more" in row and "and 1 more" in row  # six rules (four shown), six themes (five shown)
    assert len(data["learners"][0]["missed_rules"]) == 6 and len(data["learners"][0]["themes_to_practise"]) == 6


def _help_for_every_learner_who_missed(data: dict[str, Any], page: str, err: str) -> None:
    by_name = {x["name"]: x for x in data["learners"]}
    assert by_name["strong"]["themes_to_practise"] == [] and by_name["strong"]["missed_rules"] == {}
    assert by_name["weak"]["missed_rules"] == {"R13": 1, "R24": 1}
    assert by_name["weak"]["themes_to_practise"] and "Fog" in _learner_row(page, "weak")
    for name, learner in by_name.items():  # the page shows the same counts as the data
        for rule, count in learner["missed_rules"].items():
            assert f"{rule} ({count}×)" in _learner_row(page, name)


def _never_solved(data: dict[str, Any], page: str, err: str) -> None:
    missed = page[page.index('class="bl-report-missed') :]
    assert "Never solved" in missed
    hand = missed[missed.index(f"({HAND})") : missed.index("</tr>", missed.index(f"({HAND})"))]
    assert '<td class="bl-never">1</td>' in hand  # revealed, never right; the other got it on a retry
    assert next(p for p in data["puzzles"] if p["id"] == HAND)["never_solved"] == 1


def _answers_in_words(data: dict[str, Any], page: str, err: str) -> None:
    missed = page[page.index('class="bl-report-missed') :]
    hand = missed[missed.index(f"({HAND})") : missed.index("</tr>", missed.index(f"({HAND})"))]
    assert re.search(r"<td>(yes|no|[^<]*flag[^<]*) \(2 learners\)</td>", hand, re.I), hand
    assert "true (" not in missed and "false (" not in missed


def _no_level_from_a_handful(data: dict[str, Any], page: str, err: str) -> None:
    assert all(p["suggested_level"] is None for p in data["puzzles"]) and "harder than level" not in page


def _mud_counted(data: dict[str, Any], page: str, err: str) -> None:
    assert data["learners"][0]["missed_rules"] == {"R25": 1} and "R25 (1×)" in _learner_row(page, "mo")


def _plans(plans: dict[str, list[tuple[str, str]]]) -> Callable[[Path], dict[str, dict[str, Any]]]:
    """Learners practising library puzzles in data folders of their own, exported as a site download is."""

    def make(root: Path) -> dict[str, dict[str, Any]]:
        from battleline_lab.training.trainer import export_document

        files = {}
        for name, plan in plans.items():
            p = Progress(root / f"data-{name}")
            p.set_name(name)
            for pid, how in plan:
                puzzle = library.get(pid)
                session = PuzzleSession(puzzle, progress=p, source="gym")
                if how == "reveal":
                    session.answer(_wrong(puzzle.solve()))
                    session.reveal()
                else:
                    session.answer(puzzle.solve() if how == "right" else _wrong(puzzle.solve()))
                    if how == "retry":
                        session.answer(puzzle.solve())
            files[export_filename(name)] = export_document(p)
        return files

    return make


SIX = [f"q{n}" for n in range(6)]
REPORTS: list[tuple[str, Callable[[Path], dict[str, dict[str, Any]]], Callable[[dict[str, Any], str, str], None]]] = [
    ("report-one-count-per-rule-on-the-page", _plans({"fo": [(FOG, "retry")]}), _rules_everywhere),
    (
        "report-a-cut-list-says-and-n-more",
        lambda root: {
            "di.json": _doc(
                "di",
                "dddddd000004",
                [(pid, False, rule) for pid, rule in zip(SIX, ["R7", "R9", "R11", "R12", "R13", "R25"])],
                puzzles={pid: {"topics": [f"theme-{pid}"]} for pid in SIX},
            )
        },
        _cut_lists_say_so,
    ),
    (
        "report-help-goes-to-every-learner-who-missed",
        _plans({"strong": [(HAND, "right"), (FOG, "right")], "weak": [(HAND, "retry"), (FOG, "retry")]}),
        _help_for_every_learner_who_missed,
    ),
    (
        "report-a-never-solved-column",
        _plans({"ann": [(HAND, "reveal")], "bo": [(HAND, "retry")]}),
        _never_solved,
    ),
    ("report-wrong-answers-in-words", _plans({"ann": [(HAND, "retry")], "bo": [(HAND, "retry")]}), _answers_in_words),
    (
        "report-no-level-from-four-learners",
        _plans({name: [(HAND, "retry")] for name in ("a1", "a2", "a3", "a4")}),
        _no_level_from_a_handful,
    ),
    ("report-a-mud-miss-R25-is-counted", _plans({"mo": [(MUD, "retry")]}), _mud_counted),
]


@pytest.mark.parametrize(("make", "check"), [c[1:] for c in REPORTS], ids=[c[0] for c in REPORTS])
def test_report(
    make: Callable[[Path], dict[str, dict[str, Any]]],
    check: Callable[[dict[str, Any], str, str], None],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data, page, err = _report(tmp_path, make(tmp_path), capsys)
    check(data, page, err)


# -- the whole story --------------------------------------------------------------------------------


def test_three_site_downloads_in_one_folder_name_everyone_and_lose_no_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three learners on the static site give their names, practise and press "Save my progress"; the
    teacher drops the three downloads into one folder and reports on it."""
    plans = {"Ann": {HAND: True, FOG: True, MUD: True}, "Bo": {HAND: False, FOG: True}, "Cy": {FOG: False, MUD: False}}
    folder = tmp_path / "handed-in"
    folder.mkdir()
    rows = 0
    for name, plan in plans.items():
        gym = PuzzleGym([library.get(pid) for pid in (HAND, FOG, MUD)], progress=Progress(tmp_path / f"site-{name}"))
        assert gym.trainer.needs_name and gym.give_name(name)
        for pid, right in plan.items():
            _answer(gym.progress, pid, right)
        text = gym.save_progress()
        download = re.search(r'download="([^"]+)"', gym.transfer.value)
        assert download is not None
        target = folder / download.group(1)
        assert not target.exists()  # a download never lands on another learner's
        target.write_text(text, encoding="utf-8")
        rows += len(json.loads(text)["attempts"])
    assert len(list(folder.iterdir())) == 3
    code, out, _err = _run(["report", str(folder), "--json"], capsys)
    assert code == 0
    learners = {x["name"]: x for x in json.loads(out)["learners"]}
    assert sorted(learners) == ["Ann", "Bo", "Cy"] and len({x["id"] for x in learners.values()}) == 3
    assert learners["Ann"]["missed_rules"] == {} and learners["Ann"]["themes_to_practise"] == []
    assert learners["Bo"]["missed_rules"] == {"R13": 1}
    assert learners["Cy"]["missed_rules"] == {"R24": 1, "R25": 1}
    assert learners["Ann"]["first_try"] == 3 and learners["Bo"]["first_try"] == 1 and learners["Cy"]["first_try"] == 0
    page = tmp_path / "class.html"
    code, said, _err = _run(["report", str(folder), "--out", str(page)], capsys)
    assert code == 0 and "3 learners" in said
    assert f"3 learners, {rows} attempts" in page.read_text(encoding="utf-8")  # every row handed in is read
