"""The panels, the status line's hints and the pickers judge an entry as the command
does: with the board facts it would imply (``core.rules.implying.trial``). A strict
game implies none, and they judge the book as it stands."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.commands import execute, run_script
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.reads import queries
from stockade.core.reads.may import MayEscape, may_now
from stockade.core.reads.views import side_panel

# The demo game (sample_games/demo.stockade), to the German CCPh it stops at: g2's
# Guard a1 is not broken in the book; g3's Guard a3 is.
DEMO = [
    "add American 7-4-7 as a1 at Q5",
    "add American 7-4-7 as a2 at R6",
    "add American 3-4-7 hs as a3 at S4",
    "add German 4-6-7 as g1 at P7",
    "add German 4-6-7 as g2 at Q6",
    "add German 2-4-7 hs as g3 at S5",
    "phase PFPh 1 American",
    "break g2 g3",
    "phase RtPh 1 American",
    "surrender g2 to a1",
    "surrender g3 to a3",
    "phase PFPh 1 German",
    "break a3",
    "phase CCPh 1 German",
]


def demo(strict: bool = False) -> Game:
    game = Game.in_memory(
        "demo",
        [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)],
        strict=strict,
    )
    run_script(game, DEMO)
    return game


def accepted(game: Game, line: str) -> bool:
    """Whether the command records ``line`` (it does, if it may: ask last)."""
    try:
        execute(game, line)
    except Refusal:
        return False
    return True


def escape_view(game: Game, handle: str) -> tuple[bool, str]:
    e = next(e for e in side_panel(game.state, "German").escape if e.unit.handle == handle)
    return e.allowed, e.why


@pytest.mark.parametrize("strict", [False, True], ids=["implied", "strict"])
def test_the_panel_says_of_an_escape_what_the_command_does(strict: bool) -> None:
    game = demo(strict)
    allowed, why = escape_view(game, "g2")
    assert allowed == accepted(game, "escape g2 melee") == (not strict)
    if strict:
        assert "is not broken" in why
    else:  # it says the fact the entry records with it
        assert "a1 broken" in why


@pytest.mark.parametrize("strict", [False, True], ids=["implied", "strict"])
def test_the_hints_offer_an_escape_the_command_would_accept(strict: bool) -> None:
    game = demo(strict)
    escaping = {u.handle for f in may_now(game.state) if isinstance(f, MayEscape) for u in f.units}
    assert ("g2" in escaping) == (not strict)
    assert "g3" in escaping


@pytest.mark.parametrize("strict", [False, True], ids=["implied", "strict"])
def test_the_escape_picker_agrees_with_the_command(strict: bool) -> None:
    game = demo(strict)
    g2 = next(c for c in queries.escapers(game.state) if c.handle == "g2")
    assert g2.legal == accepted(game, "escape g2 melee") == (not strict)


@pytest.mark.parametrize("strict", [False, True], ids=["implied", "strict"])
def test_a_good_order_unit_may_be_picked_to_surrender_when_the_entry_implies_it_broken(
    strict: bool,
) -> None:
    game = demo(strict)
    run_script(game, ["phase RtPh 1 German"])  # a2 is in Good Order in the book
    a2 = next(c for c in queries.surrendering_units(game.state, "g1") if c.handle == "a2")
    assert a2.legal == accepted(game, "surrender a2 to g1") == (not strict)


# Each picker beside the command it offers for: (the lines before, the query, the
# handle asked about, the command). In a game that is not strict the pick is legal
# exactly when the command is accepted, the board facts it implies included.
UNITS = [
    "add German 4-6-7 as g1 at Q4",
    "add German 4-6-7 as g2 at Q4 broken",
    "add German 4-6-7 as g3 at R9",
    "add American 6-6-6 as a1 at Q4",
    "add American 6-6-6 as a2 at Q4",
    "add American 6-6-6 as a3 at T1",
    "add American 6-6-6 as a4 at Q4 broken",
]
HELD = ["phase RtPh 1 American", "surrender g2 to a1"]
PICKS = [
    pytest.param(
        ["phase CCPh 1 American"],
        lambda s: queries.capture_defenders(s, "a1"),
        "g3",
        "capture g3 by a1",
        id="capture-elsewhere",
    ),
    pytest.param(
        [*HELD, "phase APh 1 American"],
        lambda s: queries.transfer_guards(s, ["g2"]),
        "a3",
        "transfer g2 to a3",
        id="transfer-elsewhere",
    ),
    pytest.param(
        [*HELD, "phase APh 1 American"],
        lambda s: queries.transfer_guards(s, ["g2"]),
        "a4",
        "transfer g2 to a4",
        id="transfer-broken",
    ),
    pytest.param(
        HELD,
        lambda s: queries.takeover_guards(s, "a1"),
        "a4",
        "eliminate a1 takeover a4",
        id="takeover-broken",
    ),
    pytest.param(
        ["phase CCPh 1 American"],
        lambda s: queries.capture_attackers(s),
        "a3",
        "capture g3 by a3",
        id="attacker-elsewhere",
    ),
]


@pytest.mark.parametrize(("before", "query", "handle", "line"), PICKS)
@pytest.mark.parametrize("strict", [False, True], ids=["implied", "strict"])
def test_a_pick_is_legal_when_the_command_is_accepted(strict, before, query, handle, line):
    game = Game.in_memory(
        "picks",
        [ev.SideSpec("German", "German", 3), ev.SideSpec("American", "American", 4)],
        strict=strict,
    )
    run_script(game, UNITS + before)
    choice = next(c for c in query(game.state) if c.handle == handle)
    assert choice.legal == accepted(game, line) == (not strict), choice.why
    assert bool(choice.implies) == (not strict)


def test_a_trial_leaves_the_game_as_it_was() -> None:
    """The judge folds the implied facts into a copy of the units they set: the live
    units are not changed, nor tied to another tracker."""
    game = demo()
    before = {h: dict(u.__dict__) for h, u in game.state.units.items()}
    tracker = game.state.tracker
    assert escape_view(game, "g2")[0]
    assert queries.capture_attackers(game.state)
    assert {h: dict(u.__dict__) for h, u in game.state.units.items()} == before
    assert all(u._tracker is tracker for u in game.state.units.values())


def test_a_picker_copies_no_whole_game_per_candidate(monkeypatch) -> None:
    """Each attacker the capture list asks of is judged in a copy of the units its
    implied facts set, never a copy of every unit (a long campaign took seconds)."""
    from stockade.core.model.state import GameState

    game = demo()
    copies: list[GameState] = []
    whole = GameState.clone

    def counted(self: GameState) -> GameState:
        copies.append(self)
        return whole(self)

    monkeypatch.setattr(GameState, "clone", counted)
    picks = queries.capture_attackers(game.state)
    assert any(p.legal for p in picks)
    assert copies == []


def test_an_implied_fact_is_said_as_what_this_entry_will_record() -> None:
    """ "(the entry records a1 broken)" read as if a1 were broken already: the panel,
    the status line's hint and the picker say the entry will record it, in one
    wording."""
    from stockade.core.reads.may import sentence

    game = demo()
    _allowed, why = escape_view(game, "g2")
    hint = next(
        sentence(f, game.state)
        for f in may_now(game.state)
        if isinstance(f, MayEscape) and "g2" in {u.handle for u in f.units}
    )
    g2 = next(c for c in queries.escapers(game.state) if c.handle == "g2")
    for said in (why, hint, g2.note):
        assert "also marks a1 broken" in said, said
        assert "the entry records" not in said and "this entry" not in said
    # what is recorded is named: the escape (the panel's "escape, and recording it")
    assert "recording the escape also marks a1 broken" in hint, hint


def test_the_panel_says_first_that_the_escape_records_a_good_order_guard_broken() -> None:
    """A20.55: outside Melee prisoners attack only a broken Guard. g2's Guard a1 is in
    Good Order in the book: the panel's tick is for the entry, which records the break,
    so it says so first (a line cut at 80x24 still shows it) and never calls a1 "its
    broken Guard"; g3's Guard a3 is broken and reads as before."""
    game = demo()
    allowed, why = escape_view(game, "g2")
    assert allowed
    assert why.startswith("escape, and recording it also marks a1 broken (A20.55: "), why
    assert "broken Guard in CC" not in why and why.endswith("attack a1 in CC")
    allowed, why = escape_view(game, "g3")
    assert allowed
    assert why == "must pass a NTC first, then attack its broken Guard in CC (A20.55)"


def test_a_broken_stack_picked_before_the_rtph_is_judged_as_the_stack_it_is_there() -> None:
    """Example 17's start: a broken 4-6-7 and 8-1 share T5. Picked in the RPh, the clock
    follows the surrender to the RtPh, where the two surrender as one stack (A20.21):
    each is offered with its stack-mate, as the command ``surrender g1 g2 to a1``
    records it, not refused for leaving the other out."""
    game = Game.in_memory(
        "ex17",
        [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)],
    )
    run_script(game, ["add American 3-4-7 hs at T4", "add German 4-6-7 8-1 at T5 broken"])
    assert game.state.phase == "RPh"
    picks = {c.handle: c for c in queries.surrendering_units(game.state, "a1")}
    assert picks["g1"].legal and picks["g2"].legal, (picks["g1"].reason, picks["g2"].reason)
    assert accepted(game, "surrender g1 g2 to a1")
