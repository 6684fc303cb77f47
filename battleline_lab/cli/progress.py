"""``battleline-lab progress export`` and ``battleline-lab report``: a learner's export, a class's page.

``progress export`` prints one learner's progress as one JSON document; ``report`` reads exports (or a
class folder) and writes one HTML page (battleline_lab.training.report).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path

from ..formats.files import (
    FileProblem,
    OutputExistsError,
    check_new,
    describe,
    holds_exactly,
    output_name,
    write_all,
)
from ..formats.safe_yaml import Diagnostic, escape_control
from ..text.messages import DEFAULT_LANGUAGE, LANGUAGES, message, scoped
from .base import PROG, ExitCode, SubParsers

__all__ = ["register_progress", "register_report", "run_export", "run_report"]

_m = scoped("trainer")


def register_progress(
    subparsers: SubParsers[argparse.ArgumentParser], lang: str = DEFAULT_LANGUAGE
) -> argparse.ArgumentParser:
    """Add ``progress export`` and ``progress name``."""
    parser = subparsers.add_parser("progress", help=_m("cli.progress.help", lang), prog=f"{PROG} progress")
    actions = parser.add_subparsers(dest="action", required=True)
    export = actions.add_parser("export", help=_m("cli.export.help", lang), prog=f"{PROG} progress export")
    export.add_argument("--data", metavar="DIR", help=_m("cli.export.data", lang))
    export.add_argument("--learner", default=None, help=_m("cli.export.learner", lang))
    export.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=message("cli.lang", lang))
    export.add_argument("--puzzles", nargs="+", metavar="DIR", default=[], help=message("class.cli.puzzles", lang))
    export.set_defaults(func=run_export)
    name = actions.add_parser("name", help=_m("cli.name.help", lang), prog=f"{PROG} progress name")
    name.add_argument("name", nargs="?", metavar="NAME", help=_m("cli.name.name", lang))
    name.add_argument("--data", metavar="DIR", help=_m("cli.export.data", lang))
    name.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=message("cli.lang", lang))
    name.set_defaults(func=run_name)
    return parser


def run_name(args: argparse.Namespace) -> int:
    """Show the data folder's learner (name and id), or give them a name (exit 2 with one line if it cannot be)."""
    from ..formats.settings import SettingError, learner_setting
    from ..training.progress import DEFAULT_LEARNER, data_account, data_dir
    from ..training.stores.identity import check_name, ensure_identity, read_identity, save_name

    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    try:
        folder = Path(args.data) if args.data else data_dir()
    except SettingError as err:
        print(Diagnostic("<settings>", 1, 1, str(err)), file=sys.stderr)
        return ExitCode.BAD_INPUT
    try:
        if args.name is None:
            account = learner_setting() if args.data else data_account()  # in a class: the folder's account
            identity = read_identity(folder) if not folder.is_dir() else ensure_identity(folder, account)
            if identity is None:
                print(Diagnostic(escape_control(str(folder)), 1, 1, _m("cli.name.none", lang)), file=sys.stderr)
                return ExitCode.BAD_INPUT
        else:
            check_name(args.name)
            folder.mkdir(parents=True, exist_ok=True)
            identity = save_name(folder, args.name)
    except ValueError as err:
        print(Diagnostic("<name>", 1, 1, _m("cli.name.bad", lang, problem=str(err))), file=sys.stderr)
        return ExitCode.BAD_INPUT
    except OSError as err:
        print(Diagnostic(escape_control(str(folder)), 1, 1, describe(err, lang)), file=sys.stderr)
        return ExitCode.BAD_INPUT
    shown = escape_control(identity.name) if identity.name else _m("cli.name.unnamed", lang, default=DEFAULT_LEARNER)
    print(_m("cli.name.is", lang, name=shown, id=identity.id))
    return ExitCode.OK


def run_export(args: argparse.Namespace) -> int:
    """Print the export of one learner (exit 2 if the folder holds no progress)."""
    from ..training.progress import Progress, StoreError, data_dir, open_store_read_only, skipped_warning
    from ..training.report import (
        class_puzzles,
        describe_puzzles,
    )
    from ..training.trainer import Trainer, export_document

    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    folder = Path(args.data) if args.data else data_dir()
    try:  # read only: nothing is moved, renamed or created beside the store
        store = open_store_read_only(folder)
    except StoreError as err:
        print(Diagnostic(err.where, 1, 1, _m("cli.error.export", lang, problem=err.reason)), file=sys.stderr)
        return ExitCode.BAD_INPUT
    said = skipped_warning(getattr(store, "refused", []))
    if said:  # rows of the store that could not be read are left out of the export: never without a word
        print(said, file=sys.stderr)
    puzzles, problems = class_puzzles(getattr(args, "puzzles", []), lang)
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        return ExitCode.BAD_INPUT
    progress = Progress(folder, learner=args.learner or "", store=store)  # no --learner: the folder's own learner
    document = export_document(progress, Trainer(puzzles, progress=progress))
    describe_puzzles(document, puzzles)
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    return ExitCode.OK


def register_report(
    subparsers: SubParsers[argparse.ArgumentParser], lang: str = DEFAULT_LANGUAGE
) -> argparse.ArgumentParser:
    """Add ``report``."""
    parser = subparsers.add_parser("report", help=_m("cli.report.help", lang), prog=f"{PROG} report")
    parser.add_argument("exports", nargs="+", metavar="EXPORT", help=_m("cli.report.exports", lang))
    parser.add_argument("--out", metavar="HTML", help=_m("cli.report.out", lang))
    parser.add_argument("--json", action="store_true", help=_m("cli.report.json", lang))
    parser.add_argument("--force", action="store_true", help=_m("cli.report.force", lang))
    parser.add_argument("--puzzles", nargs="+", metavar="DIR", default=[], help=message("class.cli.puzzles", lang))
    parser.set_defaults(func=run_report)
    return parser


