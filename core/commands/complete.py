"""``complete``: what the word being typed could be, the likeliest first.

Reads the line so far with the verb's grammar: the first word completes to verbs;
after a keyword, to what that keyword takes; otherwise to the verb's positional kind
and its keywords. Handles come relevant-first: prisoners for ``transfer``, broken units
for ``surrender``, armed enemies of the surrendering stack for ``to``. A units slot
then offers ``@LOC`` for each Location holding units its picks allow (the stack there,
as the reader takes it: ``command.stack``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from stockade.core.commands.grammar import PLAYER_WORD_VERBS, VERBS, verb_at
from stockade.core.commands.handles import reference
from stockade.core.commands.picks import UNIT_FILTERS
from stockade.core.commands.verb_spec import REARM_HOWS, STACK_MARK, Kind, Slot, VerbSpec
from stockade.core.commands.vocabulary import TERMS
from stockade.core.model.events import PHASES
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import PRISONER
from stockade.core.model.units import KIND_WORDS, TRAITS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from stockade.core.reads.queries import Choice

# Verbs whose captor/guard keyword names a unit of the other side than the units named.
_ENEMY_OF_NAMED = frozenset({"surrender", "capture", "recapture", "massacre"})
_ADD_WORDS = ["at", "as", "broken"] + sorted(set(KIND_WORDS)) + [f"+{t}" for t in TRAITS]


def complete(text: str, state: GameState) -> list[str]:
    """Completions for the last word of ``text`` (the whole word, not the rest of it)."""
    tokens = text.split()
    typing = "" if not text or text[-1].isspace() else tokens.pop()
    if not tokens:
        # the verbs, then (once a letter is typed) a player's word for each verb that
        # none of them begins: "refu" offers refuse (reject), "tr" transfer alone
        verbs = _matching(list(VERBS), typing)
        if not typing:
            return verbs
        words: dict[str, str] = {}
        for word in _matching(_player_words(), typing):
            words.setdefault(PLAYER_WORD_VERBS[word], word)
        return verbs + [word for verb, word in words.items() if verb not in verbs]
    spec, used = verb_at(tokens)
    if spec is None:
        return []
    return _matching(_candidates(spec, tokens[used:], state), typing, state)


def _player_words() -> list[str]:
    """The players' single words for the verbs (a phrase is two words: not one word)."""
    return [word for word in PLAYER_WORD_VERBS if " " not in word]


def _matching(candidates: list[str], typing: str, state: GameState | None = None) -> list[str]:
    """The candidates ``typing`` begins; a unit's handle also when ``typing`` begins its
    counter or its ``COUNTER@LOC`` (as ``resolve_unit`` reads it), so ``4-5`` offers the
    4-5-8s by handle."""
    seen: set[str] = set()
    out = []
    typed = typing.lower()
    for word in candidates:
        if (word.lower().startswith(typed) or _board_name_begins(word, typed, state)) and (
            word not in seen
        ):
            seen.add(word)
            out.append(word)
    return out


def _board_name_begins(word: str, typed: str, state: GameState | None) -> bool:
    unit = state.units.get(word) if state is not None and typed else None
    return (
        unit is not None
        and unit.on_board
        and bool(unit.counter)
        and reference(unit).lower().startswith(typed)
    )


def _candidates(spec: VerbSpec, before: list[str], state: GameState) -> list[str]:
    named = [w for w in before if w in state.units]
    if spec.name == "add":
        return list(state.sides) if not before else _ADD_WORDS
    if spec.name == "phase":
        return list(PHASES) if not before else list(state.sides)
    if spec.name == "rearm" and len(before) == 1:
        return list(REARM_HOWS)
    keyword, after = _last_keyword(spec, before)
    unused = [k for k in spec.arity if k not in before]
    if keyword is None:
        first = spec.positional[0] if spec.positional else None
        if first is None:
            return unused
        if first.kind is not Kind.UNITS and before:
            return unused  # the one word is given; only keywords may follow
        offers = _offers(first, spec, before, state)
        words = _of_kind(first, spec, state, named, exclude=named, offers=offers)
        return _then_keywords(
            first,
            state,
            words,
            _stacks(first, state, named, before, offers),
            unused if before else [],
        )
    slot = spec.keyword_slots[keyword]
    if slot.arity == "flag" or (slot.arity == "one" and after):
        return unused
    offers = _offers(slot, spec, before, state)
    words = _of_kind(slot, spec, state, named, exclude=named, offers=offers)
    return _then_keywords(
        slot, state, words, _stacks(slot, state, named, before, offers), unused if after else []
    )


