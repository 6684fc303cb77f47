"""``tools/run_tests.py``: the tiers of ``./dev test`` run every test exactly once, and its closing line sums them."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import cast

import pytest

from tests.scripts import load_script
from tests.xdist_groups import GROUPS

ROOT = Path(__file__).resolve().parents[1]
run_tests = load_script(ROOT / "tools" / "run_tests.py", "run_tests")
Tier = run_tests.Tier
Result = run_tests.Result

JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="tests.test_a" name="test_ok" time="0.1"/>
<testcase classname="tests.test_a" name="test_ok2" time="0.1"/>
<testcase classname="tests.test_a" name="test_bad" time="0.2"><failure message="x">boom</failure></testcase>
<testcase classname="tests.test_a" name="test_broken" time="0.0"><error message="fixture">err</error></testcase>
<testcase classname="tests.test_a" name="test_bad_twice" time="0.0"><failure/><error/></testcase>
<testcase classname="tests.test_a" name="test_skip" time="0.0"><skipped message="no"/></testcase>
</testsuite></testsuites>"""


def _collected(args: list[str]) -> list[str]:
    """The node ids ``pytest --collect-only -q`` prints for ``args``."""
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode in (0, 5), out.stdout[-3000:] + out.stderr[-3000:]
    ids = []
    for line in out.stdout.splitlines():
        if not line.strip():
            break  # the ids end at the first blank line; the summary follows
        ids.append(line.strip())
    return ids


def test_the_tiers_together_collect_every_test_of_the_whole_suite_exactly_once() -> None:
    whole = _collected([sys.executable, "-m", "pytest", *run_tests.WHOLE_SUITE, "--collect-only", "-q"])
    assert len(whole) > 1000, whole[-5:]
    tiers: Counter[str] = Counter()
    for tier in run_tests.tiers():
        if tier.is_pytest:
            tiers.update(_collected(run_tests.pytest_command(tier, [], collect_only=True)))
    assert not [nodeid for nodeid, n in tiers.items() if n > 1], "a test runs in two tiers"
    assert sorted(tiers) == sorted(whole)


def test_the_quick_tiers_are_lint_and_the_unit_tests_without_slow() -> None:
    quick = run_tests.tiers(quick=True)
    assert [t.name for t in quick] == ["lint", "unit"]
    assert [t.name for t in run_tests.tiers()] == ["lint", "unit", "browser", "site", "notebooks"]
    lint = {" ".join(Path(c[0]).name for c in t.commands) for t in quick if not t.is_pytest}
    assert lint == {"ruff ruff mypy lint-imports"}


def test_every_xdist_group_names_a_test_module_that_exists() -> None:
    for path in GROUPS:
        assert (ROOT / path).is_file(), path


@pytest.mark.parametrize(
    ("args", "marker", "rest"),
    [
        (["-k", "claims"], None, ["-k", "claims"]),
        (["-m", "not browser", "-x"], "not browser", ["-x"]),
        (["-m=slow"], "slow", []),
        (["-mslow", "-q"], "slow", ["-q"]),
        (["-m", "a", "-m", "b"], "b", []),  # the last, as pytest takes it
        (["--maxfail=2"], None, ["--maxfail=2"]),
    ],
)
def test_the_users_marker_is_taken_out_of_the_arguments(args: list[str], marker: str | None, rest: list[str]) -> None:
    assert run_tests.split_marker(args) == (marker, rest)


def test_the_users_marker_is_joined_to_each_tiers_own() -> None:
    unit = Tier("unit", paths=("tests",), marker="not browser", options=run_tests.XDIST)
    cmd = run_tests.pytest_command(unit, ["-m", "not wheel", "-k", "claims"])
    assert cmd[cmd.index("-m", 3) + 1] == "(not browser) and (not wheel)"
    assert cmd[-2:] == ["-k", "claims"] and "-n" in cmd and "--durations=20" in cmd
    notebooks = Tier("notebooks", paths=("notebooks", "--nbval"))
    assert "-m" not in run_tests.pytest_command(notebooks, ["-x"])[3:]
    collect = run_tests.pytest_command(unit, ["-x"], collect_only=True)
    assert "-n" not in collect and "loadgroup" not in collect and collect[-3:] == ["--collect-only", "-q", "-x"]
    assert run_tests.join_markers(None, None) is None and run_tests.join_markers(None, "b") == "b"


def test_junit_counts_a_test_once_an_error_as_a_failure_and_a_skip_as_a_skip() -> None:
    assert run_tests.junit_counts(JUNIT) == (2, 3, 1)


def _result(name: str, ok: bool, passed: int = 0, failed: int = 0, skipped: int = 0) -> object:
    return Result(Tier(name), ok=ok, passed=passed, failed=failed, skipped=skipped)


def test_the_closing_line_sums_the_tiers() -> None:
    results = [_result("unit", True, 10, 0, 2), _result("browser", False, 5, 3, 1), _result("notebooks", True, 7)]
    assert run_tests.closing_line(results) == "22 passed, 3 failed, 3 skipped"


