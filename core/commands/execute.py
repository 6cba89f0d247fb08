"""``execute``: parse a command and record it in a game; ``run_script``: many lines."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Iterator
from typing import TYPE_CHECKING

import msgspec

from stockade.core.book.change import Change, consequences, prisoner_sentences, totals_of
from stockade.core.book.describe import entry_parts, recorded_with_word, sentence_for
from stockade.core.book.game import Game
from stockade.core.commands.clock import describe_clock, describe_move
from stockade.core.commands.command import Command
from stockade.core.commands.forced import said as forced_line
from stockade.core.commands.implied import entry_for, fact_text
from stockade.core.commands.implied import said as implied_line
from stockade.core.commands.parser import Parsed, plan
from stockade.core.commands.verbs_control import Amend, Help, HelpRow, rows_lines, rows_text
from stockade.core.model import events as ev
from stockade.core.model.errors import InputRefusal, Refusal
from stockade.core.rules.reminders import remade_by_a20221, reminders

if TYPE_CHECKING:
    from stockade.core.book.tally import Tally


class Outcome(msgspec.Struct):
    """What a command did: a message for the player, the records it wrote, and the
    core's ``Change`` (its consequences: ``core.book.change.consequences``)."""

    message: str
    records: list[ev.Record] = msgspec.field(default_factory=list)
    change: Change | None = None
    # what reading the line decided, also the message's first lines: the units a stack
    # (@P4) stood for, a value filled in as the only one the game allows
    notes: list[str] = msgspec.field(default_factory=list)
    # the message without the list of entries left in conflict, for a caller that
    # prints the change's consequences (which list them, with their sentences)
    brief: list[HelpRow] = msgspec.field(default_factory=list)
    # the message as rows (a line and the lines under it, or help's table): a screen
    # lays them out, a wrapped line going on under its own text; none for a text of
    # its own (help rulings, help A20.55)
    rows: list[HelpRow] = msgspec.field(default_factory=list)
    # how many of ``rows``' last rows say what the entry set with itself (the clock's
    # move, the board facts it implied, new handles): what else it did (CVP, later
    # entries) is told above them, under the entry it belongs to
    set_with: int = 0

    @property
    def headline_rows(self) -> list[HelpRow]:
        return self.brief or self.rows

    @property
    def headline(self) -> str:
        return rows_text(self.brief) if self.brief else self.message


def replied(rows: list[HelpRow], records: list[ev.Record], change: Change | None = None) -> Outcome:
    """The outcome whose message is ``rows``, as the command line prints them."""
    return Outcome(rows_text(rows), records, change, rows=rows)


def told(
    game: Game, outcome: Outcome, standing: Tally | None = None, width: int | None = None
) -> list[str]:
    """What the player is told after a command, at the table and on the command line
    alike: its reply, then what else it did (later entries changed, conflicts, each
    side's CVP before and after), one indented line each. ``standing``: the tally of
    ``game.state``, when the caller has it already (it is made only for a CVP line);
    ``width``: a terminal's columns, each row wrapped under its own text past them."""
    rows, lines = told_rows_or_lines(game, outcome, standing)
    if not rows:
        return lines
    return rows_text(rows).splitlines() if width is None else rows_lines(rows, width)


def told_rows_or_lines(
    game: Game, outcome: Outcome, standing: Tally | None = None
) -> tuple[list[HelpRow], list[str]]:
    """``told`` as rows, each line of what else it did one step in, and no lines; for a
    reply that is a text of its own (help rulings) no rows, and ``told``'s lines."""
    also = _also(game, outcome, standing)
    head = outcome.headline_rows
    if head:
        # never under a line the entry set with it, as if that fact changed the CVP
        cut = len(head) - (0 if outcome.brief else outcome.set_with)
        return head[:cut] + [HelpRow(line, depth=1) for line in also] + head[cut:], []
    return [], outcome.headline.splitlines() + [f"  {line}" for line in also]


def _also(game: Game, outcome: Outcome, standing: Tally | None) -> list[str]:
    """What else a command did: the change's consequences (CVP, later entries)."""
    change = outcome.change
    if change is None:
        return []
    totals = None
    if change.cvp:
        if standing is None:
            from stockade.core.book.tally import tally

            standing = tally(game.state)
        totals = totals_of(standing)
    return consequences(change, totals)


class ScriptRefusal(Refusal):
    """A refusal from line ``line`` of a script: "line 7: A20.51: ..."."""

    def __init__(self, line: int, refusal: Refusal):
        self.line = line
        self.cause = refusal
        super().__init__(refusal.rule, refusal.text, refusal.hint)

    @property
    def label(self) -> str:
        return self.cause.label

    @property
    def kind(self) -> str:
        return self.cause.kind

    def __reduce__(self) -> tuple[object, ...]:
        return (ScriptRefusal, (self.line, self.cause))

    def __str__(self) -> str:
        return f"line {self.line}: {super().__str__()}"


