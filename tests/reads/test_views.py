"""The side panels and phase hints: what each side sees, always in words."""

from __future__ import annotations

from stockade.core.book.game import Game
from stockade.core.book.tally import tally
from stockade.core.model import events as ev
from stockade.core.reads.may import phase_hints
from stockade.core.reads.views import side_panel, unit_label

US, DE = "US", "DE"


def new_game(us: str = "American", de: str = "German", strict: bool = False) -> Game:
    return Game.in_memory("Views", [ev.SideSpec(US, us, 3), ev.SideSpec(DE, de, 3)], strict=strict)


def add(
    game: Game, handle: str, side: str, kind: str, counter: str, location: str = "Q4", **kw
) -> None:
    game.submit(
        [
            ev.UnitEntered(
                handle=handle, side=side, unit_kind=kind, counter=counter, location=location, **kw
            )
        ]
    )


def phase(game: Game, name: ev.Phase, attacker: str = US, turn: int = 1) -> None:
    game.submit([ev.PhaseSet(turn=turn, attacker=attacker, phase=name)])


def surrender(game: Game, units: list[str], guard: str, captor: str = US, **kw) -> None:
    phase(game, "RtPh", captor)
    game.submit([ev.Surrendered(units=units, guard=guard, **kw)])


def prisoners_game(de: str = "German", strict: bool = False) -> Game:
    """US HS a1 in Q4 guards a German crew (g1); a US squad a2 stands in Q4 too.
    ``strict``: no entry implies a board fact (an escape, a1 broken)."""
    game = new_game(de=de, strict=strict)
    add(game, "a1", US, "hs", "3-4-7")
    add(game, "a2", US, "squad", "6-6-6")
    add(game, "g1", DE, "crew", "2-2-8", "Q5", broken=True)
    surrender(game, ["g1"], "a1")
    return game


# ------------------------------------------------------------------ unit labels
def test_unit_label_says_what_a_prisoner_stands_for_and_its_status_in_words():
    game = prisoners_game()
    game.submit([ev.StatusChanged(handle="a1", pinned=True, melee=True)])
    state = game.state
    assert (
        unit_label(state.units["g1"])
        == "g1: HS (1)-0-6 [was 2-2-8 crew], prisoner of a1 in Q4 (Melee)"
    )
    assert unit_label(state.units["a1"]) == "a1: HS 3-4-7 in Q4 (pinned, Melee)"


def test_unit_label_of_an_smc_prisoner_and_an_unarmed_unit():
    game = new_game()
    add(game, "a1", US, "leader", "9-1")  # a lone leader guards US# 5 (A20.51)
    add(game, "g1", DE, "leader", "9-2", "Q5", broken=True)
    add(game, "g2", DE, "squad", "4-6-7", "Q5", broken=True)
    add(game, "g3", DE, "squad", "4-6-7", "Q5", broken=True)
    surrender(game, ["g1", "g2", "g3"], "a1", freed=["g3"])
    assert (
        unit_label(game.state.units["g1"])
        == "g1: leader 9-2, prisoner of a1 (counter set aside) in Q4"
    )
    assert (
        unit_label(game.state.units["g3"])
        == "g3: squad (1)-0-6 [was 4-6-7 squad] in Q5 (unarmed, freed)"
    )


# ------------------------------------------------------------------ side panel
def test_guard_view_usage_capacity_and_a20_52_limits():
    game = prisoners_game()
    add(game, "g2", DE, "squad", "4-6-7", "Q5", broken=True)
    game.submit([ev.Surrendered(units=["g2"], guard="a2")])
    panel = side_panel(game.state, US)
    by_guard = {g.unit.handle: g for g in panel.guards}
    hs, squad = by_guard["a1"], by_guard["a2"]
    assert (hs.used, hs.capacity, hs.usage) == (2, 10, "US# 2/10")
    assert [p.counter for p in hs.prisoners] == ["(1)-0-6 [was 2-2-8 crew]"]
    # HS guard (US# 2) with US# 2 of prisoners: not more than its own, only the CC limit
    assert hs.limits == ["CC vs non-prisoners at half FP (A20.52)"]
    assert (squad.used, squad.capacity) == (3, 15)
    add(game, "g3", DE, "hs", "2-4-7", "Q5", broken=True)
    game.submit([ev.Surrendered(units=["g3"], guard="a1")])
    hs = next(g for g in side_panel(game.state, US).guards if g.unit.handle == "a1")
    assert hs.used == 4
    assert (
        "may attack only its prisoners except in CC; no SW, Interdiction or Kindle (A20.52)"
    ) in hs.limits


