"""What one entry did, before and after a change, and how the two differ, in words.

A strike or unstrike folds the later entries again. For each of them the ``Observer``
(``core.book.consequences``) keeps its *effect* in the fold before (``effects_backward``,
read from the undo journal while the tail is taken back) and in the fold after
(``effect_forward``, as each event folds): the attributes it changed (to what), the
units it added, the casualty lines it booked, the scrounge it recorded, its conflict.
The entries whose effect differs (``same_effect``) are the "later entries whose outcome
differs" of ``core.book.change``; ``differences`` says how, for the player.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import Any

from stockade.core.model import events as ev
from stockade.core.model.state import GameState, Side
from stockade.core.model.tracked_unit import UNARMED, Unit

# An undo entry (see core.book.projection): (added units, added casualty lines, the
# Scroungings added or None, added sides, then (object, attribute, old value) triples).
_ADDED_UNITS, _ADDED_CAS, _SCR_ADDED, _OPS = 0, 1, 2, 4

Effect = dict[tuple[Any, ...], tuple[Any, Any]]  # key -> (old value, new value); compared on new


def _key(obj: object) -> tuple[str, ...]:
    if isinstance(obj, Unit):
        return ("unit", obj.handle)
    if isinstance(obj, Side):
        return ("side", obj.name)
    return ("game",)


def _firsts(entry: tuple[Any, ...]) -> dict[tuple[int, str], tuple[Any, str, Any]]:
    """(id, attribute) -> (object, attribute, value before the event): first op wins."""
    out: dict[tuple[int, str], tuple[Any, str, Any]] = {}
    for i in range(_OPS, len(entry), 3):
        obj, name = entry[i], entry[i + 1]
        key = (id(obj), name)
        if key not in out:
            out[key] = (obj, name, entry[i + 2])
    return out


def _line(c: Any) -> tuple[Any, ...]:
    return (c.credited, c.unit, c.counter, c.unit_kind, c.base, c.multiplier, c.rule, c.why)


def same_effect(a: Effect, b: Effect) -> bool:
    return a.keys() == b.keys() and all(a[k][1] == b[k][1] for k in a)


# ------------------------------------------------------------------ effects
def effects_backward(
    state: GameState,
    records: list[Any],
    entries: list[Any],
    added: Sequence[Any],
    conflicts: dict[Any, Any],
    watch: Set[int],
) -> dict[int, Effect]:
    """The effect of each rolled-back event in ``watch`` in the fold as it stands
    (before the roll-back), walking from the newest event back with the values each
    later one overwrote (so every event is walked, and only the watched are worded)."""
    units = state.units
    after: dict[int, dict[str, Any]] = {}  # id -> values right after the event looked at
    out: dict[int, Effect] = {}
    taken = 0
    cas, end = state.casualties, len(state.casualties)
    for record, e in zip(reversed(records), reversed(entries), strict=True):
        k = e[_ADDED_UNITS] if e[_ADDED_UNITS] > 0 else 0
        mine = added[taken : taken + k]
        taken += k
        firsts = _firsts(e)
        if record.seq in watch:
            mine_ids = {id(u) for u in mine}
            eff: Effect = {}
            for (oid, name), (obj, _, old) in firsts.items():
                if oid in mine_ids or (type(obj) is Unit and units.get(obj.handle) is not obj):
                    continue
                d = after.get(oid)
                new = d[name] if d is not None and name in d else getattr(obj, name)
                if old != new:
                    eff[(_key(obj), name)] = (old, new)
            for u in mine:
                snap = dict(u.__dict__)
                snap.update(after.get(id(u), {}))
                eff[(("unit", u.handle), "+")] = (None, snap)
            if e[_ADDED_CAS]:
                eff[("cas",)] = (None, [_line(c) for c in cas[end - e[_ADDED_CAS] : end]])
            if e[_SCR_ADDED] is not None:
                eff[("scr",)] = (None, set(e[_SCR_ADDED]))
            if record.seq in conflicts:
                eff[("conflict",)] = (None, str(conflicts[record.seq]))
            out[record.seq] = eff
        end -= e[_ADDED_CAS]
        for (oid, name), (_obj, _, old) in firsts.items():
            after.setdefault(oid, {})[name] = old
    return out


def effect_forward(
    state: GameState,
    record: ev.Record,
    e: tuple[Any, ...],
    added: Sequence[Any],
    conflicts: dict[Any, Any],
) -> Effect:
    """The effect of the event just folded, read from the live state."""
    units = state.units
    added_ids = {id(u) for u in added}
    eff: Effect = {}
    for (oid, name), (obj, _, old) in _firsts(e).items():
        if oid in added_ids or (type(obj) is Unit and units.get(obj.handle) is not obj):
            continue
        new = getattr(obj, name)  # one field: a unit's ``__dict__`` copies all 35
        if old != new:
            eff[(_key(obj), name)] = (old, new)
    for u in added:
        eff[(("unit", u.handle), "+")] = (None, dict(u.__dict__))
    if e[_ADDED_CAS]:
        cas = state.casualties
        eff[("cas",)] = (None, [_line(c) for c in cas[len(cas) - e[_ADDED_CAS] :]])
    if e[_SCR_ADDED] is not None:
        eff[("scr",)] = (None, set(e[_SCR_ADDED]))
    if record.seq in conflicts:
        eff[("conflict",)] = (None, str(conflicts[record.seq]))
    return eff


# ------------------------------------------------------------------ wording
def differences(before: Effect, after: Effect) -> list[str]:
    """How an entry's effect after the change differs from before, in words."""
    out: list[str] = []
    ca, cb = after.get(("conflict",)), before.get(("conflict",))
    if ca and (not cb or ca[1] != cb[1]):
        out.append(f"now conflicts: {ca[1]}")
    elif cb and not ca:
        out.append("no longer conflicts")
    handles: list[str] = []
    for key in list(before) + list(after):
        if key[0][0] == "unit" and key[0][1] not in handles:
            handles.append(key[0][1])
    for h in handles:
        out += _unit_differences(h, before, after)
    lines_b = before.get(("cas",), (None, []))[1]
    lines_a = after.get(("cas",), (None, []))[1]
    for line in lines_b:
        if line not in lines_a:
            out.append(f"no longer books {line[4] * line[5]} CVP for {line[1]} ({line[6]})")
    for line in lines_a:
        if line not in lines_b:
            out.append(f"now books {line[4] * line[5]} CVP for {line[1]} ({line[6]})")
    if before.get(("scr",)) != after.get(("scr",)):
        out.append("records a different Scrounging")
    if not out:
        out.append("changes the game differently")
    return out


