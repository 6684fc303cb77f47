"""What a class report says about each learner and each puzzle: ratings, misses, a learner x puzzle grid.

``battleline-lab report EXPORTS... --puzzles DIR...`` rates the learners over the
teacher's own puzzles as well as the library's (the exports carry only the ids of
what was tried): each learner's rating is replayed from the attempts with the
trainer's own Glicko-2 (:class:`~battleline_lab.training.trainer.Trainer`), so a puzzle from
the teacher's folder counts like a library one.  Per learner the page gives the
rating with its uncertainty (``1620 ± 85``: the rating deviation), the first-try
rate, the rules missed and the topics missed; per puzzle who solved it at the
first try, after hints or a retry, who missed it and who has not tried it, with
the commonest wrong answer.

The rule a miss is counted under is the miss's own rule: the step of the
engine's proof a learner most likely overlooked (:func:`miss_rule`): R24 for a
flag under Fog, R25 under Mud, R11 for a tie, R13 for cards in a hand, and only
then the claim rule R12.  Everything here is plain data; :mod:`battleline_lab.training.report`
writes the page.

>>> from battleline_lab.quiz import library
>>> miss_rule(library.get("seed-blue-seven-in-your-hand"), True)
'R13'
"""

from __future__ import annotations

import hashlib
import html
import json
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core.claims import ClaimAnalysis, Reason
from ..quiz.puzzle import Puzzle
from ..quiz.questions import ClaimableQuestion, ClaimQuestion
from ..text.messages import message
from .progress import DEFAULT_LEARNER, Attempt, MemoryStore, Progress, export_attempts, skipped_warning

__all__ = [
    "answer_words",
    "class_folder_documents",
    "class_folder_exports",
    "gather",
    "identify_export",
    "shared_names",
    "is_class_folder",
    "SORT_SCRIPT",
    "ClassData",
    "LearnerRow",
    "PuzzleRow",
    "STATUSES",
    "class_data",
    "class_html",
    "miss_rule",
]

#: A learner's result on a puzzle, as the grid shows it.
STATUSES = ("first", "hints", "missed", "none")

#: Proof steps that name a rule of their own, most specific first: a learner who missed a Fog
#: puzzle missed R24, not the general claim rule R12 every claim proof ends with.
SPECIFIC_REASONS = (
    Reason.HAND_NOT_EVIDENCE,
    Reason.TIE_FIRST_COMPLETE,
    Reason.FOG,
    Reason.MUD,
    Reason.AT_BEST_TIE,
    Reason.FLAG_CLAIMED,
    Reason.SHAPE_BLOCKED,
    Reason.SHAPE_SHORT,
)


def _analyses(puzzle: Puzzle, answer: object) -> list[ClaimAnalysis]:
    """The claim analyses a wrong answer got wrong (one for a claim; the wrongly chosen flags for claimable)."""
    q = puzzle.question
    try:
        data = puzzle.explain()
    except Exception:  # noqa: BLE001 - an undecidable puzzle has no proof to point into
        return []
    if isinstance(q, ClaimQuestion) and isinstance(data, ClaimAnalysis):
        return [data]
    if isinstance(q, ClaimableQuestion) and isinstance(data, dict):
        chosen = set(answer) if isinstance(answer, (list, tuple, set)) else set()
        return [a for n, a in sorted(data.items()) if isinstance(a, ClaimAnalysis) and (n in chosen) != a.claimable]
    return []


def miss_rule(puzzle: Puzzle, answer: object, recorded: str | None = None) -> str | None:
    """The rule a wrong ``answer`` to ``puzzle`` missed: the most specific step of the engine's proof.

    Falls back to the rule recorded with the attempt (the trainer's), then to
    :func:`battleline_lab.training.trainer.miss_reason`'s.
    """
    for analysis in _analyses(puzzle, answer):
        for reason in SPECIFIC_REASONS:
            if reason in analysis.reasons:
                return reason.rule
    if recorded:
        return recorded
    from .trainer import miss_reason

    return miss_reason(puzzle, answer)[1]


