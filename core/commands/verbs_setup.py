"""Verbs that set the table: add units, the turn clock, board status, NQ, end."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, TypedDict

from stockade.core.commands import clock
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections
from stockade.core.commands.words import number
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.units import KIND_WORDS, TRAITS, infer_kind, parse_counter, vehicle_name

_REPEAT = re.compile(r"^[x\*](\d+)$")
_CVP = re.compile(r"^cvp=(\d+)$")
MAX_REPEAT = 20  # a typo like x77 should be refused, not make 77 counters


# -------------------------------------------------------------------------- add
@dataclass
class _Draft:
    """One counter as typed in ``add``, before it gets its handle."""

    counter: str
    kind: str | None = None
    count: int = 1
    handle: str | None = None
    traits: list[str] = field(default_factory=list)
    cvp: int | None = None


def parse_add(ctx: Context, sections: Sections) -> list[ev.Record]:
    words = sections.positional
    if not words:
        raise Refusal("input", "'add' needs a side and a counter", "add German 4-6-7 at Q4")
    side = ctx.side(words[0])
    drafts, location, broken = _read_add_words(words[1:])
    events: list[ev.Record] = []
    for draft in drafts:
        kind = _kind_of(draft)
        for _ in range(draft.count):
            events.append(
                ev.UnitEntered(
                    handle=ctx.new_handle(side, draft.handle),
                    side=side,
                    unit_kind=kind,
                    counter=draft.counter,
                    location=location,
                    traits=sorted(set(draft.traits)),
                    cvp=draft.cvp,
                    broken=broken,
                )
            )
    return events


def _read_add_words(words: list[str]) -> tuple[list[_Draft], str, bool]:
    drafts: list[_Draft] = []
    location, broken = "", False
    i = 0
    while i < len(words):
        word, low = words[i], words[i].lower()
        if word[:1].isdigit() or word.startswith("("):
            drafts.append(_Draft(parse_counter(word).text))
        elif _is_vehicle_word(words[i + 1] if i + 1 < len(words) else "") and low not in (
            "at",
            "as",
            "broken",
        ):
            # a vehicle is entered by its name (add German StuG vehicle cvp=4): it blocks
            # a rearm (A20.551) and, manned, cannot be captured (A20.22)
            drafts.append(_Draft(vehicle_name(word), kind="vehicle"))
            i += 1
        elif low == "at" or low == "as":
            if i + 1 >= len(words):
                raise Refusal("input", f"'{low}' needs a value in 'add'")
            i += 1
            if low == "at":
                location = words[i]
            else:
                _last(drafts, "as").handle = words[i]
        elif low == "broken":
            broken = True
        elif low in KIND_WORDS:
            _last(drafts, low).kind = low
        elif match := _REPEAT.match(low):
            _last(drafts, low).count = _repeat(int(match.group(1)))
        elif low.startswith("+"):
            _last(drafts, low).traits.append(_trait(low[1:]))
        elif match := _CVP.match(low):
            _last(drafts, low).cvp = int(match.group(1))
        else:
            raise Refusal(
                "input",
                f"'{word}' is out of place in 'add'",
                "add SIDE COUNTER [kind] [xN] [as H] [+trait] [cvp=N] [at LOC] [broken]",
            )
        i += 1
    if not drafts:
        raise Refusal("input", "'add' needs at least one counter", "like 4-6-7 or 9-2")
    for draft in drafts:
        if draft.handle and draft.count > 1:
            raise Refusal("input", f"'as {draft.handle}' names one counter, not {draft.count}")
    return drafts, location, broken


def _is_vehicle_word(word: str) -> bool:
    return KIND_WORDS.get(word.lower()) == "vehicle"


def _kind_of(draft: _Draft) -> str:
    if draft.kind and _is_vehicle_word(draft.kind):
        return "vehicle"  # a vehicle's "counter" is its name: nothing to read from it
    return infer_kind(parse_counter(draft.counter), draft.kind)


def _last(drafts: list[_Draft], word: str) -> _Draft:
    if not drafts:
        raise Refusal(
            "input", f"'{word}' must follow the counter it is about", "add German 2-4-7 hs"
        )
    return drafts[-1]


def _repeat(count: int) -> int:
    if not 1 <= count <= MAX_REPEAT:
        raise Refusal("input", f"x{count}: add between 1 and {MAX_REPEAT} counters at once")
    return count


def _trait(name: str) -> str:
    if name not in TRAITS:
        raise Refusal(
            "input", f"unknown trait '+{name}'", "traits: " + ", ".join("+" + t for t in TRAITS)
        )
    return name


# ------------------------------------------------------------------------ clock
def parse_next(ctx: Context, sections: Sections) -> list[ev.Record]:
    _nothing_more(sections)
    return [clock.next_phase(ctx.state, ctx.first_attacker)]


def parse_prev(ctx: Context, sections: Sections) -> list[ev.Record]:
    _nothing_more(sections)
    return [clock.previous_phase(ctx.state, ctx.first_attacker)]


def parse_skip(ctx: Context, sections: Sections) -> list[ev.Record]:
    _nothing_more(sections)
    return [clock.next_a20_phase(ctx.state, ctx.first_attacker)]


def parse_turn(ctx: Context, sections: Sections) -> list[ev.Record]:
    _nothing_more(sections)
    return [clock.next_player_turn(ctx.state, ctx.first_attacker)]


def parse_phase(ctx: Context, sections: Sections) -> list[ev.Record]:
    """``phase RtPh``, ``phase ccph 3``, ``phase rph 4 American`` (any order after NAME)."""
    words = sections.positional
    if not words:
        raise Refusal("input", "'phase' needs a phase name", "one of " + ", ".join(ev.PHASES))
    phase = clock.phase_named(words[0])
    turn, attacker = ctx.state.turn, ctx.state.attacker
    for word in words[1:]:
        if word.isdigit():
            turn = number(word, "the Game Turn")
        else:
            attacker = ctx.side(word)
    return [ev.PhaseSet(turn=turn, attacker=attacker, phase=phase)]


def _nothing_more(sections: Sections) -> None:
    if sections.positional:
        raise Refusal(
            "input",
            f"'{sections.verb}' takes nothing more; '{sections.positional[0]}' is out of place",
        )


# ----------------------------------------------------------------- board status
StatusFlag = Literal["broken", "pinned", "berserk", "disrupted", "melee"]


class StatusFlags(TypedDict, total=False):
    """The on/off fields of StatusChanged that a status verb may set."""

    broken: bool
    pinned: bool
    berserk: bool
    disrupted: bool
    melee: bool


# verb -> the StatusChanged field it sets and the value it sets it to
STATUS_VERBS: dict[str, tuple[StatusFlag, bool]] = {
    "break": ("broken", True),
    "rally": ("broken", False),
    "pin": ("pinned", True),
    "unpin": ("pinned", False),
    "berserk": ("berserk", True),
    "disrupt": ("disrupted", True),
    "melee": ("melee", True),
}


def parse_status(ctx: Context, sections: Sections) -> list[ev.Record]:
    name, value = STATUS_VERBS[sections.verb]
    if sections.has("off"):
        value = not value
    handles = ctx.units(sections.positional)
    flags: StatusFlags = {}
    flags[name] = value
    return [ev.StatusChanged(handle=h, **flags) for h in handles]


def parse_move(ctx: Context, sections: Sections) -> list[ev.Record]:
    words = sections.positional
    if len(words) < 2:
        raise Refusal("input", "'move' needs units and a Location", "move a1 R5")
    handles = ctx.units(words[:-1])
    return [ev.StatusChanged(handle=h, location=words[-1]) for h in handles]


def parse_nq(ctx: Context, sections: Sections) -> list[ev.Record]:
    words = sections.positional
    if not words:
        raise Refusal("input", "'nq' needs the side under No Quarter", "nq Russian")
    return [ev.NoQuarterInvoked(side=ctx.side(words[0]), reason=" ".join(words[1:]) or "SSR")]


def parse_end(ctx: Context, sections: Sections) -> list[ev.Record]:
    _nothing_more(sections)
    return [ev.GameEnded()]


__all__ = [
    "parse_add",
    "parse_next",
    "parse_prev",
    "parse_turn",
    "parse_phase",
    "parse_skip",
    "parse_status",
    "parse_move",
    "parse_nq",
    "parse_end",
    "STATUS_VERBS",
]
