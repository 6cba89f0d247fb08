"""Every write says what it did (``core.book.change.Change``), and says it exactly.

* A hypothesis state machine (the rules' own, tests/rules/machine.py) plays random
  games; at every step it strikes, unstrikes or undoes-to a random entry and checks the
  ``Change`` against a reference made independently: each effective entry's effect is
  taken from two fresh folds (before and after) by diffing whole copies of the state
  around it. The later entries whose effect differs must be exactly ``Change.later``;
  the CVP deltas exactly the difference of the two tallies; the units changed exactly
  the units whose status / Guard / Location / counter differ. The preview must say
  the same as the write, and write nothing.
* The issue's scenario: a strike of a transfer that makes a later elimination free a
  prisoner names that entry and the CVP it costs, in the preview and the strike, in
  the core and the CLI.
"""

from __future__ import annotations

import dataclasses
import operator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import rule

from stockade.core import rules
from stockade.core.book.change import consequences, totals_of
from stockade.core.book.consequences import WATCHED, _shown
from stockade.core.book.game import Game
from stockade.core.book.tally import tally
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.names import label, mentioned
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import RARELY_SET, Unit
from stockade.core.rules.partial import part_that_holds
from tests.book.kit import SCENARIO
from tests.rules.machine import PICK, PrisonerBook, dump, pick

_CONTAINERS = {
    "units",
    "sides",
    "casualties",
    "scrounged",
    "cvp_overrides",
    "_prisoner_index",
    "_location_index",
}


def _line(c) -> tuple:
    return (c.credited, c.unit, c.counter, c.unit_kind, c.base, c.multiplier, c.rule, c.why)


# A unit's field values in one call, as its ``__dict__`` holds them (a shallow copy
# either way) but without building a mapping of 39 fields for every unit at every entry.
_UNIT_FIELDS = tuple(f.name for f in dataclasses.fields(Unit))
_unit_values = operator.attrgetter(*_UNIT_FIELDS)
# What a unit's fields are read from (core/model/unit_layout.py): its plain slots, the
# one mapping of its rarely set fields and its kept origins. Every field's value is
# made from these alone, so a unit whose raw values are equal after an event has every
# field as before it; those are read before the fields are (only for the units an event
# changed: reading the rare fields and origins of every unit at every entry through
# their properties was most of the reference's cost).
_PLAIN = tuple(f for f in _UNIT_FIELDS if f not in RARELY_SET and f != "origins")
_plain_values = operator.attrgetter(*_PLAIN)


def _raw(u: Unit) -> tuple:
    """A copy of what ``u``'s fields are read from (copies, so that a mapping or an
    origin changed in place still differs)."""
    more, kept = u._more, u._origins
    return (
        _plain_values(u),
        None if more is None else dict(more),
        None if kept is None else [(o.handle, o.unit_kind, o.counter, o.cvp) for o in kept],
    )


NAMES: dict[int, tuple] = {}  # the names each entry should have, from the last reference


def reference_effects(effective: list[ev.Record]) -> tuple[dict[int, dict], GameState]:
    """Each entry's effect, by folding ``effective`` from nothing and diffing full
    copies of the state around every event (no undo journal involved). Also the names
    each entry's units had (``NAMES``), made from scratch."""
    state = GameState()
    out: dict[int, dict] = {}
    NAMES.clear()
    # every unit's fields and raw values as they stand before the event looked at
    units: dict[str, tuple] = {}
    raws: dict[str, tuple] = {}
    for record in effective:
        said = [h for h in mentioned(record) if h in state.units]
        NAMES[record.seq] = tuple((h, label(state.units[h]), state.units[h].location) for h in said)
        sides = {n: dict(s.__dict__) for n, s in state.sides.items()}
        scalars = {k: v for k, v in state.__dict__.items() if k not in _CONTAINERS}
        n_cas, scrounged = len(state.casualties), set(state.scrounged)
        effect: dict = {}
        try:
            rules.step(state, record)
        except Refusal as refusal:
            # an entry that holds in part folds that part (core/rules/partial.py)
            part = part_that_holds(state, record)
            if part is None:
                effect[("conflict",)] = str(refusal)
            else:
                rules.step(state, part[0])
        for h in units.keys() - state.units.keys():  # (a fold never takes one out)
            del units[h], raws[h]
        for h, u in state.units.items():
            raw = _raw(u)
            if raws.get(h) == raw:  # (the common case, compared at C speed)
                continue
            raws[h] = raw
            now = _unit_values(u)
            if h not in units:
                units[h] = now
                effect[(("unit", h), "+")] = dict(zip(_UNIT_FIELDS, now, strict=True))
                continue
            was, units[h] = units[h], now
            for k, a, b in zip(_UNIT_FIELDS, was, now, strict=True):
                if a != b:
                    effect[(("unit", h), k)] = b
        for n, s in state.sides.items():
            if sides.get(n) == s.__dict__:
                continue
            for k, v in s.__dict__.items():
                if n in sides and sides[n].get(k) != v:
                    effect[(("side", n), k)] = v
        for k, v in state.__dict__.items():
            if k not in _CONTAINERS and scalars.get(k) != v:
                effect[(("game",), k)] = v
        if len(state.casualties) > n_cas:
            effect[("cas",)] = [_line(c) for c in state.casualties[n_cas:]]
        if state.scrounged != scrounged:
            effect[("scr",)] = state.scrounged - scrounged
        fresh = [h for h in mentioned(record) if h not in said and h in state.units]
        NAMES[record.seq] += tuple(
            (h, label(state.units[h]), state.units[h].location) for h in fresh
        )
        out[record.seq] = effect
    return out, state


