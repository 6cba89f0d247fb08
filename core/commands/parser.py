"""``parse``: one command line -> the events it would record (pure; writes nothing)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from stockade.core.commands import verbs_capture as capture
from stockade.core.commands import verbs_escape as escape
from stockade.core.commands import verbs_guards as guards
from stockade.core.commands import verbs_losses as losses
from stockade.core.commands import verbs_setup as setup
from stockade.core.commands.clock import follow_entries
from stockade.core.commands.grammar import VERBS, VerbSpec, verb_named
from stockade.core.commands.handles import Context
from stockade.core.commands.lexer import Sections, is_blank, split_sections, words
from stockade.core.commands.words import number, one
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal
from stockade.core.model.state import GameState
from stockade.core.rules.timing import ClockMove

VerbParser = Callable[[Context, Sections], list[ev.Record]]

PARSERS: dict[str, VerbParser] = {
    "add": setup.parse_add,
    "next": setup.parse_next,
    "prev": setup.parse_prev,
    "turn": setup.parse_turn,
    "skip": setup.parse_skip,
    "phase": setup.parse_phase,
    "move": setup.parse_move,
    "nq": setup.parse_nq,
    "end": setup.parse_end,
    **{verb: setup.parse_status for verb in setup.STATUS_VERBS},
    "surrender": capture.parse_surrender,
    "reject": capture.parse_reject,
    "capture": capture.parse_capture,
    "mutual": capture.parse_mutual,
    "recapture": capture.parse_recapture,
    "transfer": guards.parse_transfer,
    "exchange": guards.parse_exchange,
    "split": guards.parse_split,
    "deploy": guards.parse_deploy,
    "abandon": guards.parse_abandon,
    "escort": guards.parse_escort,
    "eliminate": losses.parse_eliminate,
    "reduce": losses.parse_reduce,
    "massacre": losses.parse_massacre,
    "escape": escape.parse_escape,
    "withdraw": escape.parse_withdraw,
    "infiltrate": escape.parse_infiltrate,
    "guard-infiltrates": escape.parse_guard_infiltrates,
    "rearm": escape.parse_rearm,
    "scrounge": escape.parse_scrounge,
}


@dataclass
class Parsed:
    """What a command line means.

    ``events`` are the domain events to submit as one group. Control verbs (undo, redo,
    strike, unstrike, help) carry no events: ``control`` names the verb and ``target``
    the entry number (strike/unstrike); ``reason`` is a strike's reason, ``text`` the
    help text. ``made`` lists the handles the command allocates for new counters.
    """

    verb: str
    events: list[ev.Record] = field(default_factory=list)
    control: str | None = None
    target: int | None = None
    reason: str = ""
    made: list[str] = field(default_factory=list)
    text: str = ""
    # the clock move leading ``events`` when they belong to a later phase of this
    # Player Turn (``core.commands.clock.follow_entries``)
    clock_moved: ClockMove | None = None
    clock_from: str = ""
    clock_from_turn: tuple[int, str] = (0, "")


def parse(text: str, state: GameState, first_attacker: str | None = None) -> Parsed:
    """Read one command against ``state``. Raises Refusal for anything it cannot read.

    ``first_attacker`` is the side that moves first in each Game Turn (the clock needs
    it to know when the turn number goes up); by default the game's first side.
    """
    if is_blank(text):
        return Parsed(verb="")
    tokens = words(text)
    if not tokens:
        return Parsed(verb="")
    spec = verb_named(tokens[0])
    if spec is None:
        raise Refusal("input", f"'{tokens[0]}' is not a command", _did_you_mean(tokens[0]))
    rest = tokens[1:]
    if spec.name in ("undo", "redo", "strike", "unstrike", "help"):
        return _parse_control(spec, rest)
    if not state.sides:
        raise Refusal("input", "there is no game to record into")
    ctx = Context(state, first_attacker)
    sections = split_sections(spec.name, rest, spec.arity)
    events, moved = follow_entries(state, PARSERS[spec.name](ctx, sections))
    return Parsed(
        verb=spec.name,
        events=events,
        made=list(ctx.made),
        clock_moved=moved,
        clock_from=state.phase,
        clock_from_turn=(state.turn, state.attacker),
    )


def _parse_control(spec: VerbSpec, rest: list[str]) -> Parsed:
    if spec.name in ("undo", "redo"):
        if rest:
            raise Refusal(
                "input",
                f"'{spec.name}' takes nothing more; '{rest[0]}' is out of place",
                "to go back to an entry, strike it or undo step by step",
            )
        return Parsed(verb=spec.name, control=spec.name)
    if spec.name == "help":
        return Parsed(verb="help", control="help", text=help_text(rest[0] if rest else ""))
    if not rest:
        raise Refusal("input", f"'{spec.name}' needs the entry number", spec.example)
    target = number(rest[0], "the entry number")
    if spec.name == "unstrike":
        one(rest, "entry number", "unstrike")
    return Parsed(verb=spec.name, control=spec.name, target=target, reason=" ".join(rest[1:]))


def help_text(verb: str = "") -> str:
    if verb.lower() in ("rulings", "ruling"):
        from stockade.core.reads.rulings import rulings_text

        return rulings_text()
    from stockade.core.reads import conformance

    if conformance.is_rule_id(verb):  # help A20.55: that section's requirements
        text = conformance.section_text(verb)
        if text is None:
            raise Refusal("input", f"A20 has no section '{verb}'", "e.g. help A20.55")
        return text
    if verb:
        spec = verb_named(verb)
        if spec is None:
            raise Refusal("input", f"'{verb}' is not a command", _did_you_mean(verb))
        aliases = f" (also: {', '.join(spec.aliases)})" if spec.aliases else ""
        return f"{spec.usage}\n  {spec.summary}{aliases}\n  e.g. {spec.example}"
    width = max(len(name) for name in VERBS)
    lines = [f"{name.ljust(width)}  {spec.summary}" for name, spec in VERBS.items()]
    return "\n".join(
        lines
        + [
            "",
            "help VERB for one verb; help rulings for Stockade's rulings; "
            "help A20.55 for a section of A20 and how Stockade stands on each sentence",
        ]
    )


def _did_you_mean(word: str) -> str:
    import difflib

    names = list(VERBS) + [a for spec in VERBS.values() for a in spec.aliases if len(a) > 1]
    close = difflib.get_close_matches(word.lower(), names, n=3, cutoff=0.6)
    return ("did you mean " + " or ".join(close) + "?") if close else "type 'help' for the verbs"