def first_attacker(game: Game) -> str:
    """The side that moves first in each Game Turn, from the game header."""
    header = game.records[0] if game.records else None
    if isinstance(header, ev.GameCreated):
        return header.first_attacker or header.sides[0].name
    return next(iter(game.state.sides), "")


def execute(game: Game, command: Command | str) -> Outcome:
    """Record ``command`` (or a line, parsed against the game's state); raise Refusal
    if refused."""
    parsed = plan(command, game.state, first_attacker(game))
    if parsed.control:
        return _control(game, parsed)
    if not parsed.events:
        return Outcome("", [])
    change = game.submit(parsed.events)
    records = game.records_of(change)
    rows, set_with = _message(game, parsed, records, change)
    return Outcome(rows_text(rows), records, change, parsed.notes, rows=rows, set_with=set_with)


def _message(
    game: Game, parsed: Parsed, records: list[ev.Record], change: Change
) -> tuple[list[HelpRow], int]:
    """The reply to an entry: a line per record, what each reminds of one step under
    it, each prisoner it freed or moved; then what the entry set with it (the clock
    moved to its phase, the board facts it implied), the handles it made, and how many
    rows those are. What was recorded comes first: the lines the entry took with it
    follow it, never hide it below a short screen's reply."""
    if parsed.verb in ("next", "prev", "turn", "phase", "skip"):
        state = game.state
        told = describe_clock(state.turn, state.attacker, state.phase)
        if parsed.clock_from_turn != (state.turn, state.attacker):
            told = f"new Player Turn: {told}"  # never crossed silently
        return [HelpRow(told), *_forced(game, parsed, records)], 0
    rows = [HelpRow(note) for note in parsed.notes]  # a stack (@P4), what was filled in
    taken_with: list[HelpRow] = []
    if parsed.clock_moved is not None and records and isinstance(records[0], ev.PhaseSet):
        taken_with.append(HelpRow(describe_move(parsed.clock_from, parsed.clock_moved)))
    taken_with += _forced(game, parsed, records)
    for i, record in enumerate(records):
        if i in parsed.forced or isinstance(record, ev.PhaseSet):
            continue  # the clock's moves are said with it, and what they made happen
        if isinstance(record, ev.StatusChanged) and record.implied:
            taken_with.append(HelpRow(implied_line(record)))
            continue
        rows.append(HelpRow(sentence_for(record, game, with_time=False)))
        rows += [HelpRow(line, depth=1) for line in reminders(record, game.state)]
    # a prisoner never goes free or changes Guard silently: each one, and why (once:
    # one A20.221 gave back or exchanged is told by its record's line above)
    remade = {u.handle for r in records for u in remade_by_a20221(game.state, r.seq)}
    rows += _prisoners(change, remade)
    if parsed.made:
        taken_with.append(HelpRow("new handles: " + ", ".join(parsed.made)))
    return rows + taken_with, len(taken_with)


def _forced(game: Game, parsed: Parsed, records: list[ev.Record]) -> list[HelpRow]:
    """What the rules made happen in the phases the clock passed (A20.4), each with
    its rule and why, then its sentence as any entry's."""
    rows: list[HelpRow] = []
    at: ev.PhaseSet | None = None
    for i, record in enumerate(records):
        if isinstance(record, ev.PhaseSet):
            at = record
        if i not in parsed.forced or at is None or isinstance(record, ev.PhaseSet):
            continue
        rows.append(HelpRow(forced_line(record, at)))
        if isinstance(record, ev.Massacred):
            rows.append(HelpRow(sentence_for(record, game, with_time=False), depth=1))
            rows += [HelpRow(line, depth=1) for line in reminders(record, game.state)]
    return rows


def _control(game: Game, parsed: Parsed) -> Outcome:
    if isinstance(parsed.command, Help):
        rows = parsed.command.rows(game.state)
        text = rows_text(rows) if rows else parsed.command.text(game.state)
        return Outcome(text, [], rows=rows)
    if isinstance(parsed.command, Amend):
        return amend(game, parsed.command.target, parsed.command.line)
    return control(game, parsed.verb, parsed.target, parsed.reason)