def test_berserk_guard_must_massacre_and_status_is_in_words():
    game = prisoners_game()
    game.submit([ev.StatusChanged(handle="a1", berserk=True, broken=False)])
    [view] = [g for g in side_panel(game.state, US).guards if g.unit.handle == "a1"]
    assert "berserk" in view.status
    # the clock stands in the US RtPh: US fires next in the DE Player Turn's DFPh
    assert (game.state.attacker, game.state.phase) == ("US", "RtPh")
    assert "must Massacre them at the start of the DE DFPh (A20.4)" in view.limits


def test_prisoners_held_by_enemy_and_escape_column():
    game = prisoners_game(strict=True)
    panel = side_panel(game.state, DE)
    [held] = panel.prisoners_held_by_enemy
    assert held.prisoner.unit.handle == "g1" and held.guard.startswith("a1: HS 3-4-7")
    [esc] = panel.escape
    assert not esc.allowed and "only in the CCPh" in esc.why
    phase(game, "CCPh", DE)
    [esc] = side_panel(game.state, DE).escape
    assert not esc.allowed and "not broken" in esc.why
    game.submit([ev.StatusChanged(handle="a1", broken=True)])
    [esc] = side_panel(game.state, DE).escape
    assert esc.allowed and esc.needs_ntc and "NTC" in esc.why
    game.submit([ev.StatusChanged(handle="a1", broken=False, melee=True)])
    [esc] = side_panel(game.state, DE).escape
    assert esc.allowed and not esc.needs_ntc and "Melee" in esc.why


def test_nationalities_that_do_not_escape_say_why():
    game = prisoners_game(de="Italian")
    phase(game, "CCPh", DE)
    [esc] = side_panel(game.state, DE).escape
    assert not esc.allowed and "Italian prisoners will not attempt escape" in esc.why
    game = prisoners_game(de="Hungarian")
    [esc] = side_panel(game.state, DE).escape
    assert "own national borders vs Russians" in esc.why


def test_unarmed_units_abandoned_keep_massacre_protection_escaped_do_not():
    game = prisoners_game()
    add(game, "g2", DE, "squad", "4-6-7", "Q5", broken=True)
    game.submit([ev.Surrendered(units=["g2"], guard="a2")])
    phase(game, "APh", US)
    game.submit([ev.Abandoned(units=["g1"])])
    game.submit([ev.StatusChanged(handle="a2", melee=True)])
    phase(game, "CCPh", DE)
    game.submit([ev.EscapedBy(units=["g2"], route="withdrawal")])
    panel = side_panel(game.state, DE)
    views = {u.unit.handle: u for u in panel.unarmed}
    assert views["g1"].how == "abandoned" and "Massacre (A20.53" in views["g1"].protection
    assert views["g2"].how == "escaped" and views["g2"].protection == ""
    assert "(unarmed, abandoned)" in views["g1"].label
    assert panel.escape == []  # no longer prisoners


def test_rearm_column_scrounge_in_own_mph_only_once_per_hex():
    game = prisoners_game()
    phase(game, "APh", US)
    game.submit([ev.Abandoned(units=["g1"])])
    [view] = side_panel(game.state, DE).rearm
    assert view.now == [] and any("end of its own MPh" in w for w in view.later)
    phase(game, "MPh", DE, 2)
    [view] = side_panel(game.state, DE).rearm
    assert any(w.startswith("scrounge at the end of this MPh") for w in view.now)
    game.submit([ev.Scrounged(handle="g1", roll=7)])
    [view] = side_panel(game.state, DE).rearm
    assert not any("scrounge" in w for w in view.now)
    assert any("already had its Scrounging DR" in w for w in view.later)


def test_rearm_column_names_a_surrendered_enemy_in_its_location():
    game = new_game()
    add(game, "a1", US, "squad", "6-6-6", "Q4")
    add(game, "g9", DE, "squad", "4-6-7", "Q4")
    # A US HS surrenders to g9, which abandons it in Q4 ...
    add(game, "a3", US, "hs", "3-4-7", "Q5", broken=True)
    surrender(game, ["a3"], "g9", captor=DE)
    phase(game, "APh", DE)
    game.submit([ev.Abandoned(units=["a3"])])
    # ... then a German HS in Q4 surrenders to a1: a3 may rearm from it (A20.551).
    add(game, "g2", DE, "hs", "2-4-7", "Q4", broken=True)
    phase(game, "RtPh", US, 2)
    game.submit([ev.Surrendered(units=["g2"], guard="a1")])
    [view] = side_panel(game.state, US).rearm
    assert view.unit.handle == "a3"
    assert any(w.startswith("rearm from g2") and "surrendered" in w for w in view.now)