@dataclass
class LearnerRow:
    """One learner: rating and its deviation (None when nothing is rated), first tries, misses, per-puzzle status."""

    learner: str
    rating: float | None
    rd: float | None
    rated: int
    first_try: int
    rules: list[tuple[str, int]]
    topics: list[tuple[str, int]]
    status: dict[str, str] = field(default_factory=dict)
    #: the learner's id (from their data folder; an older export's: one made from its rows)
    id: str = ""
    #: the name as the page shows it: with a short id when another learner has the same name
    shown: str = ""
    #: the puzzles tried and never answered right
    never: set[str] = field(default_factory=set)

    @property
    def first_try_rate(self) -> float | None:
        tried = sum(1 for s in self.status.values() if s != "none")
        first = sum(1 for s in self.status.values() if s == "first")
        return first / tried if tried else None


@dataclass
class PuzzleRow:
    """One puzzle of the grid: its titles, how many learners got each status, the commonest wrong answer."""

    id: str
    title: Mapping[str, str]
    topics: tuple[str, ...]
    counts: dict[str, int]
    wrong: tuple[str, int] | None
    known: bool
    #: how many learners tried it and never answered it right
    never: int = 0
    #: the commonest wrong answer as the learner gave it (``wrong`` holds its JSON text)
    wrong_value: object = None

    @property
    def tried(self) -> int:
        return sum(n for s, n in self.counts.items() if s != "none")

    @property
    def missed_share(self) -> float:
        """Share of the learners who tried it and did not get it at the first try."""
        return (self.counts.get("missed", 0) + self.counts.get("hints", 0)) / self.tried if self.tried else 0.0

    def title_text(self, lang: str) -> str:
        return self.title.get(lang) or self.title.get("en") or next(iter(self.title.values()), self.id)


@dataclass
class ClassData:
    learners: list[LearnerRow]
    puzzles: list[PuzzleRow]
    #: what the teacher should know about whose rows are whose (said on the page and on stderr)
    notes: list[str] = field(default_factory=list)


def _rows(export: Mapping[str, Any]) -> list[Attempt]:
    """The export's rows that pass the store's gate (the others are counted and named when it is read)."""
    return export_attempts(dict(export))[0]


def _answer(row: Attempt) -> object:
    if row.answer is None:
        return None
    try:
        return json.loads(row.answer)
    except ValueError:
        return row.answer


def _answer_key(value: object) -> str:
    """A wrong answer as a key to count it by (its JSON text)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def answer_words(value: object, puzzle: Puzzle | None, lang: str) -> str:
    """A learner's answer in words, as the question puts it (yes/no, flags, a formation); never raw JSON."""
    if puzzle is not None and puzzle.question is not None:
        try:
            return puzzle.question.answer_text(value, lang)
        except Exception:  # noqa: BLE001 - an answer the question cannot word (another version's) is shown plainly
            pass
    if isinstance(value, bool):
        return _c("answer.yes" if value else "answer.no", lang)
    if isinstance(value, list):
        from ..text.messages import message

        return message("widget.list_sep", lang).join(str(v) for v in value) or _c("none", lang)
    return str(value)


def _statuses(rows: Sequence[Attempt]) -> tuple[dict[str, str], dict[str, object], set[str]]:
    """Puzzle -> status, puzzle -> the first wrong answer, and the puzzles answered right at some point (rows
    after a reset are all there is)."""
    status: dict[str, str] = {}
    first_wrong: dict[str, object] = {}
    hints: Counter[str] = Counter()
    solved: set[str] = set()
    revealed: set[str] = set()
    for row in rows:
        pid = row.puzzle_id
        if not pid:
            continue
        hints[pid] += row.hints
        if row.kind == "reveal":
            if pid not in status:
                status[pid] = "missed"
            revealed.add(pid)
        elif row.kind == "answer":
            correct = row.correct is True
            if pid not in status:
                status[pid] = "first" if correct and hints[pid] == 0 else ("hints" if correct else "missed")
            elif correct and status[pid] == "missed" and pid not in revealed:
                status[pid] = "hints"  # a retry that got there on its own (a revealed solution stays a miss)
            if correct:
                solved.add(pid)
            elif pid not in first_wrong:
                first_wrong[pid] = _answer(row)
    return status, first_wrong, solved


def _rating(rows: Sequence[Attempt], learner: str, puzzles: Sequence[Puzzle]) -> tuple[float, float, int, int]:
    from .trainer import Trainer

    store = MemoryStore("export")
    for row in rows:
        store.add(row)
    with tempfile.TemporaryDirectory(prefix="battleline-report-") as no_games:
        trainer = Trainer(puzzles, progress=Progress(learner=learner, store=store), games=no_games)
        summary = trainer.summary()
    return summary.rating, summary.rd, summary.rated, summary.first_try