def _then_keywords(
    slot: Slot, state: GameState, words: list[str], stacks: list[str], keywords: list[str]
) -> list[str]:
    """The slot's words, with the verb's keywords still unused (escape's ntcfail,
    guard-dies, melee...) before the units the slot does not look for: once a unit is
    named, what happened is likelier than another unit that does not fit."""
    if not keywords or not slot.is_unit:
        return words + stacks + keywords
    fits = UNIT_FILTERS.get(slot.which, UNIT_FILTERS["any"])
    units = state.units
    likely = [w for w in words if w not in units or fits(state, units[w])]
    rest = [w for w in words if w not in likely]
    return likely + stacks + keywords + rest


def _offers(slot: Slot, spec: VerbSpec, before: list[str], state: GameState) -> list[Choice]:
    """What a units slot's picker offers given the line so far (the list a form shows,
    with the core's verdict on each): its ``@LOC`` stacks need it, and its handles are
    then ranked by it at no extra cost. A one-unit slot is ranked by its filter alone:
    its query (every captor judged against every enemy) would cost a keystroke a
    quarter of a second on a board of 300 units (measured: 246 ms against 25 ms)."""
    if slot.kind is not Kind.UNITS:
        return []
    return slot.offers()(state, _line_values(spec, before))


def _stacks(
    slot: Slot, state: GameState, named: list[str], before: list[str], offers: list[Choice]
) -> list[str]:
    """``@LOC`` for a units slot: each Location where the slot's picks (given the line so
    far) allow units of the sides it takes (``Slot.stack_fits``), as ``@LOC`` is read;
    not one already given, nor
    one whose units are all named already."""
    if slot.kind is not Kind.UNITS:
        return []
    units = state.units
    sides: dict[str, set[str]] = {}
    unnamed: set[str] = set()
    for choice in offers:
        unit = units.get(choice.handle)
        if not choice.legal or unit is None or not unit.on_board or not unit.location:
            continue
        sides.setdefault(unit.location, set()).add(unit.side)
        if unit.handle not in named:
            unnamed.add(unit.location)
    given = {w[1:].lower() for w in before if w.startswith(STACK_MARK)}
    return [
        STACK_MARK + place
        for place in sorted(sides, key=_natural)
        if slot.stack_fits(len(sides[place])) and place in unnamed and place.lower() not in given
    ]


def _line_values(spec: VerbSpec, before: list[str]) -> dict[str, object]:
    """What the line so far gives each slot, as a form would hold it: the ``values`` a
    slot's picks judge by (surrender's captor, capture's attacker)."""
    out: dict[str, object] = {}
    keyword_slots = spec.keyword_slots
    current: Slot | None = spec.positional[0] if spec.positional else None
    words: list[str] = []

    def put(slot: Slot | None) -> None:
        if slot is not None and words:
            out[slot.name] = list(words) if slot.arity == "many" else words[0]

    for word in before:
        slot = keyword_slots.get(word.lower())
        if slot is None:
            words.append(word)
            continue
        put(current)
        words = []
        if slot.arity == "flag":
            out[slot.name] = word.lower() if slot.kind is Kind.ONE_OF else True
            current = None
        else:
            current = slot
    put(current)
    return out