# The last reference made, by the entries it was made from: one check's "after" is the
# next check's "before" when nothing was played between them (the generated campaigns
# below check several changes in a row), and the reference is most of a check's cost.
_LAST: list[tuple[list[ev.Record], tuple[dict[int, dict], GameState], dict[int, tuple]]] = []


def reference(effective: list[ev.Record]) -> tuple[dict[int, dict], GameState]:
    """``reference_effects(effective)``, made again only when the entries differ from
    the last ones (the result is only read)."""
    if _LAST and _LAST[0][0] == effective:
        _, made, names = _LAST[0]
        NAMES.clear()
        NAMES.update(names)
        return made
    made = reference_effects(effective)
    _LAST[:] = [(list(effective), made, dict(NAMES))]
    return made


def expected_units(before: GameState, after: GameState) -> set[tuple[str, str, str, str]]:
    out = set()
    for h in before.units.keys() | after.units.keys():
        was = before.units.get(h)
        now = after.units.get(h)
        for name in WATCHED:
            a = _shown(was.__dict__ if was else None, name)
            b = _shown(now.__dict__ if now else None, name)
            if a != b:
                out.add((h, name, a, b))
    return out


def cvp_deltas(before, after) -> dict[str, tuple[int, int]]:
    out = {}
    for side, b in totals_of(before).items():
        a = totals_of(after)[side]
        if a != b:
            out[side] = (a[0] - b[0], a[1] - b[1])
    return out


def _summary(change) -> tuple:
    return (
        [(x.seq, x.differences, x.conflict) for x in change.later],
        change.units,
        change.cvp,
        change.new_conflicts,
        change.resolved_conflicts,
        change.conflicts,
    )


def check_change(game: Game, kind: str, i: int) -> bool:
    """Preview then make one strike / unstrike / undo_to and check its ``Change``
    against the reference. False when the pick was refused (nothing to check)."""
    effective = list(game.effective)
    struck = sorted(game.timeline.struck)
    if kind == "unstrike":
        seq = pick(struck, i)
    else:
        seq = pick([r.seq for r in effective if not isinstance(r, ev.GameCreated)], i)
    if seq is None:
        return False
    preview = {
        "strike": game.preview_strike,
        "unstrike": game.preview_unstrike,
        "undo_to": game.preview_undo_to,
    }[kind]
    before_dump, n_records = dump(game.state), len(game.records)
    before_tally = tally(game.state)
    try:
        seen = preview(seq)
    except Refusal:
        return False
    assert seen.preview and len(game.records) == n_records, "a preview wrote"
    assert dump(game.state) == before_dump, "a preview changed the state"
    write = {"strike": game.strike, "unstrike": game.unstrike, "undo_to": game.undo_to}[kind]
    change = write(seq)
    assert not change.preview and _summary(change) == _summary(seen)

    before_effects, before_state = reference(effective)
    after_effects, after_state = reference(list(game.effective))
    mine = game.names.by_seq
    assert {s: mine.get(s, ()) for s in NAMES} == NAMES  # names kept by the fold are right
    assert dump(after_state) == dump(game.state)
    later = {
        s
        for s in before_effects.keys() & after_effects.keys()
        if s != seq and before_effects[s] != after_effects[s]
    }
    assert {x.seq for x in change.later} == later
    if kind == "undo_to":
        anchor = game.records[seq - 1].grp
        assert not change.later
        assert set(change.undone) == {r.seq for r in effective if r.grp > anchor}
    assert {(d.side, (d.banked, d.if_ended)) for d in change.cvp} == set(
        cvp_deltas(before_tally, tally(game.state)).items()
    )
    assert {(u.handle, u.field, u.before, u.after) for u in change.units} == (
        expected_units(before_state, after_state)
    )
    assert change.conflicts == len(game.conflicts)
    return True


class ChangeBook(PrisonerBook):
    @rule(i=PICK, kind=st.sampled_from(("strike", "unstrike", "undo_to")))
    def change_is_exact(self, i, kind):
        check_change(self.game, kind, i)


