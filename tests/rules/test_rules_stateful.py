"""The book holds under random play: the rules' state machine (tests/rules/machine.py)
plays random games and checks its invariants at every step."""

from __future__ import annotations

from collections import Counter

from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from tests.rules.machine import PLAY, PrisonerBook


def test_the_book_holds_under_random_play():
    """The invariants hold whatever is played. A refused event proves nothing about
    them, so the run counts what the rules accepted: if they started refusing what a
    game plays, this fails."""
    books: list[PrisonerBook] = []

    def book() -> PrisonerBook:
        books.append(PrisonerBook())
        return books[-1]

    # The same games every run: what the rules accepted is counted below, and free
    # draws leave that count's tail (5 kinds of event where 8-10 are usual) to chance.
    run_state_machine_as_test(book, settings=settings(PLAY, derandomize=True))
    accepted = sum((b.accepted for b in books), Counter())
    refused = sum((b.refused for b in books), Counter())
    del accepted["PhaseSet"], refused["PhaseSet"]  # the steering, not the play
    assert accepted.total() > (accepted.total() + refused.total()) / 4, (accepted, refused)
    assert len(+accepted) >= 6, (accepted, refused)  # many kinds of event, not one
