"""Reading only regular files and writing outputs safely (battleline_lab.formats.files), and the commands using it.

Rules: a FIFO, a device or a folder given as FILE is a located error at once (never a hang);
an output never replaces an input (same inode, even through a hard link, even with --force),
never replaces an existing file without --force, and is written atomically (temporary file in
the same folder, then rename), so a failure leaves the old file exactly as it was.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from battleline_lab.formats.files import (
    FileTooBigError,
    NotRegularFileError,
    OutputExistsError,
    SameAsInputError,
    SymlinkError,
    UnencodableError,
    check_new,
    describe,
    read_regular,
    write_bytes,
    write_new,
)
from tests.test_robustness import LOCATED, deadline, run

PUZZLE = (
    "flags: {5: {you: [r3, r4, r5], opponent: [b8]}, 2: {you: [b7], opponent: [b10]}}\n"
    "question: {kind: claim, flag: 5}\nanswer: true\n"
)
posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs need a POSIX system")


# -- reading ---------------------------------------------------------------------------------------


@posix_only
def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "p.yaml"
    os.mkfifo(fifo)
    with deadline(5), pytest.raises(NotRegularFileError) as info:
        read_regular(fifo)
    assert info.value.kind == "fifo"


def test_a_folder_and_an_empty_path_are_refused(tmp_path: Path) -> None:
    with pytest.raises(NotRegularFileError) as info:
        read_regular(tmp_path)
    assert info.value.kind == "folder"
    with pytest.raises(NotRegularFileError) as info:
        read_regular("")
    assert info.value.kind == "empty_path"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_is_refused_never_read() -> None:
    with deadline(5), pytest.raises(NotRegularFileError) as info:
        read_regular("/dev/zero")  # endless: reading it would never stop
    assert info.value.kind == "device"


def test_the_size_limit(tmp_path: Path) -> None:
    file = tmp_path / "big.yaml"
    file.write_bytes(b"x" * 101)
    assert read_regular(file, limit=101) == b"x" * 101
    with pytest.raises(FileTooBigError) as info:
        read_regular(file, limit=100)
    assert (info.value.size, info.value.limit) == (101, 100)


NOT_FILES = ["fifo", "folder", "device"]


def _not_a_file(kind: str, tmp_path: Path) -> str:
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("FIFOs need a POSIX system")
        os.mkfifo(tmp_path / "f.yaml")
        return str(tmp_path / "f.yaml")
    if kind == "device":
        if not os.path.exists("/dev/zero"):
            pytest.skip("needs /dev/zero")
        return "/dev/zero"
    (tmp_path / "d.yaml").mkdir()
    return str(tmp_path / "d.yaml")


@pytest.mark.parametrize("kind", NOT_FILES)
@pytest.mark.parametrize(
    "command", [["claims"], ["claims", "--json"], ["check"], ["explain"], ["show", "-o", "-"], ["replay"]]
)
def test_every_command_refuses_what_is_not_a_file(tmp_path: Path, kind: str, command: list[str]) -> None:
    name = _not_a_file(kind, tmp_path)
    with deadline(10):
        status, out, err = run([command[0], name, *command[1:]])
    if command == ["check"] and kind == "folder":  # a folder is what check walks: no puzzle files in it
        assert status == 2 and "no puzzle files" in err
        return
    assert status == 2, (out, err)
    assert err.startswith(f"{name}:1:1: error: "), err
    assert "not a file" in err or "a folder" in err, err
    assert all(LOCATED.match(line) for line in err.splitlines())


def test_check_of_an_empty_path_is_an_error_not_the_current_folder(tmp_path: Path) -> None:
    status, out, err = run(["check", ""])
    assert status == 2
    assert err == ":1:1: error: the path is empty: name a file or a folder\n"
    assert out == ""  # one error, as for a missing path: no summary of zero puzzles


# -- writing -----------------------------------------------------------------------------------


def test_write_new_refuses_an_existing_file_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    write_new(out, "one")
    with pytest.raises(OutputExistsError):
        write_new(out, "two")
    assert out.read_text() == "one"
    write_new(out, "two", force=True)
    assert out.read_text() == "two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]  # no temporary file left


def test_write_new_never_writes_over_an_input_even_forced(tmp_path: Path) -> None:
    source = tmp_path / "a.yaml"
    source.write_text(PUZZLE)
    link = tmp_path / "b.yaml"
    os.link(source, link)
    for target in (source, link, tmp_path / "." / "a.yaml"):
        with pytest.raises(SameAsInputError):
            write_new(target, "<html>", force=True, inputs=[source])
    assert source.read_text() == PUZZLE


def test_write_new_never_writes_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "nowhere.txt")
    for force in (False, True):
        for path in (link, dangling):
            with pytest.raises(SymlinkError):
                write_new(path, "new", force=force)
    assert link.is_symlink() and real.read_text() == "old" and not (tmp_path / "nowhere.txt").exists()


def test_a_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out.txt"
    out.write_text("precious")
    with pytest.raises(UnencodableError):
        write_new(out, "bad \ud800", force=True)

    def broken(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="No space"):
        write_new(out, "new text", force=True)
    assert out.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_check_new_and_describe_in_both_languages(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("x")
    with pytest.raises(OutputExistsError) as info:
        check_new(tmp_path / "x")
    assert describe(info.value) == "file exists; not overwritten (use --force to replace it)"
    assert "--force" in describe(info.value, "zh") and "文件已存在" in describe(info.value, "zh")
    with pytest.raises(NotRegularFileError):
        check_new(tmp_path, force=True)  # a folder is never replaced


# -- the commands that write ------------------------------------------------------------------


def test_show_never_writes_over_a_hard_link_to_the_puzzle(tmp_path: Path) -> None:
    puzzle = tmp_path / "a.yaml"
    puzzle.write_text(PUZZLE)
    os.link(puzzle, tmp_path / "b.yaml")
    for extra in ([], ["--force"]):
        status, out, err = run(["show", str(puzzle), "-o", str(tmp_path / "b.yaml"), *extra])
        assert status == 2 and "would overwrite the puzzle file itself" in err
    assert puzzle.read_text() == PUZZLE


def test_show_replaces_an_existing_page_only_with_force(tmp_path: Path) -> None:
    puzzle = tmp_path / "a.yaml"
    puzzle.write_text(PUZZLE)
    other = tmp_path / "other.yaml"
    other.write_text("id: mine\n")
    (tmp_path / "a.html").write_text("keep me")
    for target in (tmp_path / "a.html", other):
        status, out, err = run(["show", str(puzzle), "-o", str(target)])
        assert status == 2 and err == f"{target}:1:1: error: file exists; not overwritten (use --force to replace it)\n"
    assert (tmp_path / "a.html").read_text() == "keep me" and other.read_text() == "id: mine\n"
    status, out, err = run(["show", str(puzzle), "-o", str(tmp_path / "a.html"), "--force"])
    assert status == 0 and (tmp_path / "a.html").read_text().startswith("<!DOCTYPE html>")


def test_match_records_never_replace_a_game_file_without_force(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "game-4.yaml").write_text("my notes\n")
    argv = ["match", "random", "random", "--games", "2", "--seed", "3", "--records", str(folder), "--json"]
    status, out, err = run(argv)
    assert status == 2 and out == ""
    assert err == f"{folder / 'game-4.yaml'}:1:1: error: file exists; not overwritten (use --force to replace it)\n"
    assert sorted(p.name for p in folder.iterdir()) == ["game-4.yaml"]  # refused before any game was played
    status, out, err = run([*argv, "--force"])
    assert status == 0 and (folder / "game-4.yaml").read_text().startswith("# Battle Line game record")
    assert sorted(p.name for p in folder.iterdir()) == ["game-3.yaml", "game-4.yaml"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_force_is_in_the_help_of_every_writing_command(lang: str) -> None:
    for command in ("show", "generate", "match"):
        status, out, err = run([command, "--help", "--lang", lang])
        assert status == 0 and "--force" in out, (command, out)


@pytest.mark.parametrize("chunk", [1, 3, 1 << 20], ids=["a-byte-a-call", "three-bytes-a-call", "all-at-once"])
def test_write_bytes_writes_every_byte_when_the_system_writes_fewer(
    chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write
    calls = []

    def short_write(fd: int, data: bytes | memoryview) -> int:  # os.write may write fewer bytes than given
        calls.append(len(data))
        return real_write(fd, bytes(data[:chunk]))

    monkeypatch.setattr(os, "write", short_write)
    data = "旗帜 flag 5\n".encode() * 7
    target = tmp_path / "out.bin"
    fd = os.open(target, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        write_bytes(fd, data)
    finally:
        os.close(fd)
    assert target.read_bytes() == data
    assert len(calls) == -(-len(data) // chunk)