def test_flags_cvp_eliminated_and_escorted():
    game = Game.in_memory("F", [ev.SideSpec("RU", "Russian", 5), ev.SideSpec(DE, "German", 3)])
    add(game, "r1", "RU", "squad", "4-4-7")
    add(game, "r2", "RU", "squad", "4-4-7")
    add(game, "g1", DE, "squad", "4-6-7", "Q5", broken=True)
    add(game, "g2", DE, "hs", "2-4-7", "Q5", broken=True)
    add(game, "g3", DE, "squad", "4-6-7", "Q5")
    phase(game, "RtPh", "RU")
    game.submit([ev.Surrendered(units=["g1"], guard="r1", others_why="g2 is a stack apart")])
    game.submit([ev.Surrendered(units=["g2"], guard="r2")])
    phase(game, "PFPh", "RU", 2)
    game.submit([ev.Massacred(units=["g1"], by="r1")])
    game.submit([ev.Eliminated(handle="g3", cause="fire-enemy", by_side="RU")])
    phase(game, "APh", "RU", 2)
    game.submit([ev.EscortedOff(guard="r2")])
    ru, de = side_panel(game.state, "RU"), side_panel(game.state, DE)
    assert ru.massacred and ru.no_quarter and "Massacre committed (A20.4)" in ru.flags
    assert de.elr == 4 and de.elr_raised and de.flags[0].startswith("ELR 4 (raised")
    assert [label.split(":")[0] for label in de.eliminated] == ["g1", "g3"]
    assert [label.split(":")[0] for label in de.escorted] == ["g2"]
    assert [label.split(":")[0] for label in ru.escorted] == ["r2"]
    t = tally(game.state).sides["RU"]
    assert (ru.cvp, ru.cvp_if_ended) == (t.cvp, t.cvp_if_ended) == (2 + 2 + 2, 6)


# ------------------------------------------------------------------ phase hints
def test_rph_aph_hints_name_who_may_transfer_or_abandon():
    game = prisoners_game()
    phase(game, "APh", US)
    hint, escort = phase_hints(game.state)
    assert hint == "Guard a1 may transfer (to a2) or abandon g1 this APh (A20.5)"
    assert escort.startswith("a1 may escort prisoners off") and "A20.53" in escort
    game.submit([ev.StatusChanged(handle="a2", pinned=True)])
    assert phase_hints(game.state)[0] == "Guard a1 may transfer or abandon g1 this APh (A20.5)"
    game.submit([ev.StatusChanged(handle="a2", pinned=False)])
    phase(game, "RPh", DE, 2)
    assert phase_hints(game.state) == []  # not a friendly RPh for the US Guard
    phase(game, "RPh", US, 2)
    game.submit([ev.StatusChanged(handle="a1", melee=True)])
    assert phase_hints(game.state) == [
        "a1's prisoners are in Melee with it: no transfer or abandonment (A20.5)"
    ]


def test_ccph_hints_name_prisoners_who_may_escape():
    game = prisoners_game(strict=True)
    phase(game, "CCPh", DE)
    assert phase_hints(game.state) == []
    game.submit([ev.StatusChanged(handle="a1", broken=True)])
    assert phase_hints(game.state) == [
        "g1 (DE) may attempt escape vs its Guard a1 after passing a NTC (A20.55)"
    ]


def test_rtph_hints_who_may_surrender_and_who_never_does():
    game = new_game(de="Japanese")
    add(game, "a1", US, "squad", "6-6-6")
    add(game, "j1", DE, "squad", "4-4-7", "Q5", broken=True)
    add(game, "a2", US, "hs", "3-4-7", "Q6", broken=True)
    add(game, "j2", DE, "squad", "4-4-7", "Q6")
    phase(game, "RtPh", US)
    hints = phase_hints(game.state)
    assert any(
        h.startswith("j1 (DE) never surrenders via the RtPh") and "Japanese" in h for h in hints
    )
    assert any(
        h.startswith("a2 (US) surrenders if ADJACENT") and "(j2)" in h and "A20.21" in h
        for h in hints
    )