ChangeBook.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestChangeBook = ChangeBook.TestCase


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(40, 260),
    ops=st.lists(st.tuples(st.sampled_from(("strike", "unstrike", "undo_to")), PICK), max_size=4),
)
def test_change_is_exact_on_generated_campaigns(seed, steps, ops):
    """The same check on campaigns bench/generate.py plays (surrenders, transfers,
    takeovers, escorts, Casualty Reduction...): richer than the state machine's."""
    from bench.generate import Driver, new_game

    game = new_game()
    driver = Driver(game, seed=seed)
    for _ in range(steps):
        driver.step()
    for kind, i in [("strike", seed), *ops]:
        check_change(game, kind, i)


# ------------------------------------------------------------- the scenario
def scenario_game() -> Game:
    from stockade.core.commands import run_script

    game = Game.in_memory(
        "Scen", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(game, SCENARIO)
    assert isinstance(game.records[8], ev.Transferred)
    assert isinstance(game.records[13], ev.Eliminated)
    return game


def test_striking_the_transfer_names_the_later_elimination_and_the_cvp():
    game = scenario_game()
    assert totals_of(tally(game.state))["American"] == (0, 4)
    preview = game.preview_strike(9)
    assert [x.seq for x in preview.later] == [11, 14]
    elimination = preview.later[1]
    assert "now frees g2 (a1 held it" in elimination.differences[0]
    assert [(d.side, d.banked, d.if_ended) for d in preview.cvp] == [("American", 0, -4)]
    said = consequences(preview, totals_of(tally(game.state)))
    assert any(line.startswith("entry 14 (") and "would change" in line for line in said)
    assert "American if-ended CVP 4 -> 0" in said
    change = game.strike(9, "it was a1")
    assert _summary(change) == _summary(preview)
    said = consequences(change, totals_of(tally(game.state)))
    assert "American if-ended CVP 4 -> 0" in said
    assert any("entry 14" in line and "now frees g2" in line for line in said)
    back = game.unstrike(9)
    assert [(d.side, d.banked, d.if_ended) for d in back.cvp] == [("American", 0, 4)]
    assert "no longer frees g2" in back.later[-1].differences


def test_the_cli_strike_prints_the_consequences(tmp_path, capsys):
    from stockade.core.cli import main

    path = tmp_path / "s.jsonl"
    main(
        ["new", str(path), "--scenario", "Scen", "--side", "American:American:4"]
        + [
            "--side",
            "German:German",
        ]
    )
    script = tmp_path / "s.txt"
    script.write_text("\n".join(SCENARIO) + "\n")
    assert main(["run", str(path), str(script), "--quiet"]) == 0
    capsys.readouterr()
    before = path.read_bytes()
    assert main(["strike", str(path), "9", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "strike 9 would (nothing written):"
    assert any(line.startswith("  entry 14 (") and "would change" in line for line in out)
    assert "  American if-ended CVP 4 -> 0" in out
    assert path.read_bytes() == before
    assert main(["strike", str(path), "9", "--reason", "it was a1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "struck entry 9 (it was a1)"
    assert any(line.startswith("  entry 14 (T1 PFPh: American 6-6-7 (a1)") for line in out)
    assert "  American if-ended CVP 4 -> 0" in out


def test_undo_and_submit_report_their_cvp():
    game = scenario_game()
    change = game.undo()  # the elimination: a1 comes back, g1 a prisoner again
    assert change.undone == [14]
    assert {(d.side, d.banked, d.if_ended) for d in change.cvp} == {
        ("American", 0, 4),
        ("German", -2, -2),
    }
    assert ("g1", "status", "unarmed (escaped)", "prisoner") in {
        (u.handle, u.field, u.before, u.after) for u in change.units
    }
    redo = game.redo()
    assert redo.restored == [14] and {d.side for d in redo.cvp} == {"American", "German"}


def test_json_strike_carries_the_change_and_exit_4_when_conflicts_remain(tmp_path, capsys):
    import json

    from stockade.core.cli import main

    path = tmp_path / "s.jsonl"
    main(
        ["new", str(path), "--scenario", "Scen"]
        + ["--side", "American:American:4", "--side", "German:German"]
    )
    script = tmp_path / "s.txt"
    script.write_text("\n".join(SCENARIO) + "\n")
    assert main(["run", str(path), str(script), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["strike", str(path), "9", "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["ok"] and [x["seq"] for x in reply["change"]["later"]] == [11, 14]
    assert reply["change"]["cvp"] == [{"side": "American", "banked": 0, "if_ended": -4}]
    assert main(["unstrike", str(path), "9"]) == 0
    capsys.readouterr()
    # striking the surrender leaves the transfer without a prisoner to move: exit 4
    assert main(["strike", str(path), "7", "--json"]) == 4
    reply = json.loads(capsys.readouterr().out)
    assert not reply["ok"] and reply["error"]["exit"] == 4
    assert reply["change"]["conflicts"] >= 1