def _export_files(paths: Iterable[str]) -> list[Path]:
    files: list[Path] = []
    for name in paths:
        p = Path(name)
        files += sorted(p.glob("*.json")) if p.is_dir() else [p]
    return files


def _files_under(folder: Path) -> list[Path]:
    """Every file below ``folder`` (a class folder's stores and their journals, a teacher's puzzles)."""
    try:
        return [p for p in folder.rglob("*") if p.is_file()]
    except OSError:  # pragma: no cover - a folder that vanishes while it is listed
        return []


def run_report(args: argparse.Namespace) -> int:
    """Read the exports (all errors at once, exit 2) and write the page and its script with the one writer.

    The page and its sorting script are written together (files.write_all): never over an input (an
    export, a store of a class folder, a teacher's puzzle), never over a file without --force, never
    through a link; the script is left alone where an identical copy already lies.  Whose each hand-in
    is comes from its file or folder; the hand-ins of one learner (by id) are merged, every row kept.
    ``--json``: the same figures as data, to ``--out`` or (without it) to stdout.
    """
    from ..training.class_report import SORT_SCRIPT, SORT_SCRIPT_NAME, Note, gather, identify_export
    from ..training.report import (
        ExportError,
        class_puzzles,
        inside_folder,
        load_export,
        puzzle_table,
        report_data,
        report_html,
        skipped_rows,
    )

    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    as_json: bool = getattr(args, "json", False)
    if args.out is None and not as_json:
        print(Diagnostic("<command line>", 1, 1, _m("cli.error.no_out", lang)), file=sys.stderr)
        return ExitCode.BAD_INPUT
    out: str | None = args.out  # a str: Path("") would be "." (the current folder), not the empty path it is
    script = os.path.join(os.path.dirname(out), SORT_SCRIPT_NAME) if out is not None and not as_json else None
    exports: list[dict[str, object]] = []
    errors: list[Diagnostic] = []
    notes: list[Note] = []
    puzzles, problems = class_puzzles(getattr(args, "puzzles", []), lang)
    # a class folder (BATTLELINE_CLASS_DIR: one data folder per learner) is read directly, no exports
    from ..training.class_report import class_folder_documents, is_class_folder

    folders = [name for name in args.exports if is_class_folder(Path(name))]
    inputs: list[Path] = []
    for folder in [*folders, *getattr(args, "puzzles", [])]:  # what is read is an input, never an output
        inputs += _files_under(Path(folder))
    for folder in folders:
        for document, folder_notes in class_folder_documents(Path(folder), puzzles, lang):
            exports.append(document)
            notes += folder_notes
    files = _export_files([name for name in args.exports if name not in folders])
    inputs += files
    for file in files:
        try:
            document = load_export(file, lang)
            said = skipped_rows(document, str(file))
            if said:  # an export's rows that are not attempts are left out of the page, never without a word
                print(said, file=sys.stderr)
            document, disagree = identify_export(document, str(file), lang)
            exports.append(document)
            notes += disagree
        except ExportError as err:
            errors.append(Diagnostic(str(file), err.line, err.col, _m("cli.error.export", lang, problem=str(err))))
    if not files and not exports:
        errors.append(Diagnostic(str(args.exports[0]), 1, 1, _m("cli.error.none", lang)))
    outputs = [path for path in (out, script) if path is not None]
    for path in outputs:  # refused before the page is built; the writer checks again when it writes
        try:
            if path != script or not holds_exactly(script, SORT_SCRIPT.encode("utf-8"), inputs):
                check_new(path, force=args.force, inputs=inputs)
        except OSError as err:
            errors.append(_write_error(path, err, lang))
    errors += problems
    if errors:
        for error in errors:
            print(error, file=sys.stderr)
        return ExitCode.BAD_INPUT
    exports, same_name = gather(exports, lang)
    notes += same_name
    for note in notes:  # whose rows are whose: said here (a located warning) and on the page
        print(escape_control(note.located(str(args.exports[0]))), file=sys.stderr)
    on_page = [str(note) for note in notes]
    own = {p.id for p in puzzles if p.source and any(inside_folder(p.source, f) for f in getattr(args, "puzzles", []))}
    if as_json:
        data = report_data(exports, puzzles, shown=sorted(own))
        data["notes"] = on_page
        text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        if out is None:
            sys.stdout.write(text)
            return ExitCode.OK
        written = [(out, text)]
    else:
        assert out is not None and script is not None
        written = [(out, report_html(exports, lang, puzzles, shown=sorted(own), notes=on_page)), (script, SORT_SCRIPT)]
    try:
        write_all(written, force=args.force, inputs=inputs, keep_identical=[script] if script else [])
    except OSError as err:
        where = err.filename if isinstance(err, FileProblem) else out
        print(_write_error(str(where), err, lang), file=sys.stderr)
        return ExitCode.BAD_INPUT
    shown = escape_control(str(out))
    print(_m("cli.wrote", lang, path=shown, learners=len(exports), puzzles=len(puzzle_table(exports))))
    return ExitCode.OK


def _write_error(path: str, err: OSError, lang: str) -> Diagnostic:
    """A refused or failed output as ``OUT:1:1: error: ...`` (an existing page: the report's own words)."""
    if isinstance(err, OutputExistsError):
        return Diagnostic(output_name(path), 1, 1, _m("cli.error.exists", lang, path=escape_control(str(path))))
    return Diagnostic(output_name(path), 1, 1, describe(err, lang))