def _new(effect: Effect, h: str, name: str) -> Any:
    item = effect.get((("unit", h), name))
    return None if item is None else item[1]


def _unit_differences(h: str, before: Effect, after: Effect) -> list[str]:
    out: list[str] = []
    b_new = (("unit", h), "+") in before
    a_new = (("unit", h), "+") in after
    if a_new != b_new:
        return [f"{'now' if a_new else 'no longer'} brings {h} into play"]
    said = False
    sa, sb = _new(after, h, "status"), _new(before, h, "status")
    if sa != sb:
        said = True
        if sa == UNARMED:
            held = after.get((("unit", h), "guard"))
            how = _new(after, h, "unarmed_how")
            said_how = f"unarmed, {how}" if how else "unarmed"
            out.append(
                f"now frees {h} ("
                + (f"{held[0]} held it; " if held and held[0] else "")
                + f"{said_how})"
            )
        elif sb == UNARMED:
            out.append(f"no longer frees {h}")
        elif sa is not None and sb is not None:
            out.append(f"makes {h} {sa} instead of {sb}")
        elif sa is not None:
            out.append(f"now makes {h} {sa}")
        else:
            out.append(f"no longer makes {h} {sb}")
    ga, gb = _new(after, h, "guard"), _new(before, h, "guard")
    if ga != gb and not (sa == UNARMED or sb == UNARMED):
        said = True
        if ga and gb:
            out.append(f"gives {h} to {ga} instead of {gb}")
        elif ga:
            out.append(f"now gives {h} to {ga}")
        elif gb:
            out.append(f"no longer gives {h} to {gb}")
    for name, verb in (("location", "moves {h} to {v}"), ("counter", "makes {h} a {v}")):
        va, vb = _new(after, h, name), _new(before, h, name)
        if va != vb:
            said = True
            if va is not None:
                out.append("now " + verb.format(h=h, v=va))
            else:
                out.append("no longer " + verb.format(h=h, v=vb))
    if not said:
        keys = {k[1] for k in list(before) + list(after) if k[0] == ("unit", h)}
        changed = sorted(
            n for n in keys if _new(after, h, n) != _new(before, h, n) and n != "unarmed_how"
        )
        if changed:
            out.append(f"changes {h} differently ({', '.join(changed)})")
    return out
