"""The counter a rearmed unit becomes (A20.551) when the nationality table has none:
the refusal asks for it in the unit's own size and nationality, never with another
side's squad print as the example (an American HS rearmed "as 4-3-6", the German
Conscript squad, was accepted from that example)."""

from __future__ import annotations

from stockade.core.model import events as ev
from tests.rules.kit import DE, US, add, new_game, ok, phase, refused


def test_a20_551_the_missing_rearm_counter_is_asked_in_the_units_size_and_nationality():
    game = new_game()
    add(game, "a2", US, "hs", "3-3-6", loc="X1")
    add(game, "g4", DE, "squad", "4-6-7", loc="X1")
    phase(game, "CCPh", attacker=DE)
    ok(game, ev.Captured(guard="g4", units=["a2"]))
    phase(game, "PFPh", attacker=US, turn=2)
    ok(game, ev.Eliminated(handle="g4", cause="fire-enemy"))
    refusal = refused(game, ev.Rearmed(handle="a2", how="alone", enemy="g4"), "A20.551")
    hint = refusal.hint
    assert "4-3-6" not in hint  # the German Conscript squad is no American HS
    assert "American Green/Conscript HS" in hint and "a2" in hint
    assert "as COUNTER" in hint
