"""The board as text: every unit and each side's flags, as the side panels hold them
(``stockade show``). Typed rows, so the CLI's ``--json`` encodes them as they are."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import msgspec

from stockade.core.model.columns import laid_out
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import Unit
from stockade.core.model.units import KIND_NAMES, TRAITS
from stockade.core.reads.views import counter_text, status_words


class UnitRow(msgspec.Struct, frozen=True):
    handle: str
    side: str  # the side that owns it (a prisoner's own side, not its captor's)
    counter: str  # as it stands: "(1)-0-6 [was 4-6-7 squad]" for an unarmed one
    kind: str  # squad, HS, crew, leader...
    location: str  # "" when the log never gave one
    status: str  # active / prisoner / unarmed / eliminated / escorted / gone
    guard: str | None  # a prisoner's Guard, else None
    melee: bool
    armed: bool
    states: list[str]  # the words the side panels show: broken, pinned, Melee...
    traits: list[str]  # as ``add`` takes them, without the '+': ss, commissar, fanatic...


class SideRow(msgspec.Struct, frozen=True):
    name: str
    nationality: str
    elr: int
    elr_raised: bool  # raised by an enemy Massacre (A20.4, once only)
    no_quarter: bool  # A20.3
    massacre: bool  # this side has committed a Massacre (A20.4)


class Board(msgspec.Struct, frozen=True):
    turn: int
    attacker: str
    phase: str
    ended: bool
    sides: list[SideRow]
    units: list[UnitRow]


def _row(u: Unit) -> UnitRow:
    return UnitRow(
        handle=u.handle,
        side=u.side,
        counter=counter_text(u),
        kind=KIND_NAMES[u.unit_kind],
        location=u.location,
        status=u.status,
        guard=u.guard,
        melee=u.melee,
        armed=u.armed,
        states=status_words(u),
        traits=[t for t in TRAITS if t in u.traits],
    )


def board(state: GameState, units: bool = True) -> Board:
    """The board; ``units`` False: its clock and sides only (``board_lines`` then reads
    the units' rows one at a time with ``unit_rows``)."""
    sides = [
        SideRow(s.name, s.nationality, s.elr, s.elr_raised, s.no_quarter, s.massacred)
        for s in state.sides.values()
    ]
    return Board(
        turn=state.turn,
        attacker=state.attacker,
        phase=state.phase,
        ended=state.ended,
        sides=sides,
        units=[_row(u) for u in state.units.values()] if units else [],
    )


def unit_rows(state: GameState) -> Callable[[str], Iterator[UnitRow]]:
    """The rows of a side's units, made as they are read (a campaign's every unit as a
    row, and its line, held at once cost ~300 bytes a unit on top of the game)."""
    units = state.units
    return lambda side: (_row(u) for u in units.values() if u.side == side)


def board_text(b: Board) -> str:
    """One line per side, then its units, one a line, in the order they were entered."""
    return "\n".join(board_lines(b, lambda side: (u for u in b.units if u.side == side)))


def board_lines(
    b: Board, rows_of: Callable[[str], Iterable[UnitRow]], width: int | None = None
) -> Iterator[str]:
    """``board_text``'s lines, one at a time; ``rows_of``: a side's units' rows;
    ``width``: the columns a line may take, its words wrapped under themselves past
    them (core/model/columns.py; None: each row on one line)."""
    yield "the game has ended" if b.ended else f"Game Turn {b.turn}, {b.attacker} {b.phase}"
    for side in b.sides:
        flags = [
            f"ELR {side.elr}" + (" (raised by an enemy Massacre, A20.4)" if side.elr_raised else "")
        ]
        flags.append("No Quarter (A20.3)" if side.no_quarter else "no No Quarter")
        flags.append("Massacre committed (A20.4)" if side.massacre else "no Massacre")
        yield ""
        yield from laid_out(f"{side.name} ({side.nationality}): ", ", ".join(flags), width)
        none = True
        for u in rows_of(side.name):
            none = False
            where = f" in {u.location}" if u.location else " (Location not given)"
            words = list(u.states)  # unarmed, eliminated... first; then broken, Melee...
            if u.status in ("active", "prisoner"):
                words.insert(
                    0, u.status + ("" if u.armed or u.status == "prisoner" else ", unarmed")
                )
            if u.guard:
                words.insert(1, f"Guard {u.guard}")
            traits = "".join(f" +{t}" for t in u.traits)
            said = f"{u.kind} {u.counter}{traits}{where}: {', '.join(words)}"
            yield from laid_out(f"  {u.handle}: ", said, width)
        if none:
            yield "  no units"