def control(game: Game, verb: str, target: int | None = None, reason: str = "") -> Outcome:
    """Undo, redo, strike or unstrike, with the message the player sees."""
    if verb == "undo":
        change = game.undo()
        grp = change.target
        text = f"undone: {_group_summary(game, grp)}"
        return replied([HelpRow(text)], [game.records[-1]], change)
    if verb == "redo":
        change = game.redo()
        grp = change.target
        text = f"redone: {_group_summary(game, grp)}"
        return replied([HelpRow(text), *_prisoners(change)], [game.records[-1]], change)
    if target is None:
        raise InputRefusal(f"'{verb}' needs the entry number")
    if verb == "strike":
        change = game.strike(target, reason)
        text = f"struck {_entries(change.struck, target)}" + (f" ({reason})" if reason else "")
        return _with_conflicts(game, [HelpRow(text)], change)
    if verb == "unstrike":
        change = game.unstrike(target)
        text = f"unstruck {_entries(change.restored, target)}"
        return _with_conflicts(game, [HelpRow(text), *_prisoners(change)], change)
    raise InputRefusal(f"'{verb}' is not an undo, redo, strike or unstrike")


def _prisoners(change: Change, told: Collection[str] = ()) -> list[HelpRow]:
    """The prisoners an entry (or one brought back) frees or hands on, one line each,
    under it; none for those in ``told``, which the entry's lines said already."""
    return [HelpRow(line, depth=1) for line in prisoner_sentences(change, told)]


def _entries(acted: list[int], target: int) -> str:
    """``entry 7``, or ``entries 7 and 8`` when a strike took an entry with the board
    facts it implied (the change's consequences say why)."""
    if len(acted) <= 1:
        return f"entry {target}"
    *rest, last = acted
    return f"entries {', '.join(map(str, rest))} and {last}"


def amendment(game: Game, seq: int, line: str) -> ev.Record:
    """The event ``line`` records when read against the game as it stood at entry
    ``seq``'s place (the handles, phase and Guards of then); the Refusal if the entry
    may not be amended or ``line`` records no single event there."""
    was, then = game.place(seq)
    parsed = plan(line, then, first_attacker(game))
    if parsed.control:
        raise InputRefusal(
            f"'amend' takes what entry {seq} should have recorded, not '{parsed.verb}'"
        )
    events = parsed.events
    if parsed.clock_moved is not None and events and isinstance(events[0], ev.PhaseSet):
        raise InputRefusal(
            f"'{line}' belongs to another phase than entry {seq} "
            f"({describe_clock(then.turn, then.attacker, then.phase)})",
            "amend an entry with what happened in its own phase",
        )
    if len(events) > 1 and all(_implied(e) for e in events[:-1]):
        facts = [e for e in events[:-1] if isinstance(e, ev.StatusChanged) and e.implied]
        raise _implies_more(game, seq, line, facts)
    stale = _implied_no_more(game, seq, line)
    if stale:
        raise _implies_less(seq, line, stale)
    if len(events) != 1:
        said = "nothing" if not events else f"{len(events)} events"
        raise InputRefusal(
            f"'amend' puts one event in entry {seq}'s place; '{line}' records {said}",
            f"strike entry {seq} and enter it again",
        )
    if type(events[0]) is not type(was) and isinstance(was, ev.PhaseSet | ev.UnitEntered):
        raise InputRefusal(
            f"entry {seq} sets the clock or enters a unit: it is amended by the same kind of entry",
            f"strike entry {seq} and enter it again",
        )
    return events[0]


def _implied(record: ev.Record) -> bool:
    return isinstance(record, ev.StatusChanged) and bool(record.implied)


def _fact(record: ev.StatusChanged) -> tuple[object, ...]:
    """The board fact a status record sets, whatever entry or rule recorded it."""
    r = record
    return (r.handle, r.broken, r.pinned, r.berserk, r.melee, r.disrupted, r.location)


def _implied_no_more(game: Game, seq: int, line: str) -> list[tuple[int, ev.StatusChanged]]:
    """The board facts entry ``seq`` was recorded with because it implied them, that
    ``line`` read at the same place (before those facts) does not imply: kept, they
    would stand on the board with nothing to say they happened."""
    facts = [
        (s, fact)
        for s in game.struck_together(seq)
        if s != seq
        for fact in [game.timeline.standing(game.records[s - 1])]
        if isinstance(fact, ev.StatusChanged) and fact.implied
    ]
    if not facts:
        return []
    _, before = game.place(min(s for s, _ in facts))
    try:
        parsed = plan(line, before, first_attacker(game))
    except Refusal:  # read at the entry's own place, as the amendment is, it decides
        return []
    again = {_fact(e) for e in parsed.events if isinstance(e, ev.StatusChanged) and e.implied}
    return [(s, fact) for s, fact in facts if _fact(fact) not in again]


def _implies_less(seq: int, line: str, stale: list[tuple[int, ev.StatusChanged]]) -> InputRefusal:
    """An amendment that no longer implies a fact entry ``seq`` was recorded with: the
    fact goes only with the entry (a strike takes both), so the entry is struck and
    entered again."""
    said = "; ".join(
        f"entry {s} ({fact_text(fact)}) was "
        f"recorded because entry {seq} implied it ({fact.implied})"
        for s, fact in stale
    )
    return InputRefusal(
        f"{said}; '{line}' does not imply it, and an amendment puts one event in entry "
        f"{seq}'s place",
        f"strike entry {seq} (the facts it implied go with it) and enter '{line}' again",
    )


