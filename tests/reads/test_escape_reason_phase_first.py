"""The escape picker's reason for a prisoner that may not attempt escape: out of the
CCPh the phase comes first (A20.55: the attack can only occur in the CCPh), and a
choice of board facts is said as the facts to record, short enough for one picker
line pair at 80 columns."""

from __future__ import annotations

from stockade.core.reads.queries import escapers
from tests.rules.kit import DE, add, phase, with_prisoners


def _guard_breakable_or_in_melee():
    game = with_prisoners()  # a1 guards g1 in Q4
    add(game, "g2", DE, "squad", "4-6-7", "Q4")  # an armed German there: a Melee fits
    return game


def test_out_of_the_ccph_the_phase_is_the_first_reason_and_it_fits_two_lines():
    game = _guard_breakable_or_in_melee()
    phase(game, "DFPh", attacker=DE)
    [choice] = escapers(game.state)
    assert not choice.legal and choice.rule == "A20.55"
    assert choice.reason.startswith("escape is in the CCPh only (now the DFPh)")
    assert "a1 broken or a1 in Melee with g2" in choice.reason
    assert len(f"✗ {choice.rule}: {choice.reason}") <= 2 * 76


def test_in_the_ccph_the_facts_to_record_are_the_reason():
    game = _guard_breakable_or_in_melee()
    phase(game, "CCPh", attacker=DE)
    [choice] = escapers(game.state)
    assert choice.reason.startswith("needs a1 broken or a1 in Melee with g2: record which")
