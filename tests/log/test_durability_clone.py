"""GameState.clone is the snapshot copy: it must be as independent as a deepcopy."""

from __future__ import annotations

import copy
import dataclasses

import msgspec

from bench.generate import generate

IMMUTABLE = (str, int, float, bool, type(None), frozenset, tuple)


def _shared(a, b, path="state", seen=None):
    """Paths of mutable objects reachable from both ``a`` and ``b`` (by identity)."""
    seen = set() if seen is None else seen
    out = []
    if isinstance(a, IMMUTABLE):
        return out
    if id(a) in seen:
        return out
    seen.add(id(a))
    if a is b and not path.startswith("state.casualties["):  # booked lines are shared
        out.append(path)
    if isinstance(a, dict):
        for k in a:
            out += _shared(a[k], b[k], f"{path}[{k!r}]", seen)
    elif isinstance(a, (list, set)):
        for i, (x, y) in enumerate(
            zip(
                sorted(a, key=repr) if isinstance(a, set) else a,
                sorted(b, key=repr) if isinstance(b, set) else b,
                strict=True,
            )
        ):
            out += _shared(x, y, f"{path}[{i}]", seen)
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            out += _shared(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}", seen)
    elif isinstance(a, msgspec.Struct):
        for name in a.__struct_fields__:
            out += _shared(getattr(a, name), getattr(b, name), f"{path}.{name}", seen)
    return out


def test_clone_equals_deepcopy_and_shares_nothing_mutable():
    game = generate(1500, seed=3)
    state = game.state
    clone = state.clone()
    assert clone == copy.deepcopy(state)
    assert _shared(state, clone) == []
    unit = next(iter(clone.units.values()))
    unit.status, unit.origins[0].cvp = "changed", 99
    assert next(iter(state.units.values())).status != "changed"
    assert next(iter(state.units.values())).origins[0].cvp != 99
