"""The order the test run hands tests to its workers: the longest first.

Under ``-n auto --dist loadgroup`` a worker that falls free takes the next test in
collection order (after the ``xdist_group`` groups, which xdist hands out first, largest
first). A test of many seconds collected late then runs alone at the end while the other
cores idle. So tests/conftest.py moves the tests named here to the front of the
collection, heaviest first; every other test keeps its place. Only the order changes:
no test is added, dropped or altered.

``WEIGHTS`` holds, by module, the seconds ``pytest --durations -n 0`` measured for each
on a busy machine (only their order matters). A test is named
without its parameters (every case of a parametrized test weighs the same). A name that
is no collected test is reported by the full run (:func:`stale`), so a renamed test
does not quietly fall to the back again.
"""

from __future__ import annotations

from collections.abc import Iterable

WEIGHTS: dict[str, dict[str, float]] = {
    "tests/book/test_follow.py": {
        "test_writer_and_follower_processes_every_entry_once_in_order": 12.0,
    },
    "tests/book/test_scrounged_bounded.py": {
        "test_memory_held_grows_linearly_with_the_scrounged_entries": 2.0,
    },
    "tests/book/test_control_bounded.py": {
        "test_memory_held_grows_linearly_with_the_entries": 2.0,
    },
    "tests/book/test_change.py": {
        "test_change_is_exact_on_generated_campaigns": 11.0,
        "TestChangeBook::runTest": 17.0,
    },
    "tests/book/test_names_replay_cost.py": {
        "test_the_lazy_replay_names_every_entry_as_the_writer_replay_does": 10.0,
    },
    "tests/cli/test_run_stream.py": {
        "test_a_run_holds_no_record_it_writes_only_its_names_and_tables": 70.0,
        "test_a_run_holds_no_more_than_the_game_it_writes_to": 60.0,
        "test_a_run_written_in_chunks_killed_at_every_step_leaves_none_or_all": 30.0,
        "test_a_refused_last_line_of_a_long_script_writes_nothing_and_names_it": 15.0,
    },
    "tests/cli/test_argspec.py": {
        "test_the_reader_answers_only_as_argparse_does": 26.0,
    },
    "tests/cli/test_durability_run.py": {
        "test_a_run_killed_at_every_step_of_its_write_leaves_the_log_as_before_or_whole": 35.0,
        "test_runs_killed_at_random_moments_leave_the_log_as_before_or_whole": 10.0,
    },
    "tests/cli/test_store_property.py": {
        "test_tally_always_prints_what_a_fresh_fold_prints": 17.0,
    },
    "tests/tui/test_tui_snapshots_forms.py": {
        "test_form_80x24": 5.0,
    },
    "tests/tui/test_tui_forms.py": {
        "test_keys_alone_drive_every_form": 6.0,
    },
    "tests/tui/test_serve.py": {
        "test_in_a_browser_click_next_phase_and_undo_and_a_second_session_follows": 20.0,
    },
    "tests/tui/test_tui_footer_clicks.py": {
        "test_every_footer_key_is_clickable_and_next_and_undo_change_the_game": 5.0,
    },
    "tests/tui/test_tui_playthrough.py": {
        "test_a_short_game_with_keys_roster_and_pickers_only": 11.0,
    },
    "tests/tui/test_tui_examples.py": {
        "test_example_15_undo_replay_and_tally": 5.0,
        "test_example_13_through_the_surrender_form": 4.0,
    },
    "tests/tui/test_tui_form_mount.py": {
        "test_a_form_is_laid_out_as_often_as_a_plain_modal": 3.5,
    },
    "tests/camp/test_camp_tui.py": {
        "test_a_campaign_with_typed_dice_from_capture_to_escape": 16.0,
    },
    "tests/camp/test_camp_simulate.py": {
        "test_ten_thousand_games_two_seeds_agree_within_one_point": 14.0,
        "test_strategies_shape_the_outcomes": 8.0,
    },
    "tests/commands/test_commands_roundtrip.py": {
        "test_a_command_reads_back_from_its_own_line": 6.0,
    },
    "tests/packaging/test_bench_fresh_clone.py": {
        "test_quick_tui_bench_runs_without_bench_out": 31.0,
    },
    "tests/log/test_portable_lock.py": {
        "test_journal_suites_pass_with_fcntl_hidden": 24.0,
    },
    "tests/log/test_repair_salvage.py": {
        "test_a_flipped_byte_anywhere_in_one_line_costs_at_most_that_line": 10.0,
        "test_bad_lines_at_the_end_leave_no_stand_ins_and_millions_cost_little": 7.0,
    },
    "tests/log/test_durability_crash.py": {
        "test_sigkill_never_loses_an_accepted_record": 10.0,
    },
    "tests/log/test_core_fast_open.py": {
        "test_a_line_reads_as_the_strict_decoder_reads_it": 8.0,
    },
}
SECONDS = {f"{module}::{test}": s for module, tests in WEIGHTS.items() for test, s in tests.items()}


def key(nodeid: str) -> str:
    """The node id without its parameters: ``a.py::test_x[1]`` -> ``a.py::test_x``."""
    return nodeid.split("[", 1)[0]


def weight(nodeid: str) -> float:
    return SECONDS.get(key(nodeid), 0.0)


def heaviest_first(nodeids: Iterable[str]) -> list[int]:
    """The indexes of ``nodeids`` in run order: the weighed ones, heaviest first, then the
    rest in their own order (a stable sort)."""
    ids = list(nodeids)
    return sorted(range(len(ids)), key=lambda i: -weight(ids[i]))


def stale(nodeids: Iterable[str]) -> list[str]:
    """The keys of ``SECONDS`` that name none of ``nodeids``."""
    seen = {key(n) for n in nodeids}
    return sorted(k for k in SECONDS if k not in seen)
