"""Watching one change to the projection, so that it can say what it did.

A write takes some effective events back (``rolled_back``: an undo, the tail after a
struck entry) and folds some (``folded``: a new entry, a redo, the tail again). The
undo journal already knows, for every event, the pre-image of every attribute its
rules set; read before the roll-back and after each fold, it gives:

* each unit's status / Guard / Location / counter / Melee before and after the change;
* the casualty lines taken back and booked (the banked CVP delta), and the prisoners
  gained or lost (the "if the game ended now" delta);
* for a strike or unstrike, each later entry's *effect* in the fold before and in the
  fold after (``core.book.effects``); the entries whose effect differs are the "later
  entries whose outcome differs" of ``core.book.change``.

Everything here is O(what the change touched), never O(game).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence, Set
from itertools import islice
from typing import TYPE_CHECKING, Any

import msgspec

from stockade.core.book.change import Change, CvpDelta, LaterEntry, UnitChange, VerdictShift
from stockade.core.book.game_view import GameView
from stockade.core.book.tally import tally
from stockade.core.book.verdict import judge
from stockade.core.model import events as ev
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import PRISONER, UNARMED, Unit
from stockade.core.model.victory import VictoryBook

if TYPE_CHECKING:
    from stockade.core.book.effects import Effect

# An undo entry (see core.book.projection): (added units, added casualty lines, the
# Scroungings added or None, added sides, then (object, attribute, old value) triples).
_ADDED_UNITS, _ADDED_CAS, _SCR_ADDED, _OPS = 0, 1, 2, 4

WATCHED = ("status", "guard", "location", "counter", "melee")
_KEPT = (*WATCHED, "unarmed_how", "side", "origins")
# A unit's kept fields are one tuple, read in C (``operator.itemgetter``): the Observer
# makes one per unit it sees, on every write, so a dict per unit was most of its cost.
_KEPT_AT = {name: i for i, name in enumerate(_KEPT)}
_STATUS, _MELEE = _KEPT_AT["status"], _KEPT_AT["melee"]
_HOW, _SIDE, _ORIGINS = _KEPT_AT["unarmed_how"], _KEPT_AT["side"], _KEPT_AT["origins"]
_KEPT_NAMES = frozenset(_KEPT)
_kept_of = operator.itemgetter(*_KEPT)

Fields = tuple[Any, ...]  # a unit's values of _KEPT, in that order


class Observer:
    """Collects what one change does; with a ``watch``, also each later entry's effect.

    ``involved`` are the records the change takes back and folds (the effective tail
    before, then the tail after). With ``effects``, an entry's effect is kept only for
    the entries in both (the later entries a strike or unstrike folds again: the struck
    or restored entry itself, or an undone tail, has nothing to compare with).

    Everything here runs on every write, and most writes (an undo of a move, a redo,
    a strike of the last entry) touch no watched field at all: so nothing is made
    until there is something to keep (every collection starts as None), ``saw`` says
    whether anything was, and ``finish`` hands back the writer's ``Change`` as it is
    when nothing was.
    """

    # Not slots: what a change did not touch stays at these class defaults (None:
    # nothing made), so a write that touched nothing watched sets four attributes.
    conflicts_before: dict[int, Any] | None = None  # of the events taken back
    conflicted: list[int] | None = None  # folded events that conflict after
    units_before: dict[str, Fields | None] | None = None
    firsts_new: dict[int, tuple[Unit, dict[str, Any]]] | None = None
    added_units: list[Unit] | None = None
    removed_cas: list[Any] | None = None
    added_cas: list[Any] | None = None
    effects_before: dict[int, Effect] | None = None
    effects_after: dict[int, Effect] | None = None
    tally_before: dict[str, tuple[int, int]] | None = None
    # a game with Victory Conditions: its conditions, Exit VP and control, and whether
    # it had ended, before the change (the CVP before is the CVP after less the delta)
    victory_before: tuple[VictoryBook, bool] | None = None
    in_part: dict[int, str] | None = None  # watched entries that now hold in part: why

    def __init__(self, state: GameState, involved: list[Any], effects: bool = False):
        self.state = state
        self.watch: Set[int] = _watched(involved) if effects and len(involved) > 1 else _NOTHING
        # A game end books every guarded prisoner and drops the projection: then the
        # deltas come from two whole tallies (rare: only when a GameEnded is involved).
        self.full = self.saw = _GAME_ENDED in map(type, involved)
        if self.full:
            self.tally_before = _totals(state)
        # A game with Victory Conditions (or a change that sets them) is judged before
        # and after: one sum of its CVP (O(casualties)), paid only by such games.
        if state.vc.conditions is not None or _VICTORY_SET in map(type, involved):
            self.saw = True
            self.victory_before = (state.vc.settled(), state.ended)

    # ------------------------------------------------------------- roll-back
    def rolled_back(
        self, records: list[Any], entries: list[Any], conflicts: dict[Any, Any]
    ) -> None:
        """Call with the effective tail about to be taken back and its undo entries."""
        if conflicts:
            for r in records:
                if r.seq in conflicts:
                    self.saw = True
                    if self.conflicts_before is None:
                        self.conflicts_before = {}
                    self.conflicts_before[r.seq] = conflicts[r.seq]
        state = self.state
        units = state.units
        before: dict[str, Fields | None] | None = None
        n_added = n_cas = 0
        for e in entries:
            if e[_ADDED_UNITS] > 0:
                n_added += e[_ADDED_UNITS]
            if e[_ADDED_CAS]:
                n_cas += e[_ADDED_CAS]
            if _KEPT_NAMES.isdisjoint(e[_OPS + 1 :: 3]):  # in C: most entries set none
                continue
            for i in range(_OPS, len(e), 3):
                obj = e[i]
                # only a unit's kept fields can differ afterwards (see unit_changes)
                if type(obj) is Unit and e[i + 1] in _KEPT_AT:
                    h = obj.handle
                    if before is None:
                        before = {}
                    if h not in before and units.get(h) is obj:
                        before[h] = _kept_of(obj.__dict__)
        added: Sequence[Unit] = (
            list(islice(reversed(units.values()), n_added)) if n_added else _NO_UNITS
        )
        if added:
            if before is None:
                before = {}
            for u in added:
                before.setdefault(u.handle, _kept_of(u.__dict__))
        if before:
            self.units_before, self.saw = before, True
        if n_cas:
            self.removed_cas = state.casualties[len(state.casualties) - n_cas :]
            self.saw = True
        if self.watch:
            from stockade.core.book.effects import effects_backward  # (see ``finish``)

            self.effects_before = effects_backward(
                state, records, entries, added, conflicts, self.watch
            )
            self.saw = True

    # ------------------------------------------------------------------ fold
    def folded(
        self,
        record: ev.Record,
        entry: tuple[Any, ...],
        conflicts: dict[Any, Any],
        partial: dict[int, str] | None = None,
    ) -> None:
        """Call after each event folded by the change, with its undo entry (and the
        entries that hold in part, ``core.rules.partial``)."""
        seq = record.seq
        if partial and seq in partial and seq in self.watch:
            if self.in_part is None:
                self.in_part = {}
            self.in_part[seq] = partial[seq]
        if seq in conflicts:
            if self.conflicted is None:
                self.conflicted = []
            self.conflicted.append(seq)
            self.saw = True
        k = entry[_ADDED_UNITS]
        added: Sequence[Unit]
        added_ids: Set[int]
        if k > 0:
            added = list(islice(reversed(self.state.units.values()), k))[::-1]
            added_ids = {id(u) for u in added}
            if self.added_units is None:
                self.added_units = []
            self.added_units += added
            self.saw = True
        else:
            added, added_ids = _NO_UNITS, _NOTHING
        if not _KEPT_NAMES.isdisjoint(entry[_OPS + 1 :: 3]):  # in C: most entries set none
            for i in range(_OPS, len(entry), 3):
                obj, name = entry[i], entry[i + 1]
                # only the kept fields of a unit can make a difference (unit_changes)
                if type(obj) is Unit and name in _KEPT_AT and id(obj) not in added_ids:
                    firsts = self.firsts_new
                    if firsts is None:
                        firsts = self.firsts_new = {}
                        self.saw = True
                    seen = firsts.get(id(obj))
                    if seen is None:
                        firsts[id(obj)] = (obj, {name: entry[i + 2]})
                    elif name not in seen[1]:
                        seen[1][name] = entry[i + 2]
        if entry[_ADDED_CAS]:
            cas = self.state.casualties
            if self.added_cas is None:
                self.added_cas = []
            self.added_cas += cas[len(cas) - entry[_ADDED_CAS] :]
            self.saw = True
        if seq in self.watch:
            if self.effects_after is None:
                self.effects_after = {}
            from stockade.core.book.effects import effect_forward  # (see ``finish``)

            self.effects_after[seq] = effect_forward(self.state, record, entry, added, conflicts)
            self.saw = True

    # ---------------------------------------------------------------- result
    def unit_changes(self) -> tuple[list[UnitChange], dict[str, int]]:
        """The watched fields that differ, and the "if ended" projection delta by side."""
        if not (self.units_before or self.added_units or self.firsts_new):
            return [], {}
        state = self.state
        units = state.units
        before = dict(self.units_before or ())
        for u in self.added_units or ():  # brought into play by the change: none before
            before.setdefault(u.handle, None)
        for obj, olds in (self.firsts_new or {}).values():
            h = obj.handle
            if h in before or units.get(h) is not obj:
                continue
            mine = list(_kept_of(obj.__dict__))
            for name, old in olds.items():
                mine[_KEPT_AT[name]] = old
            before[h] = tuple(mine)
        out: list[UnitChange] = []
        projected: dict[str, int] = {}
        for h, was in before.items():
            unit = units.get(h)
            now = _kept_of(unit.__dict__) if unit is not None else None
            if was == now:
                continue  # taken back and folded again alike, or set and reset
            for i, name in enumerate(WATCHED):
                if (
                    was is not None
                    and now is not None
                    and was[i] == now[i]
                    and (i != _STATUS or was[_HOW] == now[_HOW])
                ):
                    continue
                a, b = _shown_at(was, i), _shown_at(now, i)
                if a != b:
                    out.append(UnitChange(h, name, a, b))
            if not state.ended:
                for fields, sign in ((was, -1), (now, 1)):
                    if fields is not None and fields[_STATUS] == PRISONER:
                        captor = state.enemy_of(fields[_SIDE])
                        points = 2 * sum(o.cvp for o in fields[_ORIGINS])
                        projected[captor] = projected.get(captor, 0) + sign * points
        return out, projected

    def cvp(self, projected: dict[str, int]) -> list[CvpDelta]:
        if self.full:
            before, after = self.tally_before or {}, _totals(self.state)
            return [
                CvpDelta(side, after[side][0] - b[0], after[side][1] - b[1])
                for side, b in before.items()
                if side in after and after[side] != b
            ]
        if not (projected or self.removed_cas or self.added_cas):
            return []
        banked: dict[str, int] = {}
        for lines, sign in ((self.removed_cas or (), -1), (self.added_cas or (), 1)):
            for c in lines:
                banked[c.credited] = banked.get(c.credited, 0) + sign * c.points
        out = []
        for side in self.state.sides:
            b = banked.get(side, 0)
            e = b + projected.get(side, 0)
            if b or e:
                out.append(CvpDelta(side, b, e))
        return out


_NOTHING: frozenset[Any] = frozenset()
_GAME_ENDED = ev.GameEnded
_VICTORY_SET = ev.VictorySet
_NO_UNITS: tuple[Unit, ...] = ()  # what a fold that brought no unit into play added


def _watched(involved: list[Any]) -> set[int]:
    """The seqs ``involved`` holds twice: the later entries folded before and after."""
    seen: set[int] = set()
    watch: set[int] = set()
    for r in involved:
        (watch if r.seq in seen else seen).add(r.seq)
    return watch


def _shown_at(fields: Fields | None, i: int) -> str:
    """Field ``i`` of a unit's kept fields as a ``UnitChange`` says it."""
    if fields is None:
        return ""
    value = fields[i]
    if i == _STATUS and value == UNARMED and fields[_HOW]:
        return f"unarmed ({fields[_HOW]})"
    if i == _MELEE:
        return "Melee" if value else ""
    return "" if value is None else str(value)


