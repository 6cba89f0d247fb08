"""The app asks the core's questions: for each rule of round 4 (A20.221 capture back,
A20.551 rearming by size, A20.55 one escape attempt per CCPh, A20.51 naming its rule),
the side panels and phase hints (core.reads.views), the forms' pickers with their greyed
choices (core.reads.queries, through the grammar's slots) and the command bar's
completion (core.commands.complete) say what the rule check says."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import complete, execute, verb_named
from stockade.core.model import events as ev
from stockade.core.model.errors import RuleRefusal
from stockade.core.reads import queries
from stockade.core.reads.may import phase_hints
from stockade.core.reads.views import side_panel


def game_with(*lines: str) -> Game:
    game = Game.in_memory(
        "test", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    for line in lines:
        execute(game, line)
    return game


def by_handle(choices):
    return {c.handle: c for c in choices}


def picker(verb: str, slot: str, game: Game, **values: object):
    """The choices a form's slot offers, as the form asks for them."""
    spec = verb_named(verb)
    assert spec is not None
    (found,) = [s for s in spec.slots if s.name == slot]
    return by_handle(found.offers()(game.state, values))


# --------------------------------------------------------------- A20.221
def _captured_this_ccph() -> Game:
    return game_with(
        "add American 7-4-7 as a1 at X5",
        "add German 4-6-7 as g1 at X5",
        "phase CCPh 1 American",
        "capture g1 by a1",
    )


def test_a20_221_a_unit_captured_this_ccph_is_offered_to_capture_back():
    game = _captured_this_ccph()
    attackers = picker("capture", "by", game)
    assert attackers["g1"].legal, attackers["g1"].why
    assert queries.capture_defenders(game.state, "g1")[0].handle == "a1"
    assert queries.capture_defenders(game.state, "g1")[0].legal
    assert any("capture a1 by g1 (A20.221)" in h for h in phase_hints(game.state))
    assert complete("capture a1 by ", game.state)[0] == "g1"
    # the next CCPh it is a prisoner like any other: offered nowhere
    execute(game, "phase CCPh 1 German")
    assert (
        "g1" not in picker("capture", "by", game) or not picker("capture", "by", game)["g1"].legal
    )
    assert not any("A20.221" in h for h in phase_hints(game.state))


# --------------------------------------------------------------- A20.551
def _squad_and_hs_beside_their_dead_hs_guard() -> Game:
    return game_with(
        "add American 3-4-7 hs as a1 at T4",
        "add German 4-6-7 as g1 at T5 broken",
        "add German 2-4-7 hs as g2 at T5 broken",
        "phase RtPh 1 American",
        "surrender g1 g2 to a1",
        "phase PFPh 1 German",
        "break a1",
        "phase CCPh 1 German",
        "escape g1 g2 guard-dies",
    )


def test_a20_551_only_the_hs_is_offered_a_rearm_from_the_hs_guard():
    game = _squad_and_hs_beside_their_dead_hs_guard()
    units = picker("rearm", "unit", game)
    assert units["g2"].legal
    assert not units["g1"].legal and units["g1"].rule == "A20.551"
    assert "equal or smaller size" in units["g1"].why
    enemies = by_handle(queries.rearm_enemies(game.state, "g1", "cc"))
    assert not enemies["a1"].legal and "equal or smaller size" in enemies["a1"].reason
    assert by_handle(queries.rearm_enemies(game.state, "g2", "cc"))["a1"].legal
    (view_g1,) = [r for r in side_panel(game.state, "German").rearm if r.unit.handle == "g1"]
    assert not any("rearm from a1" in line for line in view_g1.now)
    hints = phase_hints(game.state)
    assert any(h.startswith("g2 may rearm") for h in hints)
    assert not any(h.startswith("g1 may rearm") for h in hints)
    # completion ranks rearm's one-unit slot by its filter (unarmed units), for speed;
    # the line is judged on Enter, and the form's picker above greys g1


# ---------------------------------------------------------------- A20.55
def test_a20_55_a_prisoner_that_failed_its_ntc_is_offered_no_second_attempt():
    game = game_with(
        "add American 6-6-7 as a1 at Q4",
        "add German 4-6-7 as g1 at Q4 broken",
        "add German 4-6-7 as g2 at Q4 broken",
        "phase RtPh 1 American",
        "surrender g1 g2 to a1",
        "break a1",
        "phase CCPh 1 German",
        "escape g1 ntcfail g1",
    )
    offers = picker("escape", "units", game)
    assert not offers["g1"].legal and offers["g1"].rule == "A20.55"
    assert "already attempted escape in this CCPh" in offers["g1"].why
    assert offers["g2"].legal  # not in that attempt: it may make its own
    panel = {e.unit.handle: e for e in side_panel(game.state, "German").escape}
    assert not panel["g1"].allowed and "must pass a NTC" not in panel["g1"].why
    assert panel["g2"].allowed
    hints = [h for h in phase_hints(game.state) if "may attempt escape" in h]
    assert hints and all("g1" not in h.split("(")[0] for h in hints)
    assert complete("escape ", game.state)[0] == "g2"
    execute(game, "phase CCPh 2 American")  # a later CCPh: it may try again
    assert picker("escape", "units", game)["g1"].legal
    assert side_panel(game.state, "German").escape[0].allowed


# ---------------------------------------------------------------- A20.51
def test_a20_51_the_reply_to_an_exchange_under_two_guards_names_its_rule():
    game = game_with(
        "add American 6-6-7 as a1 at Q4",
        "add American 6-6-7 as a2 at Q4",
        "add German 2-4-7 hs as g1 at Q4 broken",
        "add German 2-4-7 hs as g2 at Q4 broken",
        "phase RtPh 1 American",
        'surrender g1 to a1 because "g2 surrenders to a2"',
        'surrender g2 to a2 because "g1 surrenders to a1"',
        "phase RPh 2 American",
    )
    with pytest.raises(RuleRefusal) as refusal:
        execute(game, "exchange g1 g2")
    assert refusal.value.rule == "A20.51" and str(refusal.value).startswith("A20.51: ")