def _last_keyword(spec: VerbSpec, before: list[str]) -> tuple[str | None, list[str]]:
    keywords = spec.arity
    for index in range(len(before) - 1, -1, -1):
        if before[index].lower() in keywords:
            return before[index].lower(), before[index + 1 :]
    return None, before


def _of_kind(
    slot: Slot,
    spec: VerbSpec,
    state: GameState,
    named: list[str],
    exclude: list[str],
    offers: list[Choice] | None = None,
) -> list[str]:
    kind = slot.kind
    if kind is Kind.SIDE:
        return list(state.sides)
    if kind is Kind.CAUSE:
        return list(slot.choices) + list(state.sides)
    legal = {c.handle: c for c in offers if c.legal} if offers and slot.picks else None
    if kind is Kind.TAKEOVER:
        return _handles(slot.which, spec, state, named, exclude, legal) + ["-"]
    if kind is Kind.PHASE:
        return list(PHASES)
    if kind is Kind.VERB:  # help's topic: a verb, or an A20 term
        return list(VERBS) + [term.title.lower() for term in TERMS]
    if kind in (Kind.CHOICE, Kind.ONE_OF):
        return list(slot.choices)
    if slot.is_unit:
        return _handles(slot.which, spec, state, named, exclude, legal)
    return []  # counters, numbers, Locations and free text cannot be guessed


def _handles(
    which: str,
    spec: VerbSpec,
    state: GameState,
    named: list[str],
    exclude: list[str],
    legal: Mapping[str, Choice] | None = None,
) -> list[str]:
    """Every unit on the board, the relevant first: those the slot's core query allows
    (``legal``, as the form's picker greys the rest; those it takes as the book stands
    before those it takes only with board facts the entry would imply), else those its
    filter keeps."""
    relevant = UNIT_FILTERS.get(which, UNIT_FILTERS["any"])
    preferred = _preferred_side(spec, state, named)
    ranked = []
    for u in state.units.values():
        if not u.on_board or u.handle in exclude:
            continue
        allowed = u.handle in legal if legal is not None else relevant(state, u)
        rank = 0 if allowed else 2
        if rank == 0 and preferred and u.side != preferred:
            rank = 1
        implies = bool(legal is not None and allowed and legal[u.handle].implies)
        ranked.append((rank, implies, _natural(u.handle), u.handle))
    return [handle for *_key, handle in sorted(ranked)]


def _preferred_side(spec: VerbSpec, state: GameState, named: list[str]) -> str:
    """For a captor/Guard keyword: the side that should be named there."""
    if not named:
        return ""
    first = state.units[named[0]]
    if spec.name in _ENEMY_OF_NAMED:
        return state.enemy_of(first.side)
    if first.status == PRISONER and first.guard:
        return state.units[first.guard].side  # transfer, takeover: the Guard's side
    return first.side


def _natural(handle: str) -> tuple[int | str, ...]:
    """g2 before g10 (the split alternates text and digits, so tuples compare
    str with str and int with int)."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", handle))


def offer_label(word: str, state: GameState) -> str:
    """A completion as the player reads it: a handle with its counter and Location
    (``a3 4-6-7 Q4``), any other word as it is."""
    u = state.units.get(word)
    if u is None:
        return word
    counter = u.counter
    if not u.armed and u.origins:  # a (1)-0-6 says little: what it was, and what it is now
        counter = "+".join(o.counter for o in u.origins) + f" {u.status}"
    return " ".join(part for part in (u.handle, counter, u.location) if part)


def offers_line(offers: list[str], state: GameState, width: int = 60) -> str:
    """As many labelled completions as fit in ``width`` characters, then "+N more"."""
    shown: list[str] = []
    used = 0
    for i, word in enumerate(offers):
        label = offer_label(word, state)
        more = len(offers) - i
        if shown and used + len(label) + 2 > width - (8 if more > 1 else 0):
            return " · ".join(shown) + f" · +{more} more"
        shown.append(label)
        used += len(label) + 3
    return " · ".join(shown)