def _title(puzzle: Puzzle | None, meta: Mapping[str, Any], pid: str) -> dict[str, str]:
    if puzzle is not None and puzzle.title:
        return dict(puzzle.title)
    given = meta.get("title")
    if isinstance(given, dict) and all(isinstance(v, str) for v in given.values()) and given:
        return {str(k): v for k, v in given.items()}
    return {"en": pid}


def _words(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _learner_id(export: Mapping[str, Any]) -> str:
    """An export's learner id: the one it carries, else one made from its rows (an older export's)."""
    given = export.get("learner_id")
    if isinstance(given, str) and given:
        return given
    rows = json.dumps(export.get("attempts"), ensure_ascii=False, sort_keys=True, default=str)
    return "x" + hashlib.sha256(rows.encode("utf-8", "surrogatepass")).hexdigest()[:11]


def shared_names(exports: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Names that more than one learner (by id) has: name -> their ids."""
    ids: dict[str, list[str]] = {}
    for export in exports:
        name, lid = str(export.get("learner")), _learner_id(export)
        if lid not in ids.setdefault(name, []):
            ids[name].append(lid)
    return {name: found for name, found in ids.items() if len(found) > 1}


def _miss_rule(
    puzzle: Puzzle | None, pid: str, first_wrong: Mapping[str, object], recorded: Mapping[str, str]
) -> str | None:
    """The rule one miss is counted under: of the first wrong answer, else (a solution shown at once) of the
    puzzle's own proof."""
    if puzzle is None:
        return recorded.get(pid)
    try:
        return miss_rule(puzzle, first_wrong.get(pid), recorded.get(pid))
    except Exception:  # noqa: BLE001 - a puzzle the engine cannot explain: the rule recorded with the row
        return recorded.get(pid)


def class_data(
    exports: Sequence[Mapping[str, Any]], puzzles: Iterable[Puzzle] = (), shown: Iterable[str] = ()
) -> ClassData:
    """Everything the page shows, from the exports and the puzzles known (the teacher's and the library's).

    One learner per export (:func:`gather` has merged the hand-ins of one learner, by id); learners who
    share a name are shown apart, each with a short id.  Every figure about a learner's misses (the rules,
    the themes) is counted once, here, and every table and ``report --json`` shows that count.
    The grid has a column for every puzzle somebody tried and for every id in ``shown``
    (the teacher's own puzzles: one nobody tried shows as such).
    """
    known = {p.id: p for p in puzzles}
    learners: list[LearnerRow] = []
    wrong: dict[str, Counter[str]] = {}
    wrong_values: dict[str, object] = {}
    seen: dict[str, dict[str, Any]] = {}
    clash = shared_names(exports)
    for export in exports:
        name = str(export.get("learner"))
        lid = _learner_id(export)
        rows = _rows(export)
        status, first_wrong, solved = _statuses(rows)
        meta = export.get("puzzles") if isinstance(export.get("puzzles"), dict) else {}
        for pid in status:
            if isinstance(meta, dict) and isinstance(meta.get(pid), dict):
                seen.setdefault(pid, meta[pid])
            else:
                seen.setdefault(pid, {})
        rated_ids = [p for p in known.values() if p.id in status]
        if rated_ids:
            rating, rd, rated, first = _rating(rows, name, list(known.values()))
            rating_v: float | None = rating
            rd_v: float | None = rd
        else:
            rating_v = rd_v = None
            rated = first = 0
        rules: Counter[str] = Counter()
        topics: Counter[str] = Counter()
        recorded = {r.puzzle_id: r.rule for r in rows if r.kind == "answer" and r.correct is False and r.rule}
        for pid, result in status.items():
            if result == "first":
                continue
            puzzle = known.get(pid)
            if pid in first_wrong:
                key = _answer_key(first_wrong[pid])
                wrong.setdefault(pid, Counter())[key] += 1
                wrong_values.setdefault(f"{pid}\n{key}", first_wrong[pid])
            if pid in first_wrong or result == "missed":  # a wrong answer, or the solution shown
                rule = _miss_rule(puzzle, pid, first_wrong, recorded)
                if rule:
                    rules[rule] += 1
            if puzzle is not None:
                topics.update(puzzle.topics)
            else:
                topics.update(_words(seen.get(pid, {}).get("topics")))
        learners.append(
            LearnerRow(
                learner=name,
                rating=rating_v,
                rd=rd_v,
                rated=rated,
                first_try=first,
                rules=sorted(rules.items(), key=lambda kv: (-kv[1], kv[0])),
                topics=sorted(topics.items(), key=lambda kv: (-kv[1], kv[0])),
                status=status,
                id=lid,
                shown=f"{name} · {lid[:6]}" if name in clash else name,
                never={pid for pid in status if pid not in solved},
            )
        )
    learners.sort(key=lambda row: (row.learner, row.id))
    table = []
    for pid in sorted(set(seen) | set(shown)):
        puzzle = known.get(pid)
        counts = {s: 0 for s in STATUSES}
        for row in learners:
            counts[row.status.get(pid, "none")] += 1
        commonest = wrong.get(pid, Counter()).most_common(1)
        table.append(
            PuzzleRow(
                id=pid,
                title=_title(puzzle, seen.get(pid, {}), pid),
                topics=puzzle.topics if puzzle is not None else tuple(_words(seen.get(pid, {}).get("topics"))),
                counts=counts,
                wrong=commonest[0] if commonest else None,
                known=puzzle is not None,
                never=sum(1 for row in learners if pid in row.never),
                wrong_value=wrong_values.get(f"{pid}\n{commonest[0][0]}") if commonest else None,
            )
        )
    # the puzzles most of the class missed first
    table.sort(key=lambda p: (-p.missed_share, -p.counts["missed"], p.id))
    return ClassData(learners, table)


# -- whose hand-ins: identity from the file or folder, one learner per id ------------------------------


def _file_name(where: str) -> str:
    """The learner a file's name gives: ``battleline-progress-ann.json`` -> ``ann``."""
    stem = Path(where).stem
    return stem.removeprefix("battleline-progress-") or stem


@dataclass(frozen=True)
class Note:
    """What the teacher must know about whose rows are whose: the file or folder it is about (``""``: the
    class as a whole) and the words.  On the page ``where: text``; on stderr a located warning."""

    where: str
    text: str

    def __str__(self) -> str:
        return f"{self.where}: {self.text}" if self.where else self.text

    def located(self, fallback: str) -> str:
        """``FILE:1:1: warning: text`` (``fallback`` names the file when the note is about the class)."""
        return f"{self.where or fallback}:1:1: warning: {self.text}"


def identify_export(
    document: Mapping[str, Any], where: str, lang: str, *, name: str | None = None, learner_id: str | None = None
) -> tuple[dict[str, Any], list[Note]]:
    """The export as its file or folder says whose it is, and the warnings about rows that disagree.

    ``name``/``learner_id``: from a data folder's ``learner.json`` (a class folder); else the document's
    own (an older export without an id gets one made from its rows; one named ``me`` is named by its
    file).  Every row becomes that learner's; rows that named another learner are counted and said.
    """
    doc = dict(document)
    given = doc.get("learner")
    lid = learner_id or _learner_id(doc)
    if name is None:
        name = given if isinstance(given, str) and given and given != DEFAULT_LEARNER else _file_name(where)
    others: Counter[str] = Counter()
    attempts = doc.get("attempts")
    for row in attempts if isinstance(attempts, list) else []:
        if not isinstance(row, dict):
            continue
        row_name, row_id = row.get("learner"), row.get("learner_id")
        if isinstance(row_id, str) and row_id and row_id != lid:
            others[str(row_name or row_id)] += 1
        elif isinstance(row_name, str) and row_name not in (name, given, DEFAULT_LEARNER):
            others[row_name] += 1
    notes = []
    if others:
        listed = message("widget.list_sep", lang).join(sorted(others))
        text = _c("note.disagree", lang, count=sum(others.values()), others=listed, learner=name)
        notes.append(Note(where, text))
    doc["learner"], doc["learner_id"] = name, lid
    return doc, notes


def _row_key(row: Any) -> str:
    """A row of an export, whoever it names, as a key: one row handed in twice is one row."""
    if not isinstance(row, dict):
        return json.dumps(row, ensure_ascii=False, default=str)
    return json.dumps(
        {k: v for k, v in row.items() if k not in ("learner", "learner_id")},
        ensure_ascii=False,
        sort_keys=True,
        default=str,
    )


def gather(documents: Sequence[Mapping[str, Any]], lang: str) -> tuple[list[dict[str, Any]], list[Note]]:
    """One export per learner: the hand-ins of one id merged (each row once, none dropped), and the notes.

    Merging keeps the longest hand-in's rows in their order and adds every row the others hold that it
    does not (rows are never ordered by their clocks).  Two learners with one name stay two learners
    (by id), and the page says so.
    """
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for doc in documents:
        groups.setdefault(_learner_id(doc), []).append(doc)
    merged: list[dict[str, Any]] = []
    for lid, docs in groups.items():
        docs = sorted(docs, key=lambda d: -len(d["attempts"]) if isinstance(d.get("attempts"), list) else 0)
        first = dict(docs[0])
        rows = list(first["attempts"]) if isinstance(first.get("attempts"), list) else []
        have = {_row_key(r) for r in rows}
        puzzles = dict(first["puzzles"]) if isinstance(first.get("puzzles"), dict) else {}
        for doc in docs[1:]:
            for row in doc["attempts"] if isinstance(doc.get("attempts"), list) else []:
                if _row_key(row) not in have:
                    have.add(_row_key(row))
                    rows.append(row)
            for pid, meta in (doc["puzzles"] if isinstance(doc.get("puzzles"), dict) else {}).items():
                puzzles.setdefault(pid, meta)
        first.update(attempts=rows, puzzles=puzzles, learner_id=lid)
        merged.append(first)
    notes = [
        Note(
            "",
            _c(
                "note.same_name",
                lang,
                learner=name,
                count=len(ids),
                ids=message("widget.list_sep", lang).join(i[:6] for i in ids),
            ),
        )
        for name, ids in sorted(shared_names(merged).items())
    ]
    return merged, notes


# -- a class folder -------------------------------------------------------------------------------


def _learner_folders(folder: Path) -> list[Path]:
    from .progress import DATABASE_FILE, JSONL_FILE, LEGACY_FILE

    if not folder.is_dir():
        return []
    return sorted(
        sub
        for sub in folder.iterdir()
        if sub.is_dir()
        and not sub.name.startswith(".")
        and any((sub / n).is_file() for n in (DATABASE_FILE, JSONL_FILE, LEGACY_FILE))
    )


def is_class_folder(folder: Path) -> bool:
    """A class folder holds one learner data folder per learner (``CLASS_DIR/<learner>/progress.sqlite3``)."""
    return bool(_learner_folders(folder))


def class_folder_exports(folder: Path, puzzles: Sequence[Puzzle], lang: str = "en") -> list[dict[str, Any]]:
    """The export of every learner of a class folder, read from their data folders (nothing collected by hand).

    Each data folder is one learner: named and identified by its ``learner.json`` (a folder from
    before ids: by the folder's name, with an id made from it); rows inside that name another learner
    are counted as the folder's, and said on stderr.
    """
    return [doc for doc, _notes in class_folder_documents(folder, puzzles, lang)]


def class_folder_documents(
    folder: Path, puzzles: Sequence[Puzzle], lang: str = "en"
) -> list[tuple[dict[str, Any], list[Note]]]:
    """Each learner folder's export and the notes about its rows (:func:`class_folder_exports`)."""
    import sys

    from ..quiz.checks import CheckWarning
    from .progress import StoreError, current, open_store_read_only
    from .stores.identity import read_identity
    from .trainer import Trainer, _jsonable, export_document

    out: list[tuple[dict[str, Any], list[Note]]] = []
    for sub in _learner_folders(folder):
        try:  # read only, as ``progress export``: nothing moved, renamed or created beside the store
            store = open_store_read_only(sub)
        except StoreError as err:
            print(CheckWarning(err.where, 1, 1, err.reason), file=sys.stderr)
            continue
        said = skipped_warning(getattr(store, "refused", []))
        if said:  # rows of the store that could not be read: skipped, never without a word
            print(said, file=sys.stderr)
        identity = read_identity(sub)
        name = (identity.name or identity.account) if identity is not None else ""
        lid = (
            identity.id
            if identity is not None
            else "f" + hashlib.sha256(sub.name.encode("utf-8", "surrogatepass")).hexdigest()[:11]
        )
        rows = store.rows()
        whole = MemoryStore(str(sub))
        for row in rows:  # every row of the folder is its learner's: read as theirs, by id
            whole.add(replace(row, learner=DEFAULT_LEARNER, learner_id=lid))
        progress = Progress(learner_id=lid, store=whole)
        with tempfile.TemporaryDirectory(prefix="battleline-report-") as no_games:
            document = export_document(progress, Trainer(puzzles, progress=progress, games=no_games))
        # the rows as the folder holds them (whom each names), for the warning about rows that disagree
        document["attempts"] = [_jsonable(row) for row in current(rows)]
        out.append(identify_export(document, str(sub), lang, name=name or sub.name, learner_id=lid))
    return out


# -- the page's sections -------------------------------------------------------------------------

#: The one script the page loads (``<script src>``, written next to the page; nothing inline, no CDN):
#: a click on a column heading of a ``bl-sortable`` table sorts its rows by that column's ``data-sort``.
SORT_SCRIPT_NAME = "battleline-report.js"
SORT_SCRIPT = """// battleline-lab report: sort a table by a column (click its heading; again: the other way)
document.querySelectorAll("table.bl-sortable").forEach(function (table) {
  table.querySelectorAll("thead th").forEach(function (th, col) {
    var button = th.querySelector("button");
    if (!button) return;
    button.addEventListener("click", function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var down = th.getAttribute("aria-sort") !== "ascending";
      rows.sort(function (a, b) {
        var x = a.cells[col].getAttribute("data-sort") || a.cells[col].textContent;
        var y = b.cells[col].getAttribute("data-sort") || b.cells[col].textContent;
        var nx = parseFloat(x), ny = parseFloat(y);
        var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return down ? c : -c;
      });
      table.querySelectorAll("thead th").forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", down ? "ascending" : "descending");
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
"""

#: Printing: the grid fits a landscape page, headings repeat, no buttons.
STYLE = (
    ".bl-grid td,.bl-grid th{text-align:center;min-width:2.2em}.bl-grid th.bl-name,.bl-grid td.bl-name{text-align:left}"
    ".bl-first{background:#e6f4ea}.bl-hints{background:#fff8e1}.bl-missed{background:#fdecea}.bl-none{color:#777}"
    "th button{font:inherit;border:0;background:none;padding:0;cursor:pointer;text-align:inherit}"
    ".bl-grid th .bl-id{display:block;font-weight:normal;font-size:75%;color:#555}"
    "@media print{body{margin:0;max-width:none;font-size:10pt}@page{size:A4 landscape;margin:12mm}"
    "thead{display:table-header-group}tr{break-inside:avoid}h2{break-after:avoid}"
    "th button{color:inherit}.bl-screen-only{display:none}}"
)


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _c(key: str, lang: str, **params: object) -> str:
    from ..text.messages import message

    return message(f"class.{key}", lang, **params)


def _th(text: str, sortable: bool = True, extra: str = "", klass: str = "") -> str:
    inner = f'<button type="button">{_esc(text)}</button>' if sortable else _esc(text)
    k = f' class="{klass}"' if klass else ""
    return f'<th scope="col"{k}>{inner}{extra}</th>'


#: How many rules and themes a learner's row lists before "and N more".
RULES_SHOWN = 4
TOPICS_SHOWN = 5


def class_html(data: ClassData, lang: str, puzzles: Mapping[str, Puzzle] | None = None) -> str:
    """The sections of the page about learners and puzzles (escaped: every text from a file is)."""
    from ..text.messages import message, rule_text, topic_name

    none = _c("none", lang)
    sep = message("widget.list_sep", lang)
    known = dict(puzzles or {})
    out = [f"<style>{STYLE}</style>"]
    if data.notes:  # whose rows are whose: what the teacher must know before reading the tables
        items = "".join(f"<li>{_esc(note)}</li>" for note in data.notes)
        out.append(f'<ul class="bl-report-notes">{items}</ul>')
    # the puzzles most of the class missed, first
    out.append(f'<h2 id="bl-missed">{_esc(_c("missed.heading", lang))}</h2>')
    out.append('<table class="bl-report-missed bl-sortable"><thead><tr>')
    columns = ("puzzle", "missed", "never", "first", "hints", "not_tried", "wrong")
    out += [_th(_c(f"missed.col.{c}", lang)) for c in columns]
    out.append("</tr></thead><tbody>")
    for p in data.puzzles:
        missed = p.counts["missed"] + p.counts["hints"]
        wrong = none
        if p.wrong:
            words = answer_words(p.wrong_value, known.get(p.id), lang)
            wrong = _c("wrong_answer", lang, answer=words, count=p.wrong[1])
        title = f"{_esc(p.title_text(lang))} <small>({_esc(p.id)})</small>"
        out.append(
            f'<tr><td class="bl-name" data-sort="{_esc(p.id)}">{title}</td>'
            f'<td data-sort="{p.missed_share:.4f}">{_esc(_c("of", lang, count=missed, total=p.tried))}</td>'
            f'<td class="bl-never">{p.never}</td>'
            f"<td>{p.counts['first']}</td><td>{p.counts['hints']}</td><td>{p.counts['none']}</td>"
            f"<td>{_esc(wrong)}</td></tr>"
        )
    out.append("</tbody></table>")
    # per learner
    out.append(f'<h2 id="bl-class-learners">{_esc(_c("learners.heading", lang))}</h2>')
    out.append('<table class="bl-report-class-learners bl-sortable"><thead><tr>')
    out += [_th(_c(f"learners.col.{c}", lang)) for c in ("learner", "rating", "first_try", "rules", "topics")]
    out.append("</tr></thead><tbody>")
    for row in data.learners:
        if row.rating is not None and row.rd is not None:
            rating = _c("rating", lang, rating=round(row.rating), rd=round(row.rd))
            rating_key = f"{row.rating:.1f}"
        else:
            rating, rating_key = none, "0"
        rate = row.first_try_rate
        tried = sum(1 for s in row.status.values() if s != "none")
        first = sum(1 for s in row.status.values() if s == "first")
        first_text = (
            _c("first_try", lang, percent=round(100 * rate), first=first, tried=tried) if rate is not None else none
        )
        rule_lines = [
            _esc(_c("rule", lang, rule=r, count=n, text=rule_text(r, lang))) for r, n in row.rules[:RULES_SHOWN]
        ]
        rule_lines += (
            [_esc(_c("more", lang, count=len(row.rules) - RULES_SHOWN))] if len(row.rules) > RULES_SHOWN else []
        )
        rules = "<br>".join(rule_lines)
        topic_words = [_c("topic", lang, topic=topic_name(t, lang), count=n) for t, n in row.topics[:TOPICS_SHOWN]]
        if len(row.topics) > TOPICS_SHOWN:
            topic_words.append(_c("more", lang, count=len(row.topics) - TOPICS_SHOWN))
        topics = _esc(sep.join(topic_words))
        out.append(
            f'<tr><td class="bl-name">{_esc(row.shown or row.learner)}</td>'
            f'<td data-sort="{rating_key}">{_esc(rating)}</td>'
            f'<td data-sort="{rate if rate is not None else -1:.4f}">{_esc(first_text)}</td>'
            f"<td>{rules or _esc(none)}</td><td>{topics or _esc(none)}</td></tr>"
        )
    out.append("</tbody></table>")
    # the grid: learners x puzzles
    out.append(f'<h2 id="bl-grid">{_esc(_c("grid.heading", lang))}</h2>')
    legend = sep.join(f"{_c(f'grid.mark.{s}', lang)} {_c(f'grid.status.{s}', lang)}" for s in STATUSES)
    out.append(f'<p class="bl-legend">{_esc(legend)}</p>')
    out.append(f'<p class="bl-screen-only">{_esc(_c("grid.sort", lang))}</p>')
    out.append('<table class="bl-grid bl-sortable"><thead><tr>')
    out.append(_th(_c("learners.col.learner", lang), klass="bl-name"))
    for p in data.puzzles:
        out.append(_th(p.title_text(lang), extra=f'<span class="bl-id">{_esc(p.id)}</span>'))
    out.append("</tr></thead><tbody>")
    order = {s: i for i, s in enumerate(STATUSES)}
    for row in data.learners:
        cells = [f'<th scope="row" class="bl-name">{_esc(row.shown or row.learner)}</th>']
        for p in data.puzzles:
            s = row.status.get(p.id, "none")
            label = _c(f"grid.status.{s}", lang)
            cells.append(
                f'<td class="bl-{s}" data-sort="{order[s]}" title="{_esc(label)}">'
                f'<span aria-label="{_esc(label)}">{_esc(_c(f"grid.mark.{s}", lang))}</span></td>'
            )
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    out.append(f'<script src="{SORT_SCRIPT_NAME}"></script>')
    return "".join(out)
