"""The side panel's Rearm section says why an unarmed unit may not rearm from an enemy
lost in its Location, in ``rearm_refusal``'s words (A20.551)."""

from __future__ import annotations

import pytest

from stockade.core.commands import execute
from stockade.core.model.errors import Refusal
from stockade.core.reads.views import side_panel
from tests.reads.kit import escape_kills_a_hs_guard


def test_a_squad_not_rearmed_by_a_hs_says_why_in_the_rearm_refusals_words():
    game = escape_kills_a_hs_guard()
    views = {r.unit.handle: r for r in side_panel(game.state, "g").rearm}
    # the HS may rearm from the HS it killed; the squad may not (A20.551 size)
    assert views["g2"].now and not views["g2"].why_not
    squad = views["g1"]
    assert not squad.now
    with pytest.raises(Refusal) as refused:
        execute(game, "rearm g1 cc b1")
    assert refused.value.rule == "A20.551" and "equal or" in refused.value.text
    assert [str(why) for why in squad.why_not] == [
        f"not from b1 (2-4-8): {refused.value.text} (A20.551)"
    ]
