"""Every verb's ``Command`` reads back from its own line: ``parse(str(c)) == c`` for
commands generated from the verbs' declarations (``core.commands.grammar``), against a
game where the handles exist. A refusal fails the property: nothing is skipped."""

from __future__ import annotations

from functools import cache

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stockade.core.book.game import Game
from stockade.core.commands import COMMANDS, VERBS, Command, Kind, Slot, parse, run_script
from stockade.core.commands.command import MergeSpec, Pair, is_stack
from stockade.core.commands.grammar import RESERVED_WORDS, verb_named
from stockade.core.commands.handles import Context
from stockade.core.commands.verbs_add import Draft
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState


@cache
def table() -> GameState:
    """American 9-2 a1, 6-6-6 a2, 3-3-7 HS a3; German 4-6-7 g1 (a prisoner), 2-4-7 HS
    g2, 8-0 g3, 4-6-7 g4 (abandoned, unarmed)."""
    game = Game.in_memory(
        "roundtrip", [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]
    )
    run_script(
        game,
        [
            "add American 9-2 6-6-6 3-3-7 hs at Q4",
            "add German 4-6-7 2-4-7 hs 8-0 at Q5 broken",
            "add German 4-6-7 at Q5 broken",
            "phase rtph",
            'surrender g1 to a2 because "the others may rout"',
            'surrender g4 to a1 because "the others may rout"',
            "next",
            "abandon g4",
        ],
    )
    return game.state


HANDLES = st.sampled_from(["a1", "a2", "a3", "g1", "g2", "g3", "g4"])
SIDES = st.sampled_from(["American", "German"])
COUNTERS = st.sampled_from(["4-6-7", "6-6-6", "2-4-7", "9-1", "8-0", "5-4-6", "(1)-0-6"])
# A Location reads as the board names it (p4 is the P4 where units stand, @P4 is P4): a
# generated one spelled another way than the table's is not a canonical value.
TABLE_LOCATIONS = {"Q4", "Q5"}
LOCATIONS = (
    st.from_regex(r"[A-Za-z]{1,2}[0-9]{1,2}", fullmatch=True) | st.text(min_size=1)
).filter(
    lambda loc: (
        (loc in TABLE_LOCATIONS or loc.lower() not in {"q4", "q5"}) and not is_stack(loc)
    )  # @P4 names the hex P4
)
NUMBERS = st.integers(min_value=0, max_value=10**6)
NEW_HANDLES = st.from_regex(r"[a-z][a-z0-9_]{0,4}", fullmatch=True).filter(
    # free, and reading like no handle in use ('al' beside 'a1' is refused)
    lambda h: h not in RESERVED_WORDS and verb_named(h) is None and not Context(table()).taken(h)
)
PRINTABLE = st.characters(blacklist_categories=("Cc", "Cs"))


def text_for(verb: str) -> st.SearchStrategy[str]:
    """Free text; a text that is exactly one of the verb's keywords would read as it."""
    keywords = set(VERBS[verb].arity)
    return st.text(PRINTABLE, max_size=20).filter(lambda t: t.lower() not in keywords)


def handles(required: bool) -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(HANDLES, min_size=1 if required else 0, max_size=4).map(tuple)


def optional(strategy: st.SearchStrategy, empty: object) -> st.SearchStrategy:
    return st.one_of(st.just(empty), strategy)


def of_slot(verb: str, slot: Slot) -> st.SearchStrategy:
    """What one slot may hold, by its kind."""
    kind = slot.kind
    plain = {
        Kind.UNIT: HANDLES,
        Kind.UNITS: handles(slot.required),
        Kind.SIDE: SIDES,
        Kind.COUNTERS: st.lists(COUNTERS, max_size=2).map(tuple),
        Kind.COUNTER: COUNTERS if slot.required else optional(COUNTERS, ""),
        Kind.LOCATION: LOCATIONS if slot.required else optional(LOCATIONS, ""),
        Kind.NUMBER: NUMBERS if slot.required else optional(NUMBERS, None),
        Kind.TEXT: text_for(verb),
        Kind.WORD: optional(NEW_HANDLES, ""),
        Kind.FLAG: st.booleans(),
        Kind.PHASE: st.sampled_from(ev.PHASES),
        Kind.VERB: st.sampled_from(["", "rulings", "A20.55", *VERBS]),
        Kind.NEW_HANDLE: optional(NEW_HANDLES, None),
        Kind.NEW_HANDLES: optional(st.tuples(NEW_HANDLES, NEW_HANDLES), ()),
        Kind.TAKEOVER: optional(HANDLES | st.just("-"), None),
        Kind.CHOICE: st.sampled_from(slot.choices),
        Kind.CAUSE: optional(st.sampled_from(slot.choices) | SIDES, None),
        Kind.PAIR: optional(st.builds(Pair, HANDLES, optional(COUNTERS, "")), None),
        Kind.ASSIGN: st.lists(
            st.builds(Pair, HANDLES, optional(COUNTERS, "")), min_size=1, max_size=3
        ).map(tuple),
        Kind.MERGES: st.lists(
            st.builds(MergeSpec, st.tuples(HANDLES, HANDLES), optional(NEW_HANDLES, None)),
            max_size=2,
        ).map(tuple),
    }
    if kind is Kind.ONE_OF:
        return st.sampled_from(("rtph", *slot.choices))
    return plain[kind]