def test_fire_phase_hints_who_may_massacre():
    game = Game.in_memory("M", [ev.SideSpec("RU", "Russian"), ev.SideSpec(US, "American")])
    add(game, "r1", "RU", "squad", "4-4-7")
    add(game, "u1", US, "squad", "6-6-6", "Q5", broken=True)
    phase(game, "RtPh", "RU")
    game.submit([ev.Surrendered(units=["u1"], guard="r1")])
    phase(game, "PFPh", "RU", 2)
    [hint] = phase_hints(game.state)
    assert hint.startswith("r1 may Massacre u1") and "A20.4" in hint
    phase(game, "DFPh", US, 2)  # r1 is now the DEFENDER: DFPh is its fire phase
    assert phase_hints(game.state)[0].startswith("r1 may Massacre u1")
    phase(game, "DFPh", "RU", 2)  # the Americans fire; they may not Massacre
    assert phase_hints(game.state) == []


def test_mph_hints_scrounge_recapture_and_escort_then_game_end():
    game = prisoners_game()
    phase(game, "APh", US)
    game.submit([ev.Abandoned(units=["g1"])])
    phase(game, "MPh", DE, 2)
    hints = phase_hints(game.state)
    assert any(h.startswith("g1 may scrounge") for h in hints)
    game.submit([ev.Scrounged(handle="g1", roll=7)])  # the hex's one DR this MPh
    assert not any("scrounge" in h for h in phase_hints(game.state))
    phase(game, "MPh", US, 3)
    hints = phase_hints(game.state)
    assert any("recapture them" in h and "g1" in h for h in hints)
    game.submit([ev.GameEnded()])
    assert phase_hints(game.state) == [
        "the game has ended: prisoners still guarded count double (A20.1)"
    ]


def test_units_sharing_a_hint_are_named_together_in_one_line():
    """At 80x24 the status line has three lines: one line per hint, not per unit."""
    game = new_game()
    add(game, "a1", US, "squad", "6-6-6")
    for handle in ("g4", "g5", "g6"):
        add(game, handle, DE, "squad", "4-6-7", "Q5", broken=True)
    phase(game, "RtPh", US)
    assert phase_hints(game.state) == [
        "g4, g5, g6 (DE) surrender if ADJACENT to a Known, Good Order, armed enemy (a1) "
        "and unable to rout without Interdiction/Low Crawl (A20.21)"
    ]
    game.submit([ev.Surrendered(units=["g4", "g5"], guard="a1", others_why="g6 can rout")])
    assert phase_hints(game.state)[0].startswith("g6 (DE) surrenders if ADJACENT")
    phase(game, "CCPh", DE)
    game.submit([ev.StatusChanged(handle="a1", broken=True)])
    assert phase_hints(game.state) == [
        "g4, g5 (DE) may attempt escape vs their Guard a1 after passing a NTC (A20.55)"
    ]


def test_side_panels_gives_what_side_panel_gives_for_each_side():
    game = prisoners_game()
    phase(game, "APh", US)
    game.submit([ev.Abandoned(units=["g1"])])
    from stockade.core.reads.views import side_panels

    both = side_panels(game.state)
    assert list(both) == [US, DE]
    assert both[US] == side_panel(game.state, US) and both[DE] == side_panel(game.state, DE)


def test_after_an_escape_that_kills_the_guard_the_hint_names_the_rearm():
    """The escaped 4-6-7 killed its Guard in CC: it may rearm from it at once (A20.551),
    which the status line said nothing of ("nothing A20 asks for now")."""
    from stockade.core.commands import execute

    game = Game.in_memory("R", [ev.SideSpec("b", "British", 3), ev.SideSpec("g", "German", 3)])
    for line in [
        "add b 4-5-8 at R6",
        "add g 4-6-7 2-4-7 hs at R5",
        "phase APh 1 b",
        "move b1 R5",
        "capture g1 g2 by b1",
        "phase PFPh 2 g",
        "break b1",
    ]:
        execute(game, line)
    assert not any("rearm" in h for h in phase_hints(game.state))
    execute(game, "escape g1 g2 ntcfail g2 guard-dies")
    assert game.state.phase == "CCPh"
    assert "g1 may rearm at once from b1 (lost in CC there; A20.551)" in phase_hints(game.state)
    execute(game, "rearm g1 cc b1")  # the core accepts what the hint offers
    assert not any("rearm" in h for h in phase_hints(game.state))


def test_a_guard_in_melee_is_not_hinted_an_escort_its_entry_would_refuse():
    """The escort hint comes from the escort's own check (A20.53: not in Melee)."""
    game = prisoners_game()
    phase(game, "MPh", US, 2)
    assert any(h.startswith("a1 may escort") for h in phase_hints(game.state))
    game.submit([ev.StatusChanged(handle="a1", melee=True)])
    assert not any("escort" in h for h in phase_hints(game.state))
