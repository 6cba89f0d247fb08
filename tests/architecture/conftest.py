"""The architecture room's fixtures."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module", autouse=True)
def trees_out_of_the_collector() -> Iterator[None]:
    """The syntax trees a module parsed (tests/architecture/sources.py keeps every one to
    the end of the test process: some 700,000 objects for core/, tui/ and tests/) are
    moved out of the cyclic collector's walks once the module is done, as
    tests/conftest.py does with what collection made. Kept in its walks, they made every
    full collection after them cost a quarter of a second more, and the memory tests
    collect before and after each count: those that ran after the trees on the same
    worker took several times their CPU. Garbage is collected first, so nothing that
    could be freed is kept."""
    yield
    gc.collect()
    gc.freeze()
