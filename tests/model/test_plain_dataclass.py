"""``plain_dataclass`` (core/model/plain_dataclass.py) makes the state's classes without
compiling their methods' source, and each reads as the dataclass it is declared as:
held here to a ``@dataclass`` made from the very same declaration (the class's body
and bases), over construction, errors, repr, equality, hash, fields, asdict and
replace."""

from __future__ import annotations

import dataclasses
import inspect
import json
import subprocess
import sys
import textwrap

import pytest

from stockade.core.model import state as state_module
from stockade.core.model.state import Casualty, GameState, Side
from stockade.core.model.tracked_unit import Origin

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def _twin(cls: type) -> type:
    """The same class body made by ``dataclasses.dataclass`` itself."""
    source = textwrap.dedent(inspect.getsource(cls)).replace("@plain_dataclass", "@dataclass")
    namespace = dict(vars(state_module), dataclass=dataclasses.dataclass)
    exec(compile(source, f"<twin of {cls.__name__}>", "exec"), namespace)
    return namespace[cls.__name__]


CASES = {
    Side: [
        (("Germans", "German", 3), {}),
        (("Americans",), {"nationality": "American", "elr": 4, "no_quarter": True}),
        ((), {"name": "A", "nationality": "B", "elr": 2, "massacre_seq": 9}),
    ],
    Casualty: [
        # every field by name, not in the fields' order (as the rules make one)
        (
            (),
            dict(why="w", rule="r", multiplier=2, base=1, unit_kind="hs", counter="c", unit="x")
            | dict(credited="Russians", turn=1, seq=3),
        ),
        ((1, 2, "Germans", "h1", "467", "squad", 2, 1, "A20.3", "why"), {}),
        (
            (3, 1, "Russians"),
            dict(unit="x", counter="c", unit_kind="hs", base=1, multiplier=2, rule="r", why="w"),
        ),
    ],
    GameState: [
        ((), {}),
        (("Scenario",), {"turn": 3, "attacker": "Germans"}),
        ((), {"ended": True}),
    ],
}

CHANGE = {Side: {"elr": 9}, Casualty: {"base": 9}, GameState: {"turn": 9}}

BAD = {
    Side: [
        ((), {}),
        (("a", "b", 1, False, 0, False, 0, False, "extra"), {}),
        (("a",), {"name": "b", "nationality": "c", "elr": 1}),
        (("a", "b", 1), {"nope": 1}),
    ],
    Casualty: [((1, 2), {})],
    GameState: [((), {"unknown": 1})],
}


@pytest.mark.parametrize("cls", [Side, Casualty, GameState], ids=lambda c: c.__name__)
def test_a_plain_dataclass_reads_as_the_dataclass_declared(cls):
    twin = _twin(cls)
    assert [(f.name, f.type, f.default, f.default_factory) for f in dataclasses.fields(cls)] == [
        (f.name, f.type, f.default, f.default_factory) for f in dataclasses.fields(twin)
    ]
    assert cls.__match_args__ == twin.__match_args__
    assert cls.__hash__ is None and twin.__hash__ is None
    for args, kwargs in CASES[cls]:
        ours, theirs = cls(*args, **kwargs), twin(*args, **kwargs)
        assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)
        assert list(vars(ours)) == list(vars(theirs))  # set in field order
        assert repr(ours) == repr(theirs)
        assert ours == cls(*args, **kwargs)
        assert (ours != cls(*args, **kwargs)) is False
        assert ours != theirs  # not the same class: neither says equal (NotImplemented)
        assert ours.__eq__(theirs) is NotImplemented
        changed = dataclasses.replace(ours, **CHANGE[cls])
        assert changed != ours
        assert dataclasses.asdict(changed) == dataclasses.asdict(
            dataclasses.replace(theirs, **CHANGE[cls])
        )
    for args, kwargs in BAD[cls]:
        with pytest.raises(TypeError):
            twin(*args, **kwargs)
        with pytest.raises(TypeError):
            cls(*args, **kwargs)


def test_factories_make_a_new_value_for_each_instance():
    a, b = GameState(), GameState()
    assert a.units is not b.units and a.sides is not b.sides and a.scrounged is not b.scrounged


def test_a_recursive_value_reprs_as_the_dataclass_does():
    state = GameState()
    state.cvp_overrides = state  # (a cycle, as repr must survive)
    twin = _twin(GameState)()
    twin.cvp_overrides = twin
    assert repr(state).replace("GameState", "") == repr(twin).replace("GameState", "")


# Every dataclass method compiled from source while the state is imported, by class.
COMPILED_CHILD = """
import dataclasses, json
compiled = []
create = dataclasses._create_fn
def counted(name, *args, **kwargs):
    compiled.append(name)
    return create(name, *args, **kwargs)
dataclasses._create_fn = counted
import stockade.core.model.state
print(json.dumps(compiled))
"""


def test_the_state_is_made_without_compiling_a_method():
    """No dataclass method is compiled from source: ``Unit``'s are written once
    (core/model/unit_layout.py), ``Origin``'s in its class (main compiled Origin's
    ``__init__``, ``__repr__`` and ``__eq__``)."""
    done = subprocess.run(
        [sys.executable, "-c", COMPILED_CHILD], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    compiled = json.loads(done.stdout)
    assert compiled == [], compiled


def _origin_twin() -> type:
    """``Origin`` as ``@dataclass(slots=True)`` makes it from its fields alone."""

    @dataclasses.dataclass(slots=True)
    class Origin:
        handle: str
        unit_kind: str
        counter: str
        cvp: int

    Origin.__qualname__ = "Origin"  # (made in a function: its repr names the class alone)
    return Origin


def test_origin_reads_as_the_dataclass_it_is_declared_as():
    twin = _origin_twin()
    args = ("zx1", "crew", "2-2-8", 1)
    for made in (
        lambda cls: cls(*args),
        lambda cls: cls(handle="zx1", unit_kind="crew", counter="2-2-8", cvp=1),
        lambda cls: cls("zx1", "crew", counter="2-2-8", cvp=1),
    ):
        ours, theirs = made(Origin), made(twin)
        assert repr(ours) == repr(theirs)
        assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)
        assert dataclasses.astuple(ours) == dataclasses.astuple(theirs)
    assert Origin(*args) == Origin(*args) and Origin(*args) != Origin("zx1", "crew", "2-2-8", 2)
    assert Origin(*args) != twin(*args) and Origin(*args).__eq__(twin(*args)) is NotImplemented
    assert Origin.__hash__ is None and twin.__hash__ is None
    assert Origin.__slots__ == twin.__slots__ and not hasattr(Origin(*args), "__dict__")
    assert Origin.__match_args__ == twin.__match_args__
    assert [(f.name, f.type) for f in dataclasses.fields(Origin)] == [
        (f.name, f.type) for f in dataclasses.fields(twin)
    ]
    replaced = dataclasses.replace(Origin(*args), cvp=3)
    assert type(replaced) is Origin and replaced == Origin("zx1", "crew", "2-2-8", 3)
    for bad_args, bad_kwargs in (((), {}), (args[:3], {}), (args, {"cvp": 2}), (args + (1,), {})):
        with pytest.raises(TypeError) as ours_error:
            Origin(*bad_args, **bad_kwargs)
        with pytest.raises(TypeError) as their_error:
            twin(*bad_args, **bad_kwargs)
        assert str(ours_error.value).split("()", 1)[1] == str(their_error.value).split("()", 1)[1]