def _implies_more(game: Game, seq: int, line: str, facts: list[ev.StatusChanged]) -> InputRefusal:
    """An amendment whose line implies board facts at entry ``seq``'s place: it says
    them, with their rule, and how to record them where they stand. When entry ``seq``
    was entered with as many implied facts, each is amended first (in its place, by the
    entry the players would type), then the entry; else it is struck (its implied facts
    go with it) and entered again."""
    said = "; ".join(implied_line(f) for f in facts)
    text = (
        f"'{line}' at entry {seq}'s place records with it {said}; an amendment puts one "
        f"event in entry {seq}'s place"
    )
    had = [s for s in game.struck_together(seq) if s != seq]
    entries = [entry_for(f) for f in facts]
    if had and len(had) == len(facts) and all(entries):
        steps = "; ".join(f"amend {s} {c}" for s, c in zip(had, entries, strict=True))
        return InputRefusal(
            text, f"amend the facts entry {seq} implied first ({steps}), then amend {seq}"
        )
    return InputRefusal(
        text, f"strike entry {seq} (the facts it implied go with it) and enter it again"
    )


def amend(game: Game, seq: int, line: str, *, preview: bool = False) -> Outcome:
    """Amend entry ``seq`` by what ``line`` records there (``preview``: say what it
    would do, writing nothing), with the message the player sees."""
    event = amendment(game, seq, line)
    was = sentence_for(game.timeline.standing(game.records[seq - 1]), game, with_time=False)
    change = game.amend(seq, event, preview=preview)
    if preview:
        return replied([HelpRow(f"amend entry {seq} ({was}) to: {line}")], [], change)
    now = sentence_for(game.timeline.standing(game.records[seq - 1]), game, with_time=False)
    return _with_conflicts(game, [HelpRow(f"amended entry {seq}: {now} (was: {was})")], change)


def _group_summary(game: Game, grp: int) -> str:
    """``entry 6 (German 4-6-7 (g1) surrendered ...), with its clock move (entry 5:
    Turn 1, American RtPh)``: what the player entered first, by its own number, then
    what the entry recorded with itself (``core.book.describe.entry_parts``)."""
    event = game.timeline.replacements.get(grp)
    if event is not None:
        return f"entry {grp} (the amendment of entry {event.seq})"
    entered, with_it = entry_parts(game.records, grp)
    if not entered:
        return f"entry {grp} (nothing)"
    said = "; ".join(sentence_for(r, game, with_time=False) for r in entered)
    text = f"entry {entered[0].seq} ({said})"
    if not with_it:
        return text
    return f"{text}, with " + " and ".join(
        f"{recorded_with_word(r)} (entry {r.seq}: {sentence_for(r, game, with_time=False)})"
        for r in with_it
    )


def _with_conflicts(game: Game, brief: list[HelpRow], change: Change) -> Outcome:
    """The reply to a strike, unstrike or amendment: ``brief``, then the entries it
    left in conflict, each one step under it (the brief alone for a caller that prints
    the change's consequences, which list them)."""
    seqs = [s for s in change.new_conflicts if s in game.conflicts]
    if not change.new_conflicts:
        return replied(brief, [game.records[-1]], change)
    first, *rest = brief
    rows = [
        HelpRow(first.text + "; these need resolving (strike or fix them):", first.head),
        *rest,
        *(HelpRow(f"entry {s} no longer holds: {game.conflicts[s]}", depth=1) for s in seqs),
    ]
    return Outcome(rows_text(rows), [game.records[-1]], change, brief=brief, rows=rows)


def run_script(game: Game, lines: Iterable[str]) -> list[Outcome]:
    """Execute each line in turn; stop at the first refusal and raise it with its line.

    Lines already executed stay recorded, unless the caller holds them as one group
    (``Game.one_write``: ``stockade run`` leaves the log untouched when a line is refused).
    """
    return [outcome for _, outcome in script_outcomes(game, lines)]


def script_outcomes(game: Game, lines: Iterable[str]) -> Iterator[tuple[int, Outcome]]:
    """``run_script`` a line at a time: each line's number and outcome as it is
    executed, nothing kept (``stockade run`` reads and checks its script as a stream).
    A refusal of line N, or of reading it, is raised as ``ScriptRefusal`` naming N."""
    it = iter(lines)
    for number in itertools.count(1):
        try:
            line = next(it)
        except StopIteration:
            return
        except Refusal as refusal:  # the line could not be read
            raise ScriptRefusal(number, refusal) from None
        try:
            outcome = execute(game, line)
        except ScriptRefusal:
            raise
        except Refusal as refusal:
            raise ScriptRefusal(number, refusal) from None
        yield number, outcome