def _shown(fields: Mapping[str, Any] | None, name: str) -> str:
    """The same for a unit's ``__dict__`` (tests/book/test_change.py words its reference so)."""
    return _shown_at(None if fields is None else _kept_of(fields), _KEPT_AT[name])


def _totals(state: GameState) -> dict[str, tuple[int, int]]:
    return {n: (s.cvp, s.cvp_if_ended) for n, s in tally(state).sides.items()}


def _shift(obs: Observer, cvp: list[CvpDelta]) -> VerdictShift | None:
    """The verdict before and after the change, when it differs."""
    if obs.victory_before is None:
        return None
    from stockade.core.book.tally import cvp_if_ended

    state = obs.state
    after = cvp_if_ended(state)
    before = dict(after)
    for delta in cvp:
        before[delta.side] = before.get(delta.side, 0) - delta.if_ended
    book, ended = obs.victory_before
    was = judge(state, before, book=book, ended=ended)
    now = judge(state, after)
    key_before, key_after = (was.key if was else ""), (now.key if now else "")
    if key_before == key_after:
        return None
    return VerdictShift(key_before, key_after, now.headline if now else "")


def finish(obs: Observer, game: GameView, change: Change) -> Change:
    """The ``Change`` ``obs`` saw: the writer's ``change`` (what it wrote and moved,
    and how many entries conflict now), with what the change did to the game read in
    the game as it is now (after the change). Nothing seen: ``change`` as it is."""
    if not obs.saw:
        return change
    # Imported here, not at the top: what an entry's effect is (``core.book.effects``,
    # also imported where a strike or an amendment is watched, the only changes that
    # compare effects) and who a change freed or handed over (``core.book.freeing``)
    # are asked only after a write, and every open (the app's read of a game, a
    # tally's fold) imports this module with the writer without ever writing.
    from stockade.core.book.effects import differences, same_effect
    from stockade.core.book.freeing import freed_by, handed_by

    units, projected = obs.unit_changes()
    later = []
    both = (
        sorted(obs.effects_before.keys() & obs.effects_after.keys())
        if obs.effects_after and obs.effects_before
        else ()
    )
    for seq in both:
        before, after = obs.effects_before[seq], obs.effects_after[seq]  # type: ignore[index]
        if not same_effect(before, after):
            conflict = after.get(("conflict",), (None, ""))[1]
            # imported here, not at the top: only a write that changed a later entry
            # words one, and a read command (tally) need not load the sentences
            from stockade.core.book.describe import sentence_for

            sentence = sentence_for(game.records[seq - 1], game)
            said = differences(before, after)
            part = (obs.in_part or {}).get(seq, "")
            if part:
                said = [f"holds in part: {part}", *said]
            later.append(LaterEntry(seq, sentence, said, conflict, part))
    was, now = obs.conflicts_before or {}, game.conflicts
    new = (
        sorted(
            s for s in obs.conflicted if s in now and (s not in was or str(now[s]) != str(was[s]))
        )
        if obs.conflicted
        else []
    )
    resolved: list[int] = []
    if was:
        gone = set(change.undone) | set(change.struck)
        resolved = sorted(s for s in was if s not in now and s not in gone)
    cvp = obs.cvp(projected)
    # the entries the change put in effect: written, or brought back (redo, unstrike)
    in_effect = [game.records[s - 1] for s in (*change.appended, *change.restored)]
    return msgspec.structs.replace(
        change,
        later=later,
        units=units,
        cvp=cvp,
        new_conflicts=new,
        resolved_conflicts=resolved,
        verdict=_shift(obs, cvp),
        freed=freed_by(units, obs.state, in_effect),
        handed=handed_by(units, obs.state, in_effect),
    )
