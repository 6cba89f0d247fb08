"""The command language: each verb parses to the right event; bad input is refused
with a clear message; completion offers the likely words first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stockade.core.book.describe import RULES, sentence
from stockade.core.book.game import Game
from stockade.core.commands import VERBS, complete, execute, parse, plan, run_script
from stockade.core.commands.execute import ScriptRefusal
from stockade.core.commands.handles import side_prefixes
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, Refusal

DOCS = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def new_game(first: str = "American", second: str = "German") -> Game:
    return Game.in_memory(
        "test",
        [
            ev.SideSpec(first, first if first != "Gurkhas" else "Gurkha", 4),
            ev.SideSpec(second, second if second != "Germans" else "German", 3),
        ],
    )


@pytest.fixture
def game() -> Game:
    """American 9-2 a1, 6-6-6 a2 in Q4; German 4-6-7 g1, 2-4-7 HS g2, 8-0 g3 broken in
    Q5; g1 a prisoner of a2 (RtPh); g4 a free unarmed 4-6-7 (abandoned in the APh)."""
    g = new_game()
    run_script(
        g,
        [
            "add American 9-2 6-6-6 at Q4",
            "add German 4-6-7 2-4-7 hs 8-0 at Q5 broken",
            "add German 4-6-7 at Q5 broken",
            "phase rtph",
            'surrender g1 to a2 because "g2 g3 g4 have a legal rout path"',
            'surrender g4 to a1 because "g2 g3 have a legal rout path"',
            "next",
            "abandon g4",
        ],
    )
    return g


def one_event(text: str, game: Game) -> ev.Record:
    """The event ``text`` plans to (after the clock move that leads it when it belongs
    to a later phase of this Player Turn, and the board facts it implies)."""
    parsed = plan(text, game.state)
    events = parsed.events[(1 if parsed.clock_moved else 0) + parsed.implied :]
    assert len(events) == 1, parsed.events
    return events[0]


# ------------------------------------------------------------------------- add
def test_add_gives_each_counter_the_next_handle_of_its_side(game):
    parsed = plan("add German 4-6-7 x2 9-1 at R2", game.state)
    assert [e.handle for e in parsed.events] == ["g5", "g6", "g7"]
    assert [e.unit_kind for e in parsed.events] == ["squad", "squad", "leader"]
    assert {e.location for e in parsed.events} == {"R2"}
    assert parsed.made == ["g5", "g6", "g7"]
    assert one_event("add american 6-6-6", game).handle == "a3"


def test_add_binds_kind_handle_traits_and_cvp_to_the_counter_before_them(game):
    parsed = plan("add German 2-4-7 hs as zz +fanatic cvp=5 9-2 +commissar broken", game.state)
    hs, leader = parsed.events
    assert (hs.handle, hs.unit_kind, hs.traits, hs.cvp, hs.broken) == (
        "zz",
        "hs",
        ["fanatic"],
        5,
        True,
    )
    assert (leader.handle, leader.unit_kind, leader.traits, leader.broken) == (
        "g5",
        "leader",
        ["commissar"],
        True,
    )


def test_add_message_names_the_new_handles(game):
    outcome = execute(game, "add German 4-6-7")
    assert "new handles: g5" in outcome.message
    assert game.state.units["g5"].counter == "4-6-7"


def test_side_prefix_grows_when_both_sides_start_with_the_same_letter():
    assert side_prefixes(["Germans", "Gurkhas"]) == {"Germans": "ge", "Gurkhas": "gu"}
    g = new_game("Gurkhas", "Germans")
    assert [e.handle for e in plan("add Germans 4-6-7 x2", g.state).events] == ["ge1", "ge2"]
    assert plan("add gur 4-5-8", g.state).events[0].handle == "gu1"


@pytest.mark.parametrize(
    "text, words",
    [
        ("add German 4-6-x", "not a counter as printed"),
        ("add American 2-4-7", "may be a squad, a HS"),
        ("add Martians 4-6-7", "no side 'Martians'"),
        ("add German", "at least one counter"),
        ("add German hs", "must follow the counter"),
        ("add German 4-6-7 as g1", "already in use"),
        ("add German 4-6-7 as to", "command word"),
        ("add German 4-6-7 as 4x", "reads like a counter"),
        ("add German 4-6-7 x2 as g9", "names one counter"),
        ("add German 4-6-7 +brave", "unknown trait"),
        ("add German 4-6-7 banana", "out of place"),
    ],
)
def test_add_refuses_what_it_cannot_read(game, text, words):
    with pytest.raises(Refusal) as caught:
        parse(text, game.state)
    assert words in str(caught.value)


def test_a_counter_that_does_not_parse_gets_the_counter_rules_own_refusal(game):
    with pytest.raises(Refusal) as caught:
        execute(game, "add German 4-6-x")
    assert isinstance(caught.value, InputRefusal) and caught.value.rule == ""
    assert "4-6-x" in caught.value.text
    assert "FP-range-morale" in caught.value.hint


# ----------------------------------------------------------------------- clock
def test_next_walks_the_phases_then_swaps_the_attacker_then_the_game_turn():
    g = new_game()
    seen = []
    for _ in range(17):
        execute(g, "next")
        seen.append((g.state.turn, g.state.attacker, g.state.phase))
    assert seen[0] == (1, "American", "PFPh")
    assert seen[6] == (1, "American", "CCPh")
    assert seen[7] == (1, "German", "RPh")  # second Player Turn: same Game Turn
    assert seen[15] == (2, "American", "RPh")  # first side again: Game Turn + 1
    execute(g, "prev")
    assert (g.state.turn, g.state.attacker, g.state.phase) == (2, "American", "RPh")
    execute(g, "prev")
    assert (g.state.turn, g.state.attacker, g.state.phase) == (1, "German", "CCPh")


def test_turn_and_phase(game):
    assert one_event("turn", game) == ev.PhaseSet(turn=1, attacker="German", phase="RPh")
    assert one_event("phase ccph 3 German", game) == ev.PhaseSet(
        turn=3, attacker="German", phase="CCPh"
    )
    assert one_event("phase rt", game).phase == "RtPh"
    with pytest.raises(Refusal, match="not a phase"):
        parse("phase lunch", game.state)


def test_prev_refuses_before_the_first_phase():
    with pytest.raises(Refusal, match="first phase"):
        plan("prev", new_game().state)


def test_phase_change_message_says_what_a20_allows(game):
    assert "transferred or abandoned" in execute(game, "phase aph").message


# ---------------------------------------------------------------------- status
@pytest.mark.parametrize(
    "text, field, value",
    [
        ("break a2", "broken", True),
        ("rally g3", "broken", False),
        ("break g3 off", "broken", False),
        ("pin a1", "pinned", True),
        ("unpin a1", "pinned", False),
        ("berserk a2", "berserk", True),
        ("disrupt g3", "disrupted", True),
        ("melee a2", "melee", True),
        ("melee a2 off", "melee", False),
        ("move a2 R5", "location", "R5"),
    ],
)
def test_status_verbs(game, text, field, value):
    event = one_event(text, game)
    assert isinstance(event, ev.StatusChanged)
    assert getattr(event, field) == value


def test_status_verbs_take_several_units(game):
    events = plan("break A1 a2", game.state).events
    assert [e.handle for e in events] == ["a1", "a2"]  # handles match any case


# ------------------------------------------------------------------- captures
def test_surrender_with_reason_free_and_merge(game):
    event = one_event("surrender g2 g3 to a1 hob free g3 merge g2+g1", game)
    assert event == ev.Surrendered(
        units=["g2", "g3"],
        guard="a1",
        reason="hob",
        freed=["g3"],
        merges=[ev.Merge(parts=["g2", "g1"], into="g5")],
    )


@pytest.mark.parametrize(
    "text, words",
    [
        ("surrender g2", "needs 'to'"),
        ("surrender g2 to a1 a2", "takes one value"),
        ("surrender g2 to a1 hob mopup", "one reason"),
        ("surrender g2 to a1 to a2", "given twice"),
        ("surrender g9 to a1", "no unit 'g9'"),
        ("surrender g2 to a1 merge g2", "not a merge"),
    ],
)
def test_surrender_refusals(game, text, words):
    with pytest.raises(Refusal) as caught:
        parse(text, game.state)
    assert words in str(caught.value)


def test_surrender_over_capacity_is_refused_by_a20_51_and_nothing_is_recorded(game):
    execute(game, "phase rtph")
    before = len(game.records)
    execute(game, "add German 4-6-7 4-6-7 at Q5 broken")
    with pytest.raises(Refusal) as caught:
        execute(game, "surrender g5 g6 to a1")
    assert caught.value.rule == "A20.51"
    assert len(game.records) == before + 2
    assert game.state.units["g5"].status == "active"


def test_reject(game):
    assert one_event("reject g2 g3 by amer", game) == ev.SurrenderRejected(
        units=["g2", "g3"], by_side="American"
    )


def test_capture_all_and_one_hs(game):
    assert one_event("capture g2 by a1", game) == ev.Captured(guard="a1", units=["g2"])
    parsed = plan("capture hs g5=2-4-7 by a1", _with_squad(game))
    assert parsed.events[1:] == [
        ev.Captured(guard="a1", split="g5", hs_captured="g6", hs_free="g7", hs_counter="2-4-7")
    ]
    assert parsed.made == ["g6", "g7"]
    with pytest.raises(Refusal, match="name the captured units"):
        parse("capture by a1", game.state)


def _with_squad(game):
    execute(game, "add German 4-6-7 at Q4")
    return game.state


def test_mutual_recapture(game):
    assert one_event("mutual g1 a2=5-4-6", game) == ev.MutualCapture(
        units=["g1", "a2"], counters={"a2": "5-4-6"}
    )
    assert one_event("recapture g4 by a1", game) == ev.Recaptured(units=["g4"], guard="a1")


# --------------------------------------------------------------------- guards
def test_transfer_exchange_split_abandon_escort(game):
    assert one_event("transfer g1 to a1", game) == ev.Transferred(units=["g1"], to_guard="a1")
    assert one_event("exchange g1 g4 as g9", game) == ev.Exchanged(parts=["g1", "g4"], into="g9")
    assert one_event("exchange g1 g4", game).into == "g5"
    assert one_event("split g1", game) == ev.PrisonerSplit(handle="g1", into=["g5", "g6"])
    assert one_event("split g1 as x1 x2", game).into == ["x1", "x2"]
    assert one_event("abandon g1", game) == ev.Abandoned(units=["g1"])
    assert one_event("escort a2", game) == ev.EscortedOff(guard="a2")
    with pytest.raises(Refusal, match="exactly two"):
        parse("exchange g1", game.state)


def test_deploy_counters_and_assignment(game):
    event = one_event("deploy a2 3-3-7 g1=2", game)
    assert event == ev.Deployed(
        handle="a2", into=["a3", "a4"], counters=["3-3-7", "3-3-7"], assign={"g1": "a4"}
    )
    assert one_event("deploy a2 as h1 h2 g1=h2", game).assign == {"g1": "h2"}
    with pytest.raises(Refusal, match="not one of the new HS"):
        parse("deploy a2 g1=3", game.state)


# --------------------------------------------------------------------- losses
@pytest.mark.parametrize(
    "text, cause, by_side",
    [
        ("eliminate g3", "other", ""),
        ("eliminate g1 by own", "fire-own", "German"),
        ("eliminate g1 by enemy", "fire-enemy", "American"),
        ("eliminate g4 by American", "fire-enemy", "American"),
        ("eliminate a1 by sniper takeover -", "sniper", "German"),
        ("kill g3 by cc", "cc", "American"),
    ],
)
def test_eliminate_causes(game, text, cause, by_side):
    if cause.startswith("fire"):  # the fixture stands in the APh, where no fire is made
        run_script(game, ["phase AFPh"])
    event = one_event(text, game)
    assert (event.cause, event.by_side) == (cause, by_side)


def test_eliminate_takeover_and_keep(game):
    event = one_event("eliminate a2 by sniper takeover a1 keep g1", game)
    assert (event.takeover, event.keep) == ("a1", ["g1"])
    with pytest.raises(Refusal, match="takeover G"):
        parse("eliminate a2 keep g1", game.state)


def test_eliminated_guard_without_takeover_names_who_must_take_over(game):
    # a1 is the only unit there able to: the entry names it (with a choice it is
    # refused, naming them: test_freed_prisoners_reply.py)
    out = execute(game, "eliminate a2 by sniper")
    assert out.records[0].takeover == "a1"
    assert "implied: a1 takes over the prisoners of a2" in out.message


def test_reduce_and_massacre(game):
    assert one_event("reduce g1 by own", game) == ev.CasualtyReduced(
        handle="g1", cause="fire-own", by_side="German"
    )
    assert one_event("reduce a2 to 3-3-7", game) == ev.CasualtyReduced(handle="a2", counter="3-3-7")
    with pytest.raises(Refusal, match="comes from fire"):
        parse("reduce g1 by sniper", game.state)
    assert one_event("massacre g1 g4 by a1", game) == ev.Massacred(units=["g1", "g4"], by="a1")


# --------------------------------------------------------------------- escape
def test_escape_flags(game):
    assert one_event("escape g1", game) == ev.EscapeAttempted(units=["g1"])
    event = one_event("escape g1 ntcfail g1 killed g4 guard-dies own-borders", game)
    assert (
        event.ntc_failed,
        event.killed,
        event.guard_eliminated,
        event.outcome,
        event.own_borders,
    ) == (["g1"], ["g4"], True, "escaped", True)
    assert one_event("escape g1 melee", game).outcome == "melee"
    with pytest.raises(Refusal, match="not both"):
        parse("escape g1 melee guard-dies", game.state)


def test_withdraw_infiltrate_guard_infiltrates(game):
    assert one_event("withdraw g1", game) == ev.EscapedBy(units=["g1"], route="withdrawal")
    assert one_event("infiltrate g1", game) == ev.EscapedBy(units=["g1"], route="infiltration")
    assert one_event("gi a2", game) == ev.EscapedBy(units=["a2"], route="guard-infiltrated")


def test_rearm_and_scrounge(game):
    assert one_event("rearm g4 cc a2 as 4-3-6", game) == ev.Rearmed(
        handle="g4", how="cc", enemy="a2", counter="4-3-6"
    )
    execute(game, "add American 3-3-7 hs at Q5")
    # a HS-size enemy and an unarmed squad: the entry splits nothing (A20.551 refuses it)
    parsed = plan("rearm g4 cc a3", game.state)
    assert parsed.events[0].split_into == [] and parsed.made == []
    with pytest.raises(Refusal, match="rearm H cc"):
        parse("rearm g4 a2", game.state)
    assert one_event("scrounge g4 2 wreck", game) == ev.Scrounged(handle="g4", roll=2, wreck=True)
    with pytest.raises(Refusal, match="whole number"):
        parse("scrounge g4 two", game.state)


def test_nq_and_end(game):
    assert one_event("nq German", game) == ev.NoQuarterInvoked(side="German", reason="SSR")
    assert one_event("nq german SSR 4", game).reason == "SSR 4"
    assert one_event("end", game) == ev.GameEnded()


# -------------------------------------------------------------------- control
def test_control_verbs_parse(game):
    assert plan("undo", game.state).control == "undo"
    assert plan("redo", game.state).control == "redo"
    strike = plan("strike 7 it was the HS", game.state)
    assert (strike.control, strike.target, strike.reason, strike.events) == (
        "strike",
        7,
        "it was the HS",
        [],
    )
    assert plan("unstrike 7", game.state).target == 7
    with pytest.raises(Refusal, match="entry number"):
        parse("strike", game.state)
    with pytest.raises(Refusal, match="out of place"):
        parse("undo 3", game.state)


def test_undo_redo_strike_through_execute(game):
    count = len(game.state.units)
    execute(game, "add German 4-6-7")
    assert "undone" in execute(game, "undo").message and len(game.state.units) == count
    execute(game, "redo")
    assert "g5" in game.state.units
    struck = execute(game, "strike 8 wrong phase")  # the RtPh: both surrenders lose it
    assert struck.message.startswith("struck entry 8 (wrong phase)")
    assert "no longer holds" in struck.message
    execute(game, "unstrike 8")
    assert not game.conflicts


def test_blank_and_comment_lines_are_no_ops(game):
    before = len(game.records)
    for text in ("", "   ", "# a note", "  # indented note"):
        outcome = execute(game, text)
        assert (outcome.message, outcome.records) == ("", [])
    assert len(game.records) == before


def test_unknown_verb_suggests_the_near_one(game):
    with pytest.raises(Refusal) as caught:
        parse("surender g1 to a1", game.state)
    assert "not a command" in caught.value.text and "surrender" in caught.value.hint


def test_unknown_handle_suggests_near_handles(game):
    with pytest.raises(Refusal) as caught:
        parse("break g11", game.state)
    assert "g1" in caught.value.hint


def test_unbalanced_quote_is_refused(game):
    with pytest.raises(Refusal, match="cannot read"):
        parse('nq German "SSR', game.state)


def test_help(game):
    assert "surrender" in execute(game, "help").message
    assert execute(game, "help sur").message.startswith("surrender H...")


def test_run_script_names_the_line():
    g = new_game()
    with pytest.raises(ScriptRefusal) as caught:
        run_script(
            g,
            [
                "add American 9-2",
                "# comment",
                "",
                "phase rtph",
                "add German 4-6-7 x2 broken",
                "surrender g1 g2 to a1",
            ],
        )
    assert str(caught.value).startswith("line 6: A20.51: ")
    assert caught.value.line == 6 and caught.value.rule == "A20.51"


# ------------------------------------------------------------------ completion
def test_complete_verbs(game):
    assert complete("tr", game.state) == ["transfer"]
    assert "surrender" in complete("", game.state)


def test_complete_offers_prisoners_first_for_transfer(game):
    offered = complete("transfer ", game.state)
    assert offered[0] == "g1"  # the one prisoner first (g4 is free and unarmed)
    # after the handles, the stack of the prisoners transfer may take (@LOC)
    assert set(offered[:-1]) == {"a1", "a2", "g1", "g2", "g3", "g4"}
    assert offered[-1] == f"@{game.state.units['g1'].location}"


def test_complete_offers_enemy_captors_for_surrender_to(game):
    offered = complete("surrender g3 to ", game.state)
    assert offered[:2] == ["a1", "a2"]
    assert complete("surrender g3 to a", game.state) == ["a1", "a2"]


def test_complete_keywords_sides_phases_and_kinds(game):
    assert "to" in complete("surrender g3 ", game.state)
    assert "free" in complete("surrender g3 to a1 ", game.state)
    assert complete("reject g3 by ", game.state) == ["American", "German"]
    assert complete("add G", game.state) == ["German"]
    assert "hs" in complete("add German 2-4-7 ", game.state)
    assert complete("phase R", game.state) == ["RPh", "RtPh"]
    assert complete("rearm g4 ", game.state) == ["cc", "alone", "surrender"]
    assert "sniper" in complete("eliminate a1 by ", game.state)
    assert complete("nonsense ", game.state) == []


# ------------------------------------------------------------ specs and docs
def test_every_verb_has_a_spec_and_the_docs_show_its_example():
    docs = DOCS.read_text(encoding="utf-8")
    for spec in VERBS.values():
        assert spec.usage.startswith(spec.name)
        assert spec.example.split()[0] == spec.name
        assert f"`{spec.example}`" in docs, f"docs/commands.md lacks the example of {spec.name}"


# ------------------------------------------------------------------ describe
def test_sentence_reads_like_the_table(game):
    entries = {e.seq: e for e in game.history()}
    surrender = next(e for e in entries.values() if isinstance(e.record, ev.Surrendered))
    assert (
        sentence(surrender, game)
        == "T1 RtPh: German 4-6-7 (g1) surrendered to American 6-6-6 (a2) in Q4 [A20.21]"
    )
    execute(game, "strike 8 typo")
    struck = game.history()[-1]
    assert sentence(struck, game) == "struck entry 8 (typo)"
    execute(game, "undo")
    assert re.fullmatch(r"undo of entry \d+", sentence(game.history()[-1], game))


def test_every_cited_rule_is_well_formed():
    assert all(re.fullmatch(r"[A-Z]\d+(\.\d+)*", rule) for rule in RULES.values())


def test_complete_a_counter_reference_offers_the_units_it_begins(game):
    """``resolve_unit`` reads a counter (``8-0``) or ``COUNTER@LOC`` as a unit, so
    completion offers, by handle, the units whose counter or reference begins so."""
    assert complete("rally 8-", game.state) == ["g3"]
    assert complete("rally 2-4-7@q", game.state) == ["g2"]
    assert complete("rally 6-6-6@Q4", game.state) == ["a2"]
    assert complete("rally 9-2@R", game.state) == []
    assert complete("rally g", game.state)[:2] == ["g2", "g3"]  # handles as before


def test_capture_free_names_the_excess_and_reads_back():
    """``capture ... free H``: the excess over the captor's capacity goes free as
    Unarmed (A20.5), as ``surrender ... free H``; the entry reads back as typed."""
    from stockade.core.commands.entry_line import entry_line

    game = Game.in_memory(
        "t", [ev.SideSpec("German", "German", 3), ev.SideSpec("American", "American", 4)]
    )
    run_script(game, ["add German 8-1 K6", "add American 6-6-6 K6 6-6-6 K6"])
    out = execute(game, "capture a1 a2 by g1 free a1")
    assert "freed as Unarmed: a1" in out.message
    captured = game.records[-1]
    assert isinstance(captured, ev.Captured) and captured.freed == ["a1"]
    assert entry_line(captured) == "capture a1 a2 by g1 free a1"
    assert game.state.units["a1"].status == "unarmed"
