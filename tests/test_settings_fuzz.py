"""Fuzz of every environment setting: any value is a folder, a name, or a refusal naming the variable.

Each folder setting (``BATTLELINE_LAB_DATA``, ``BATTLELINE_CLASS_DIR``, ``XDG_DATA_HOME``) and the
learner's name (``BATTLELINE_LEARNER``) is given generated values built from the parts that broke
settings before: ``~`` and ``~user`` prefixes, relative and dotted parts, control, bidi and
non-ASCII characters.  Whatever the value:

- :func:`folder_setting` gives an absolute folder with no unexpanded ``~`` at its start, or ``None``
  for an empty value, or raises :class:`SettingError` whose message names the variable and holds
  no raw control character;
- the store's own readers (``data_dir``, ``class_dir``) agree with it, and opening the learner's
  progress never raises: a refused setting keeps the answers in memory and says why;
- the command line ends a refused setting with exit 2 and one located line, never a traceback.

Values are kept inside the test's own folders: ``HOME`` and the working folder are temporary, and
the generated ``~user`` names are ones no machine has, so nothing outside ``tmp_path`` is touched.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battleline_lab.formats.settings import (
    CLASS_DIR_VARIABLE,
    DATA_VARIABLE,
    LEARNER_VARIABLE,
    XDG_DATA_VARIABLE,
    SettingError,
    folder_setting,
    learner_setting,
)
from battleline_lab.training.progress import Progress, ProgressWarning, class_dir, data_dir
from tests.test_robustness import run

FOLDER_VARIABLES = [DATA_VARIABLE, CLASS_DIR_VARIABLE, XDG_DATA_VARIABLE]
ALL_VARIABLES = [*FOLDER_VARIABLES, LEARNER_VARIABLE]

#: What broke settings or terminals before, mixed into the generated values.
HOSTILE = ["\x1b[2J", "\x1b]0;x\x07", "\x9b", "\u202e", "\u2066", "\x85", "\t", " ", "..", ".", "~", "３", "é", "班"]

#: ``~user`` names that no machine has (an existing user would lead outside the test's folders).
NO_USER = st.from_regex(r"\Anouser[a-z0-9]{6,10}\Z", fullmatch=True)

PART = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\0/"), max_size=6),
)
REST = st.lists(PART, max_size=4).map("/".join)

#: A value: ``~``, ``~nouser…``, relative, dotted or empty, followed by generated parts.
VALUE = st.one_of(
    st.just(""),
    st.builds(lambda rest: "~" if not rest else "~/" + rest, REST),
    st.builds(lambda user, rest: f"~{user}/{rest}", NO_USER, REST),
    st.builds(lambda user: f"~{user}", NO_USER),
    REST,
    st.builds(lambda rest: "./" + rest, REST),
)

RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary ``HOME`` and working folder, and no setting of the test's variables left from outside."""
    (tmp_path / "home").mkdir()
    (tmp_path / "work").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path / "work")
    for variable in [*ALL_VARIABLES, "JUPYTERHUB_USER"]:
        monkeypatch.delenv(variable, raising=False)
    return tmp_path


def _expected(variable: str, value: str) -> Path | None | type[SettingError]:
    """What the setting must give, worked out independently of :func:`folder_setting`."""
    if not value:
        return None
    if value == "~" or value.startswith("~/"):
        rest = value[2:]
        return Path(os.path.abspath(os.path.join(os.environ["HOME"], rest) if rest else os.environ["HOME"]))
    if value.startswith("~"):
        return SettingError  # the generated users do not exist
    return Path(os.path.abspath(value))


@pytest.mark.parametrize("variable", FOLDER_VARIABLES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=VALUE)
def test_a_folder_setting_is_a_folder_or_a_refusal_naming_it(home: Path, variable: str, value: str) -> None:
    expected = _expected(variable, value)
    try:
        got = folder_setting(variable, {variable: value, "HOME": os.environ["HOME"]})
    except SettingError as err:
        assert expected is SettingError, (value, err)
        assert str(err).startswith(f"{variable}="), err
        assert not RAW_CONTROL.search(str(err)), repr(str(err))
        return
    assert got == expected, value
    if got is not None:
        assert got.is_absolute() and not got.parts[0].startswith("~"), got


@pytest.mark.parametrize("variable", [DATA_VARIABLE, CLASS_DIR_VARIABLE])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=VALUE)
def test_the_store_reads_each_setting_as_the_settings_module_does(
    home: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    reader = data_dir if variable == DATA_VARIABLE else class_dir
    expected = _expected(variable, value)
    if expected is SettingError:
        with pytest.raises(SettingError, match=f"^{variable}="):
            reader()
    elif variable == DATA_VARIABLE and expected is not None:
        assert reader() == expected
    elif variable == CLASS_DIR_VARIABLE:
        assert reader() == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.builds(lambda user, rest: f"~{user}/{rest}", NO_USER, REST))
def test_a_refused_data_setting_keeps_answers_in_memory_and_says_so(
    home: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(DATA_VARIABLE, value)
    with pytest.warns(ProgressWarning, match=DATA_VARIABLE):
        progress = Progress()  # never raises: the learner can still answer
    assert progress.problem and DATA_VARIABLE in progress.problem, progress.problem
    assert not any(p.name.startswith("~") for p in (home / "work").iterdir()), "a folder named '~…' was made"


@settings(max_examples=60, deadline=None)
@given(value=st.one_of(VALUE, st.text(max_size=12).filter(lambda s: "\0" not in s)))
def test_the_learners_name_is_a_name_never_a_path(value: str) -> None:
    got = learner_setting({LEARNER_VARIABLE: value})
    assert got == (value or None)


@pytest.mark.parametrize("variable", [DATA_VARIABLE, CLASS_DIR_VARIABLE])
@pytest.mark.parametrize("hostile", ["", "\x1b[2J", "\u202e", "\x9b", "班级"])
def test_the_command_line_refuses_an_unexpandable_setting_with_exit_2(
    home: Path, monkeypatch: pytest.MonkeyPatch, variable: str, hostile: str
) -> None:
    value = f"~nouserzz{len(hostile)}q/{hostile}x"
    monkeypatch.setenv(variable, value)
    status, out, err = run(["progress", "export"])
    assert status == 2, (status, out, err)
    assert variable in err and "Traceback" not in err, err
    assert not RAW_CONTROL.search(err), repr(err)
    shown = unicodedata.normalize("NFC", err)
    assert "nouserzz" in shown, err
