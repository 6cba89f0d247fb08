"""``parse``: one command line -> its ``Command``; ``plan``: a command -> the events it
would record (pure: both write nothing)."""

from __future__ import annotations

import msgspec

from stockade.core.commands import verbs_add as add
from stockade.core.commands import verbs_capture as capture
from stockade.core.commands import verbs_control as control
from stockade.core.commands import verbs_escape as escape
from stockade.core.commands import verbs_guards as guards
from stockade.core.commands import verbs_losses as losses
from stockade.core.commands import verbs_setup as setup
from stockade.core.commands import verbs_victory as victory
from stockade.core.commands.clock import follow_entries
from stockade.core.commands.command import Blank, Command
from stockade.core.commands.forced import with_forced
from stockade.core.commands.grammar import verb_at
from stockade.core.commands.handles import Context
from stockade.core.commands.implied import with_board_facts
from stockade.core.commands.lexer import is_blank, split_sections, words
from stockade.core.commands.meanings import meaning_hint, said_as, term_named
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal
from stockade.core.model.state import GameState
from stockade.core.rules.timing import ClockMove

# Every verb's Command class, by the verb's name (its VerbSpec in grammar.VERBS).
_CLASSES: tuple[type[Command], ...] = (
    add.Add,
    setup.Next,
    setup.Prev,
    setup.Skip,
    setup.Turn,
    setup.Phase,
    *setup.STATUS_COMMANDS,
    setup.Move,
    setup.NoQuarter,
    setup.End,
    capture.Surrender,
    capture.Reject,
    capture.Capture,
    capture.Mutual,
    capture.Recapture,
    guards.Transfer,
    guards.Exchange,
    guards.Split,
    guards.Deploy,
    guards.Abandon,
    guards.Escort,
    losses.Eliminate,
    losses.Reduce,
    losses.Massacre,
    escape.Escape,
    escape.Withdraw,
    escape.Infiltrate,
    escape.GuardInfiltrates,
    escape.Rearm,
    escape.Scrounge,
    victory.VictoryConditionsSet,
    victory.Exit,
    victory.Control,
    control.Undo,
    control.Redo,
    control.Strike,
    control.Unstrike,
    control.Amend,
    control.Help,
)
COMMANDS: dict[str, type[Command]] = {cls.verb: cls for cls in _CLASSES}


def parse(text: str, state: GameState) -> Command:
    """Read one command line against ``state``. Raises Refusal for anything it cannot read."""
    return read_line(text, state)[0]


def writes_nothing(text: str) -> bool:
    """Whether the line, whatever the game, records nothing (blank, or ``help``): a
    caller may then read the game without taking its write lock."""
    if is_blank(text):
        return True
    tokens = words(text)
    spec, _ = verb_at(tokens)
    return not tokens or (spec is not None and COMMANDS[spec.name] is control.Help)


def read_line(text: str, state: GameState) -> tuple[Command, list[str]]:
    """``parse``, with what reading decided for the player ("@P4: g1 g2 g3"): the
    command holds only the handles, so the reply takes these from here."""
    ctx = Context(state)
    return _read(text, ctx), ctx.notes


def _read(text: str, ctx: Context) -> Command:
    state = ctx.state
    if is_blank(text):
        return Blank()
    tokens = words(text)
    if not tokens:
        return Blank()
    spec, used = verb_at(tokens)
    if spec is None:
        # an A20 term of two words (no quarter) is answered as a whole
        said = " ".join(tokens[:2]) if term_named(" ".join(tokens[:2])) else tokens[0]
        raise InputRefusal(f"'{said}' is not a command", meaning_hint(said))
    cls = COMMANDS[spec.name]
    if not issubclass(cls, control.Control) and not state.sides:
        raise InputRefusal("there is no game to record into")
    arity = {} if cls.whole_line else spec.arity
    try:
        return cls.read(ctx, split_sections(spec.name, tokens[used:], arity))
    except InputRefusal as refusal:
        said = " ".join(tokens[:used])
        if said.lower() == spec.name:
            raise
        # a player's word for the verb: say which verb it was read as
        raise refusal.with_hint(
            said_as(said, spec) + (f"; {refusal.hint}" if refusal.hint else "")
        ) from None


class Parsed(msgspec.Struct):
    """What a command means for the game now.

    ``events`` are the domain events to submit as one group; control verbs (undo,
    redo, strike, unstrike, help) carry none. ``made`` lists the handles the command
    allocates for new counters.
    """

    command: Command
    events: list[ev.Record] = msgspec.field(default_factory=list)
    made: list[str] = msgspec.field(default_factory=list)
    # the clock move leading ``events`` when they belong to a later phase of this
    # Player Turn (``core.commands.clock.follow_entries``)
    clock_moved: ClockMove | None = None
    clock_from: str = ""
    clock_from_turn: tuple[int, str] = (0, "")
    # what reading the line decided: the units a stack (@P4) stands for, a value the
    # game allowed only one of (``read_line``); empty for a command given as a value
    notes: list[str] = msgspec.field(default_factory=list)
    # how many board facts the entry implies (``core.commands.implied``): recorded
    # after the clock's move, before the entry's own events
    implied: int = 0
    # the indexes in ``events`` of what the rules made happen in the phases the clock
    # passed (``core.commands.forced``: A20.4's berserk Massacre), the clock's stops
    # at those phases included
    forced: list[int] = msgspec.field(default_factory=list)

    @property
    def verb(self) -> str:
        return self.command.verb

    @property
    def control(self) -> str | None:
        return self.command.verb if isinstance(self.command, control.Control) else None

    @property
    def target(self) -> int | None:
        return getattr(self.command, "target", None)

    @property
    def reason(self) -> str:
        return getattr(self.command, "reason", "") if self.control else ""

    @property
    def text(self) -> str:
        return self.command.text() if isinstance(self.command, control.Help) else ""


def plan(command: Command | str, state: GameState, first_attacker: str | None = None) -> Parsed:
    """The events ``command`` (or a line) would record against ``state``, writing nothing.

    ``first_attacker`` is the side that moves first in each Game Turn (the clock needs
    it to know when the turn number goes up); by default the game's first side.
    """
    notes: list[str] = []
    if isinstance(command, str):
        command, notes = read_line(command, state)
    if isinstance(command, control.Control):
        return Parsed(command, notes=notes)
    ctx = Context(state, first_attacker)
    events, moved = command.events(ctx), None
    if command.follows_clock:
        events, moved = follow_entries(state, events)
    events, implied = with_board_facts(state, events)
    events, forced = with_forced(state, events, ctx.first_attacker)
    return Parsed(
        command,
        events,
        list(ctx.made),
        clock_moved=moved,
        clock_from=state.phase,
        clock_from_turn=(state.turn, state.attacker),
        notes=[*notes, *ctx.notes],  # what reading the line, then the entry, decided
        implied=implied,
        forced=forced,
    )


help_text = control.help_text
