"""The slowest tests, run by ``./dev test`` (and so by CI) but left out of ``./dev test --quick``.

``tests/conftest.py`` marks each test named here ``slow``, every parametrized case of it (:func:`mark`),
and ``--quick`` deselects ``slow``, so that the edit-test loop stays under 3 minutes on the project's
2-core machine. The figure beside each is its seconds in a ``--quick --durations`` run on a
loaded machine (load 10-13, where 3.3 minutes of CPU took 16 minutes): what ranks them, not a target.
The full suite never loses one: ``./dev test`` selects no marker. ``tests/test_quick.py`` checks that
every name here is a test that exists.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

SLOW: dict[str, float] = {
    "tests/test_equivalence.py::test_R12_R13_fast_claim_equals_reference": 90.9,
    "tests/game/test_properties.py::test_random_games_keep_every_invariant": 59.8,
    "tests/test_generate.py::"
    "test_R5_R24_R25_a_batch_of_100_is_reachable_needs_its_environment_and_has_unique_titles": 57.0,
    "tests/test_fuzz.py::test_mutated_inputs_through_every_command": 40.1,
    "tests/test_equivalence.py::test_R12_R13_decision_witness_is_a_real_completion_that_beats": 38.9,
    "tests/game/test_seat_independence.py::test_a_bot_chooses_the_same_move_from_either_seat": 32.3,
    "tests/test_formations.py::test_R20_one_strength_with_wildcards_is_evaluates": 31.5,
    "tests/test_equivalence.py::test_R9_R10_R20_R25_evaluate_equals_reference": 30.0,
    "tests/test_equivalence.py::test_R11_R12_whole_positions_decision_equals_proof_and_reference": 24.7,
    "tests/game/test_odds_search.py::test_seeded_games_are_reproducible_and_alternate_the_first_move": 18.7,
    "tests/test_bench_big_files.py::test_quick_run_answers_every_case": 15.6,
    "tests/game/test_expert.py::test_expert_beats_heuristic_in_a_small_seeded_match": 14.3,
    "tests/test_formations.py::test_R9_troops_strength_agrees_with_evaluate": 13.6,
    "tests/test_fuzz.py::test_mutated_exports_through_report": 13.4,
    "tests/game/test_session_refusals.py::test_random_arguments_to_the_session_are_refused_or_legal": 13.1,
    # one collection of the whole suite (measured alone on a loaded machine: 28 s, 16 s of CPU)
    "tests/test_run_tests.py::test_the_tiers_together_collect_every_test_of_the_whole_suite_exactly_once": 28.0,
    # these two share a fixture that generates a batch per theme (60 s of set-up in all): both, or neither
    "tests/test_generate_spoilers.py::test_no_title_or_topic_predicts_the_answer": 60.0,
    "tests/test_generate_spoilers.py::test_titles_in_words_and_topics_from_the_library": 1.0,
}


def mark(items: Iterable[pytest.Item]) -> None:
    """Mark ``slow`` each collected test named in :data:`SLOW` (every parametrized case of it)."""
    for item in items:
        if item.nodeid.split("[")[0] in SLOW:
            item.add_marker(pytest.mark.slow)