DRAFTS = st.builds(
    lambda made, count, handle, traits, cvp: Draft(
        made[0],
        made[1],
        count if handle is None else 1,
        handle,
        tuple(traits),
        cvp if cvp is not None or made[1] != "vehicle" else 4,  # a vehicle's CVP is asked
    ),
    st.sampled_from(
        [
            ("4-6-7", None),
            ("4-6-7", "squad"),
            ("2-4-7", "hs"),
            ("2-4-7", "crew"),
            ("9-1", None),
            ("8-0", "leader"),
            ("StuG", "vehicle"),
        ]
    ),
    st.integers(min_value=1, max_value=20),
    optional(NEW_HANDLES, None),
    st.lists(st.sampled_from(["fanatic", "commissar", "elite", "ss"]), max_size=2, unique=True),
    optional(st.integers(min_value=0, max_value=20), None),
)

# Slots whose values hang together in ways one slot's kind cannot say.
SPECIAL: dict[str, dict[str, st.SearchStrategy]] = {
    # either every counter at the one ``at``, or each with its own Location
    "add": {
        "counters": st.lists(DRAFTS, min_size=1, max_size=3).map(tuple)
        | st.lists(
            st.tuples(DRAFTS, st.sampled_from(["Q5", "R6", "aa10"]) | LOCATIONS, st.booleans()).map(
                lambda made: msgspec.structs.replace(made[0], at=made[1], broken=made[2])
            ),
            min_size=2,
            max_size=4,
        ).map(tuple)
    },
    "mutual": {
        "units": st.lists(
            st.builds(Pair, HANDLES, optional(COUNTERS, "")),
            min_size=1,
            max_size=3,
            unique_by=lambda p: p.handle,
        ).map(tuple)
    },
    "deploy": {
        "assign": st.lists(st.builds(Pair, HANDLES, st.sampled_from(["1", "2"])), max_size=2).map(
            tuple
        ),
    },
    "exchange": {"units": st.tuples(HANDLES, HANDLES)},
    "strike": {"reason": text_for("strike")},
    # the clauses as a card reads them (a random text is no Victory Condition)
    "vc": {
        "conditions": st.sampled_from(
            [
                "none",
                "German wins at end if amassed >= 20",
                "American loses immediately if suffered >= 12",
                "German wins if amassed > American ; otherwise draw",
                "American wins if controls 2 of P4 Q5 R6 or exit >= 12 off east",
            ]
        ),
    },
    "control": {
        "locations": st.lists(
            st.from_regex(r"[A-Z]{1,2}[0-9]{1,2}", fullmatch=True), min_size=1, max_size=3
        ).map(" ".join),
        "side": st.sampled_from(["American", "German", ""]),
    },
}


@cache
def commands(verb: str) -> st.SearchStrategy[Command]:
    """Commands of ``verb``, every field from its slot; those the verb's own checks
    refuse (two flags that exclude each other) are left out. Made once a verb: each
    example draws from the same strategy, which hypothesis validates once (a new one for
    every example was validated again each time: nine tenths of this module's CPU)."""
    cls = COMMANDS[verb]
    special = SPECIAL.get(verb, {})
    fields = {
        s.name: special[s.name] if s.name in special else of_slot(verb, s)
        for s in VERBS[verb].slots
    }
    return st.builds(cls, **fields).filter(accepted)


def accepted(command: Command) -> bool:
    try:
        command.check(Context(table()))
    except Refusal:
        return False
    return True


def test_every_verb_declares_the_fields_of_its_command():
    assert set(COMMANDS) == set(VERBS)
    for verb, cls in COMMANDS.items():
        names = cls.field_names()
        assert sorted(names) == sorted(s.name for s in VERBS[verb].slots), verb


@pytest.mark.parametrize("verb", sorted(VERBS))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_command_reads_back_from_its_own_line(verb, data):
    command = data.draw(commands(verb))
    line = str(command)
    assert parse(line, table()) == command, line
