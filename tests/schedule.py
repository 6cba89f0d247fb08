"""The order the test run hands tests to its workers: the longest first.

Under ``-n auto --dist loadgroup`` a worker that falls free takes the next test in
collection order (after the ``xdist_group`` groups, which xdist hands out first, largest
first). A test of many seconds collected late then runs alone at the end while the other
cores idle. So tests/conftest.py moves the tests named here to the front of the
collection, heaviest first; every other test keeps its place. Only the order changes:
no test is added, dropped or altered.

``WEIGHTS`` holds, by module, what ``pytest --durations`` measured for each (``-n 0``; only their
order matters, so the figures need not be of a quiet machine). A test is named
without its parameters (every case of a parametrized test weighs the same). A name that
is no collected test is reported by the full run (:func:`stale`), so a renamed test
does not quietly fall to the back again.
"""

from __future__ import annotations

from collections.abc import Iterable

WEIGHTS: dict[str, dict[str, float]] = {
    "tests/log/test_portable_lock.py": {
        "test_journal_suites_pass_with_fcntl_hidden": 4.0,
    },
    "tests/log/test_repair_salvage.py": {
        "test_a_flipped_byte_anywhere_in_one_line_costs_at_most_that_line": 3.0,
        "test_bad_lines_at_the_end_leave_no_stand_ins_and_millions_cost_little": 2.0,
    },
    "tests/log/test_durability_crash.py": {
        "test_sigkill_never_loses_an_accepted_record": 3.0,
    },
    "tests/log/test_core_fast_open.py": {
        "test_a_line_reads_as_the_strict_decoder_reads_it": 2.5,
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
