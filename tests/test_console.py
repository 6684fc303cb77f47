"""The progress bar of long commands: on a terminal only, off with --quiet, never in --json output, both languages."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from battleline_lab.cli import console, main
from battleline_lab.cli.console import Progress, display_width

SEEDS = Path(__file__).resolve().parent.parent / "puzzles" / "seed-examples"
#: five puzzles that check without a warning (the seed examples carry two reachability warnings)
QUIET_THEME = Path(__file__).resolve().parent.parent / "puzzles" / "tie-rule"


class FakeTerminal(io.StringIO):
    """A stream that says it is a terminal (as stderr is when a person runs the command)."""

    def isatty(self) -> bool:
        return True


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _frames(text: str) -> list[str]:
    """The bar's successive drawings (each starts with a carriage return), blanks dropped."""
    return [frame.rstrip() for frame in text.split("\r") if frame.strip()]


def test_a_terminal_sees_the_bar_fill_up_and_then_wiped() -> None:
    screen = FakeTerminal()
    with Progress(10, "playing games", stream=screen, delay=0, interval=0, width=60) as bar:
        for _ in range(10):
            bar.advance()
    frames = _frames(screen.getvalue())
    assert len(frames) == 10
    assert frames[0].startswith("playing games [") and frames[0].endswith(" 1/10")
    assert frames[-1].endswith("10/10") and "." not in frames[-1].split("[")[1].split("]")[0]
    # wiped at the end: the last thing written is a carriage return after blanks
    assert screen.getvalue().endswith("\r") and screen.getvalue().rstrip("\r").endswith(" ")


@pytest.mark.parametrize(
    "stream",
    [io.StringIO(), FakeTerminal()],
    ids=["not-a-terminal", "terminal-but-disabled"],
)
def test_no_bar_when_not_a_terminal_or_disabled(stream: io.StringIO) -> None:
    enabled = None if not stream.isatty() else False
    with Progress(5, "checking puzzles", stream=stream, enabled=enabled, delay=0, interval=0) as bar:
        bar.advance(5)
    assert stream.getvalue() == ""


def test_quick_work_shows_nothing_and_redraws_are_throttled() -> None:
    screen, clock = FakeTerminal(), FakeClock()
    with Progress(100, "checking puzzles", stream=screen, delay=0.4, interval=0.1, clock=clock) as bar:
        bar.advance(10)  # t = 0: before the delay
        clock.now = 0.5
        bar.advance()  # drawn
        clock.now = 0.55
        bar.advance()  # too soon after the last drawing
        clock.now = 0.7
        bar.advance()  # drawn
    assert [f.split()[-1] for f in _frames(screen.getvalue())] == ["11/100", "13/100"]


def test_the_last_step_is_always_drawn_even_within_the_interval() -> None:
    screen, clock = FakeTerminal(), FakeClock()
    bar = Progress(2, "x", stream=screen, delay=0, interval=10, clock=clock)
    bar.advance()
    bar.advance()
    assert [f.split()[-1] for f in _frames(screen.getvalue())] == ["1/2", "2/2"]


def test_the_bar_fits_a_narrow_terminal_and_counts_chinese_as_two_cells() -> None:
    for width in (20, 30, 80):
        bar = Progress(2000, "对局进行中", stream=FakeTerminal(), width=width)
        bar.done = 1000
        assert display_width(bar.line()) <= max(width - 1, display_width("对局进行中  1000/2000"))
    assert Progress(None, "finding", stream=FakeTerminal()).line() == "finding 0"


def test_a_broken_stream_turns_the_bar_off_instead_of_failing() -> None:
    class Broken(FakeTerminal):
        def write(self, text: str) -> int:
            raise OSError("gone")

    bar = Progress(3, "x", stream=Broken(), delay=0, interval=0)
    bar.advance()
    assert bar.enabled is False
    bar.advance()
    bar.close()


# -- the commands -----------------------------------------------------------------------------------


def _terminal(monkeypatch: pytest.MonkeyPatch) -> FakeTerminal:
    """stderr is a terminal, and the bar shows at once and on every step.

    Called in the test itself: pytest's capture puts its own stderr back when the test starts.
    """
    screen = FakeTerminal()
    monkeypatch.setattr("sys.stderr", screen)
    monkeypatch.setattr(console, "DELAY", 0.0)
    monkeypatch.setattr(console, "INTERVAL", 0.0)
    return screen


@pytest.mark.parametrize(
    ("lang", "label"),
    [("en", "checking puzzles"), ("zh", "检查谜题")],
)
def test_check_shows_progress_on_a_terminal_in_its_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, label: str
) -> None:
    terminal = _terminal(monkeypatch)
    files = sorted(QUIET_THEME.glob("*.yaml"))
    assert main(["--lang", lang, "check", str(QUIET_THEME)]) == 0
    frames = _frames(terminal.getvalue())
    assert [f.split()[-1] for f in frames] == [f"{k}/{len(files)}" for k in range(1, len(files) + 1)]
    assert all(f.startswith(label) for f in frames)
    assert "\r" not in capsys.readouterr().out


def test_check_quiet_has_no_bar(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    terminal = _terminal(monkeypatch)
    assert main(["check", str(QUIET_THEME), "--quiet"]) == 0
    assert terminal.getvalue() == ""
    assert "checked 5 puzzles" in capsys.readouterr().out


def test_check_wipes_the_bar_before_a_diagnostic(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    terminal = _terminal(monkeypatch)
    bad = tmp_path / "a-bad.yaml"
    bad.write_text("id: [\n", encoding="utf-8")
    (tmp_path / "b-good.yaml").write_bytes((SEEDS / "2-blue-eight-blocked.yaml").read_bytes())
    assert main(["check", str(tmp_path)]) == 2
    text = terminal.getvalue()
    diagnostic_at = text.index(f"{bad}:")
    # the bar was drawn, then wiped (blanks and a carriage return) just before the diagnostic
    assert text.startswith("\rchecking puzzles")
    assert text[:diagnostic_at].endswith(" \r")


def test_match_json_stays_pure_json_while_the_bar_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = _terminal(monkeypatch)
    assert main(["match", "random", "random", "--games", "3", "--seed", "1", "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["games"] == 3 and out.count("\n") == 1
    assert [f.split()[-1] for f in _frames(terminal.getvalue())] == ["1/3", "2/3", "3/3"]


def test_match_quiet_and_match_into_a_pipe_have_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _terminal(monkeypatch)
    assert main(["match", "random", "random", "--games", "2", "-q"]) == 0
    assert terminal.getvalue() == ""
    pipe = io.StringIO()
    monkeypatch.setattr("sys.stderr", pipe)
    assert main(["match", "random", "random", "--games", "2"]) == 0
    assert pipe.getvalue() == ""


def test_generate_shows_one_step_per_puzzle_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    terminal = _terminal(monkeypatch)
    out = tmp_path / "new"
    args = ["--lang", "zh", "generate", "--theme", "at-best-a-tie", "--count", "2", "--seed", "1", "--out", str(out)]
    assert main(args) == 0
    frames = _frames(terminal.getvalue())
    assert [f.split()[-1] for f in frames] == ["1/2", "2/2"]
    assert all(f.startswith("寻找谜题") for f in frames)
    assert len(list(out.glob("*.yaml"))) == 2