def test_a_tier_that_failed_without_a_failed_test_counts_one_failure() -> None:
    assert run_tests.closing_line([_result("lint", False), _result("unit", True, 4)]) == "4 passed, 1 failed, 0 skipped"
    assert run_tests.closing_line([_result("lint", True), _result("unit", True, 4)]) == "4 passed, 0 failed, 0 skipped"


def test_the_slowest_are_merged_over_the_tiers() -> None:
    log_a = "== slowest 20 durations ==\n3.50s call     tests/test_a.py::test_x\n"
    log_a += "0.20s setup    tests/test_a.py::test_y\n"
    log_b = "1.25s call     notebooks/00.ipynb::Cell 3\n12 passed in 3.0s\n"
    a, b = Result(Tier("unit")), Result(Tier("notebooks"))
    a.durations, b.durations = run_tests.parse_durations(log_a), run_tests.parse_durations(log_b)
    assert b.durations == [(1.25, "call     notebooks/00.ipynb::Cell 3")]
    got = run_tests.slowest([a, b], n=2)
    assert got == [
        (3.5, "[unit] call     tests/test_a.py::test_x"),
        (1.25, "[notebooks] call     notebooks/00.ipynb::Cell 3"),
    ]


def test_a_failed_tier_shows_its_failures_and_a_passed_one_its_tail() -> None:
    log = "\n".join([*(f"line {i}" for i in range(50)), "=== FAILURES ===", "test_bad", "=== 1 failed in 1s ==="])
    assert run_tests.excerpt(log, ok=False).splitlines()[0] == "=== FAILURES ==="
    assert run_tests.excerpt(log, ok=True, tail=2).splitlines() == ["test_bad", "=== 1 failed in 1s ==="]
    plain = "\n".join(f"line {i}" for i in range(10))
    assert run_tests.excerpt(plain, ok=False, limit=3).splitlines() == ["line 7", "line 8", "line 9"]


def test_main_runs_the_tiers_and_ends_with_the_closing_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = Tier("good", commands=((sys.executable, "-c", "print('fine')"),))
    bad = Tier("bad", commands=((sys.executable, "-c", "print('checked'); raise SystemExit(3)"),))
    monkeypatch.setattr(run_tests, "LOGS", tmp_path)
    monkeypatch.setattr(run_tests, "ROOT", tmp_path.parent)
    monkeypatch.setattr(run_tests, "tiers", lambda quick=False: [good, bad])
    assert run_tests.main(["-k", "x"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "0 passed, 1 failed, 0 skipped"
    assert "==> tier good passed" in out and "==> tier bad FAILED" in out and "checked" in out
    assert "fine" in (tmp_path / "good.log").read_text()
    # CI's log shows the slowest tests and each tier's wall time
    assert "==> the 20 slowest tests (over every tier)" in out and "==> wall time of each tier" in out
    assert re.search(r"^good +\d+ s  passed$", out, re.M) and re.search(r"^bad +\d+ s  FAILED$", out, re.M)
    monkeypatch.setattr(run_tests, "tiers", lambda quick=False: [good])
    assert run_tests.main(["--quick"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "0 passed, 0 failed, 0 skipped"


class _Spec:
    def __init__(self, params: dict[str, object]) -> None:
        self.params = params


class _SiteItem:
    """What :func:`tests.conftest.uses_site` reads of a collected test: its fixtures and parameters."""

    def __init__(self, fixtures: list[str], params: dict[str, object] | None = None) -> None:
        self.fixturenames = fixtures
        if params is not None:
            self.callspec = _Spec(params)


@pytest.mark.parametrize(
    ("fixtures", "params", "site"),
    [
        pytest.param(["site_url", "tmp_path"], None, True, id="the-site-served"),
        pytest.param(["site"], None, True, id="the-site-built"),
        pytest.param(["offline_chromium"], None, True, id="the-offline-browser"),
        pytest.param(["frontend", "front_page"], {"frontend": "site", "width": 360}, True, id="frontend-site"),
        pytest.param(["frontend", "front_page"], {"frontend": "lab", "width": 360}, False, id="frontend-lab"),
        pytest.param(["lab", "lab_page"], None, False, id="jupyterlab-only"),
        pytest.param(["tmp_path"], {"width": 360}, False, id="no-browser"),
    ],
)
def test_a_test_of_the_site_is_marked_for_the_site_tier(
    fixtures: list[str], params: dict[str, object] | None, site: bool
) -> None:
    from tests.conftest import uses_site

    assert uses_site(cast(pytest.Item, _SiteItem(fixtures, params))) is site


def test_the_browser_tests_are_split_between_jupyterlab_and_the_site() -> None:
    by_name = {t.name: t for t in run_tests.tiers()}
    assert by_name["browser"].marker == "(browser or wheel) and not site"
    assert by_name["site"].marker == "(browser or wheel) and site"
