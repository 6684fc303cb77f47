"""``tools/run_tests.py``: the tiers of ``./dev test`` run every test exactly once, and its closing line sums them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Collection
from pathlib import Path
from typing import cast

import pytest
from _pytest.mark.expression import Expression

from tests import xdist_groups
from tests.conftest import MARKERS_OUT
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


def _matches(expression: str, markers: Collection[str]) -> bool:
    """Whether a test with ``markers`` is selected by ``-m expression``, as pytest decides it."""
    return Expression.compile(expression).evaluate(lambda name, /, **kwargs: name in markers)


def test_the_tiers_together_collect_every_test_of_the_whole_suite_exactly_once(tmp_path: Path) -> None:
    """One collection of the whole suite, with each test's markers (``tests/conftest.py`` writes them);
    each tier's tests are worked out from its paths and its marker expression (:func:`tiers_of`)."""
    out = tmp_path / "markers.json"
    env = {**os.environ, MARKERS_OUT: str(out)}
    cmd = [sys.executable, "-m", "pytest", *run_tests.WHOLE_SUITE, "--collect-only", "-q", "-p", "no:randomly"]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    collected = json.loads(out.read_text(encoding="utf-8"))
    assert len(collected) > 1000, list(collected)[-5:]
    found = run_tests.tiers_of(collected, run_tests.tiers(), _matches)
    assert {nodeid: names for nodeid, names in found.items() if len(names) > 1} == {}, "a test runs in two tiers"
    assert [nodeid for nodeid, names in found.items() if not names] == [], "a test runs in no tier"


#: tests of the whole suite, their markers, and the tiers of ``./dev test`` that should select each
TIER_CASES = [
    pytest.param("tests/test_a.py::test_x", [], ["unit"], id="a-unit-test"),
    pytest.param("battleline_lab/core/cards.py::battleline_lab.core.cards.Card", [], ["unit"], id="a-doctest"),
    pytest.param("puzzles/claims/p1.yaml::p1", [], ["unit"], id="a-puzzle"),
    pytest.param("tests/test_a.py::test_slow", ["slow"], ["unit"], id="a-slow-unit-test"),
    pytest.param("tests/browser/test_b.py::test_y[lab]", ["browser"], ["browser"], id="jupyterlab"),
    pytest.param("tests/browser/test_b.py::test_y[site]", ["browser", "site"], ["browser"], id="the-site"),
    pytest.param("tests/test_wheel.py::test_w", ["wheel"], ["browser"], id="the-wheel"),
    pytest.param("tests/test_preview.py::test_p", ["browser"], ["browser"], id="the-preview"),
    pytest.param("notebooks/00-intro.ipynb::Cell 0", [], ["notebooks"], id="a-lesson-cell"),
    pytest.param("tests/test_c.py::test_z", ["browser"], [], id="a-browser-test-outside-the-browser-paths-no-tier"),
    pytest.param("tests/browser/test_b.py::test_unmarked", [], ["unit"], id="an-unmarked-test-in-tests-browser"),
]


@pytest.mark.parametrize(("nodeid", "markers", "expected"), TIER_CASES)
def test_each_test_is_in_the_tiers_its_path_and_markers_select(
    nodeid: str, markers: list[str], expected: list[str]
) -> None:
    assert run_tests.tiers_of({nodeid: markers}, run_tests.tiers(), _matches) == {nodeid: expected}


def test_a_test_that_two_tiers_select_is_found_in_both() -> None:
    overlapping = [Tier("all", paths=("tests",)), Tier("browser", paths=("tests/browser",), marker="browser")]
    found = run_tests.tiers_of({"tests/browser/test_b.py::test_y": ["browser"]}, overlapping, _matches)
    assert found == {"tests/browser/test_b.py::test_y": ["all", "browser"]}
    # a lint tier (commands, no paths) selects no test; a path is a folder or a file, not a prefix
    lint = Tier("lint", commands=(("ruff",),))
    assert run_tests.tiers_of({"testsuite/t.py::t": [], "tests::t": []}, [lint, *overlapping], _matches) == {
        "testsuite/t.py::t": [],
        "tests::t": ["all"],
    }


def test_the_quick_tiers_are_lint_and_the_unit_tests_without_slow() -> None:
    quick = run_tests.tiers(quick=True)
    assert [t.name for t in quick] == ["lint", "unit"]
    assert [t.name for t in run_tests.tiers()] == ["lint", "unit", "browser", "notebooks"]
    lint = {" ".join(Path(c[0]).name for c in t.commands) for t in quick if not t.is_pytest}
    assert lint == {"ruff ruff mypy lint-imports"}


def test_every_xdist_group_names_a_test_module_that_exists() -> None:
    for path in GROUPS:
        module, _, test = path.partition("::")
        assert (ROOT / module).is_file(), path
        assert not test or f"def {test}(" in (ROOT / module).read_text(encoding="utf-8"), path


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
    assert re.search(r"^good +\d+ s +\d+ s CPU  passed$", out, re.M), out
    assert re.search(r"^bad +\d+ s +\d+ s CPU  FAILED$", out, re.M), out
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


def test_the_browser_tests_run_on_three_workers_that_take_tests_as_they_free_up() -> None:
    by_name = {t.name: t for t in run_tests.tiers()}
    assert by_name["browser"].marker == "browser or wheel"
    assert by_name["browser"].options == ("-n", "3", "--dist", "loadgroup")
    assert "-n" not in run_tests.pytest_command(by_name["browser"], [], collect_only=True)


def test_a_tiers_cpu_time_is_its_own_processes_and_their_children(tmp_path: Path) -> None:
    """A command whose child process does a fixed amount of work (about half a second of CPU): the
    command's CPU time counts the child's; a command that only sleeps counts almost none."""
    work = "sum(range(2 * 10**7))"
    burn = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {work!r}], check=True)"
    with (tmp_path / "log").open("w", encoding="utf-8") as log:
        code, busy = run_tests.call_with_cpu([sys.executable, "-c", burn], log)
        assert code == 0
        code, idle = run_tests.call_with_cpu([sys.executable, "-c", "import time; time.sleep(0.5); exit(4)"], log)
    assert code == 4
    assert busy > 0.15 and busy > 3 * idle, (busy, idle)


class _GroupItem:
    """What :func:`tests.xdist_groups.mark` reads and writes of a collected test."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid
        self.groups: list[str] = []

    def add_marker(self, marker: pytest.MarkDecorator) -> None:
        self.groups.append(str(marker.args[0]))


@pytest.mark.parametrize(
    ("nodeid", "groups"),
    [
        pytest.param("tests/test_generate.py::test_x[mud]", ["generate"], id="a-grouped-module"),
        pytest.param("tests/browser/test_jupyterhub_class.py::test_y", ["jupyterhub"], id="the-hub-module"),
        pytest.param("tests/test_b.py::test_cached[a.ipynb]", ["cache"], id="a-case-of-a-grouped-test"),
        pytest.param("tests/test_b.py::test_other[a.ipynb]", [], id="its-module-is-not"),
        pytest.param("tests/test_a.py::test_z", [], id="no-group"),
    ],
)
def test_a_test_gets_the_xdist_group_of_its_module_or_its_own(
    nodeid: str, groups: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a test grouped alone (its cases on one worker), beside the real groups of modules
    monkeypatch.setitem(xdist_groups.GROUPS, "tests/test_b.py::test_cached", "cache")
    item = _GroupItem(nodeid)
    xdist_groups.mark([cast(pytest.Item, item)])
    assert item.groups == groups
