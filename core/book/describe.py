"""History entries as sentences a player reads aloud at the table.

``sentence(entry, game)`` -> "T3 RtPh: German 4-6-7 (g2) surrendered to American 9-2
(a1) in Q4 [A20.21]". Units are named as they were when the entry was recorded (side,
original counter, Location then: ``core.model.names``; for an entry that never folded in this
process, ``core.book.names_replay``), never as they are now, so a sentence never changes after
later entries. A prisoner is named by its original counter (its counter "(1)-0-6"
tells nobody which unit it was). The rule cited for each kind of entry lives in
``RULES``, the one table of citations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from stockade.core.book.game_view import GameView
from stockade.core.log.game_timeline import HistoryEntry
from stockade.core.model import events as ev
from stockade.core.model.names import Name

# The rule behind each kind of entry; "kind:variant" where the variant changes it.
RULES: dict[str, str] = {
    "surrender": "A20.21",
    "surrender:disrupted": "A19.12",
    "surrender:hob": "A15.5",
    "surrender:mopup": "A12.153",
    "reject": "A20.3",
    "nq": "A20.3",
    "capture": "A20.22",
    "mutual": "A20.221",
    "recapture": "A20.54",
    "transfer": "A20.5",
    "exchange": "A20.51",
    "split": "A20.51",
    "deploy": "A20.5",
    "abandon": "A20.5",
    "escort": "A20.53",
    "eliminate": "A20.5",
    "eliminate:fire-own": "A20.54",
    "eliminate:escape": "A20.55",
    "reduce": "A7.302",
    "reduce:fire-own": "A20.54",
    "massacre": "A20.4",
    "escape": "A20.55",
    "escaped": "A11.22",
    "escaped:withdrawal": "A11.2",
    "rearm": "A20.551",
    "scrounge": "A20.552",
    "end": "A20.1",
}

_CAUSE_WORDS = ev.CAUSE_WORDS  # one wording: the tally uses it too
_STATUS_WORDS = {
    "broken": ("broken", "rallied"),
    "pinned": ("pinned", "unpinned"),
    "berserk": ("berserk", "no longer berserk"),
    "melee": ("in Melee", "out of Melee"),
    "disrupted": ("Disrupted", "no longer Disrupted"),
}


def rule_for(record: ev.Record) -> str:
    kind = ev.kind_of(record)
    variant = (
        getattr(record, "reason", None)
        or getattr(record, "cause", None)
        or getattr(record, "route", None)
    )
    if isinstance(variant, str) and f"{kind}:{variant}" in RULES:
        return RULES[f"{kind}:{variant}"]
    if isinstance(record, ev.Eliminated) and not record.takeover:
        return ""  # an ordinary casualty: nothing of A20 in it
    return RULES.get(kind, "")


def sentence(entry: HistoryEntry, game: GameView, with_time: bool = True) -> str:
    return sentence_for(entry.record, game, with_time)


def sentence_for(
    record: ev.Record, game: GameView, with_time: bool = True, then: dict[str, Name] | None = None
) -> str:
    """The entry in words; ``then``: the names to use instead of the fold's (``verify``
    gives those an entry had when it was written)."""
    if ev.is_control(record):
        return _control(record, game.records)
    text = _Words(game, record.seq, then).say(record)
    rule = rule_for(record)
    if rule:
        text += f" [{rule}]"
    when = game.when.get(record.seq)
    if when is None:
        when = game.names_then().when.get(record.seq)  # never folded here (names_then)
    if with_time and when and not isinstance(record, (ev.GameCreated, ev.PhaseSet)):
        text = f"T{when[0]} {when[1]}: {text}"
    return text


def entry_parts(records: Sequence[ev.Record], grp: int) -> tuple[list[ev.Record], list[ev.Record]]:
    """Group ``grp``'s records as the player made them: those the player entered (a
    surrender), and those the entry recorded with itself, which the player did not
    type (the clock's move to the phase it belongs to, the board facts it implied:
    docs/rulings.md, "The clock follows the entries", "Implied board facts"). A group
    of a phase set alone (``next``) is what the player entered."""
    group: list[ev.Record] = []
    # a group is written at once, from seq ``grp``: read only its records (a long log's
    # are read from the file one by one, never its whole tail)
    at = max(grp - 1, 0)
    while at < len(records) and records[at].grp == grp:
        group.append(records[at])
        at += 1

    def recorded_with(r: ev.Record) -> bool:
        if isinstance(r, ev.StatusChanged):
            return bool(r.implied)
        return isinstance(r, ev.PhaseSet) and r is group[0]

    entered = [r for r in group if not recorded_with(r)]
    if not entered:
        return group, []
    return entered, [r for r in group if recorded_with(r)]


def entry_number(records: Sequence[ev.Record], grp: int) -> str:
    """``entry 6``: the number of what the player entered in group ``grp``, with what it
    recorded with itself: ``entry 6, with its clock move (entry 5)``."""
    entered, with_it = entry_parts(records, grp)
    first = entered[0].seq if entered else grp
    if not with_it:
        return f"entry {first}"
    return f"entry {first}, with " + " and ".join(
        f"{recorded_with_word(r)} (entry {r.seq})" for r in with_it
    )


def recorded_with_word(record: ev.Record) -> str:
    """What a record an entry recorded with itself is called beside the entry."""
    return "its clock move" if isinstance(record, ev.PhaseSet) else "the board fact it implied"


def _control(record: ev.ControlRecord, records: Sequence[ev.Record]) -> str:
    if isinstance(record, ev.Undo):
        return f"undo of {entry_number(records, record.target)}"
    if isinstance(record, ev.Redo):
        return f"redo of {entry_number(records, record.target)}"
    if isinstance(record, ev.Strike):
        return f"struck entry {record.target}" + (f" ({record.reason})" if record.reason else "")
    if isinstance(record, ev.Amend):
        return f"amended entry {record.target}" + (f" ({record.reason})" if record.reason else "")
    assert isinstance(record, ev.Unstrike)  # the last kind of control record
    return f"unstruck entry {record.target}"


class _Words:
    """Names units and builds the sentence for each kind of event."""

    def __init__(self, game: GameView, seq: int, then: dict[str, Name] | None = None):
        # The names when the entry was recorded: kept by the fold, or, for an entry
        # that never folded in this process (undone, abandoned, struck, or not folded
        # since the log was opened), replayed from the log (core.book.names_replay). Never
        # from the state now: a handle may name another unit since.
        if then is not None:
            self.then = then
            return
        folded = seq in game.when
        self.then = game.names.of(seq) if folded else game.names_then().of(seq)

    def unit(self, handle: str | None) -> str:
        then = self.then.get(handle or "")
        if then is not None:
            return f"{then[1]} ({handle})"
        # No unit held the handle at that point (an entry the fold refused: the
        # unit was struck or never entered): the handle alone says what was recorded.
        return handle or "?"

    def units(self, handles: list[str]) -> str:
        names = [self.unit(h) for h in handles]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def where(self, handle: str) -> str:
        then = self.then.get(handle)
        return f" in {then[2]}" if then is not None and then[2] else ""

    def say(self, record: ev.Record) -> str:
        kind = ev.kind_of(record)
        speaker: Callable[[ev.Record], str] | None = getattr(
            self, "_" + kind.replace("-", "_"), None
        )
        return speaker(record) if speaker else kind

    # -- one method per kind, named after its tag ----------------------------------
    def _game(self, r: ev.GameCreated) -> str:
        sides = " vs ".join(f"{s.name} ({s.nationality}, ELR {s.elr})" for s in r.sides)
        return f"game '{r.scenario}': {sides}"

    def _unit(self, r: ev.UnitEntered) -> str:
        extras = [f"in {r.location}"] if r.location else []
        extras += ["broken"] if r.broken else []
        extras += [f"+{t}" for t in r.traits]
        # An add the fold refused (a conflict: no unit entered) kept no name, and its
        # handle may name another unit now: the record itself says what was to enter.
        name = (
            self.unit(r.handle) if r.handle in self.then else f"{r.side} {r.counter} ({r.handle})"
        )
        return f"{name} entered" + (" " + ", ".join(extras) if extras else "")

    def _phase(self, r: ev.PhaseSet) -> str:
        return f"Turn {r.turn}, {r.attacker} {r.phase}"

    def _status(self, r: ev.StatusChanged) -> str:
        said = [
            words[0] if getattr(r, name) else words[1]
            for name, words in _STATUS_WORDS.items()
            if getattr(r, name) is not None
        ]
        if r.location is not None:
            said.append(f"moved to {r.location}" if not r.implied else f"in {r.location}")
        line = f"{self.unit(r.handle)} " + " and ".join(said or ["unchanged"])
        return f"{line} (implied: {r.implied})" if r.implied else line

    def _nq(self, r: ev.NoQuarterInvoked) -> str:
        return f"{r.side} has invoked No Quarter ({r.reason})"  # as the side panel says

    def _end(self, r: ev.GameEnded) -> str:
        return "the game ended; prisoners still guarded count double"

    def _merges(self, merges: list[ev.Merge]) -> str:
        return "".join(f"; {' + '.join(m.parts)} exchanged for squad {m.into}" for m in merges)

    def _surrender(self, r: ev.Surrendered) -> str:
        how = "" if r.reason == "rtph" else f" ({r.reason})"
        freed = f"; freed as Unarmed: {', '.join(r.freed)}" if r.freed else ""
        return (
            f"{self.units(r.units)} surrendered to {self.unit(r.guard)}{self.where(r.guard)}"
            f"{how}{freed}{self._merges(r.merges)}"
        )

    def _reject(self, r: ev.SurrenderRejected) -> str:
        return f"{r.by_side} rejected the surrender of {self.units(r.units)}: No Quarter"

    def _capture(self, r: ev.Captured) -> str:
        taken = [self.units(r.units)] if r.units else []
        if r.split:
            taken.append(
                f"one HS ({r.hs_captured}) of {self.unit(r.split)}, "
                f"the other HS ({r.hs_free}) fights on"
            )
        freed = f"; freed as Unarmed: {', '.join(r.freed)}" if r.freed else ""
        return (
            f"{self.unit(r.guard)} captured {' and '.join(taken)} in CC{freed}"
            f"{self._merges(r.merges)}"
        )

    def _mutual(self, r: ev.MutualCapture) -> str:
        return f"simultaneous capture: {self.units(r.units)} rearm as Green/Conscript units"

    def _recapture(self, r: ev.Recaptured) -> str:
        return f"{self.unit(r.guard)} recaptured {self.units(r.units)}{self._merges(r.merges)}"

    def _transfer(self, r: ev.Transferred) -> str:
        return (
            f"{self.units(r.units)} transferred to {self.unit(r.to_guard)}{self._merges(r.merges)}"
        )

    def _exchange(self, r: ev.Exchanged) -> str:
        return f"prisoner HS {' and '.join(r.parts)} exchanged for one squad ({r.into})"

    def _split(self, r: ev.PrisonerSplit) -> str:
        return f"prisoner squad {self.unit(r.handle)} split into {' and '.join(r.into)}"

    def _deploy(self, r: ev.Deployed) -> str:
        moved = "".join(f"; {p} to {h}" for p, h in r.assign.items())
        return f"{self.unit(r.handle)} deployed into {' and '.join(r.into)}{moved}"

    def _abandon(self, r: ev.Abandoned) -> str:
        return f"{self.units(r.units)} abandoned as Unarmed units"

    def _escort(self, r: ev.EscortedOff) -> str:
        return f"{self.unit(r.guard)} escorted its prisoners off a Friendly Board Edge"

    def _vc(self, r: ev.VictorySet) -> str:
        if r.conditions is None:
            return "Victory Conditions cleared"
        return f"Victory Conditions: {r.conditions.source}"

    def _exit(self, r: ev.Exited) -> str:
        edge = f" off {r.edge}" if r.edge else ""
        vp = f" ({r.vp} Exit VP each)" if r.vp is not None else ""
        return f"{self.units(r.units)} exited{edge}{vp}"

    def _control(self, r: ev.LocationControlled) -> str:
        return f"{r.location} controlled by {r.side or 'nobody'}"

    def _eliminate(self, r: ev.Eliminated) -> str:
        cause = _CAUSE_WORDS.get(r.cause, r.cause)
        text = f"{self.unit(r.handle)} eliminated" + (f" {cause}" if cause else "")
        if r.takeover == "-":
            text += "; its prisoners go free"
        elif r.takeover:
            text += f"; {self.unit(r.takeover)} takes over its prisoners"
        return text

    def _reduce(self, r: ev.CasualtyReduced) -> str:
        return (
            f"{self.unit(r.handle)} Casualty Reduced {_CAUSE_WORDS.get(r.cause, r.cause)}".rstrip()
        )

    def _massacre(self, r: ev.Massacred) -> str:
        return f"{self.unit(r.by)} massacred {self.units(r.units)}"

    def _escape(self, r: ev.EscapeAttempted) -> str:
        attackers = [h for h in r.units if h not in r.ntc_failed]
        their = "its" if len(attackers) == 1 else "their"
        if attackers:
            text = f"{self.units(attackers)} attacked {their} Guard"
            if r.ntc_failed:
                text += f" ({', '.join(r.ntc_failed)} failed the NTC and did not attack)"
        else:
            text = f"{self.units(r.units)} failed the NTC: no attack on the Guard"
        if r.killed:
            text += f"; {', '.join(r.killed)} killed escaping"
        outcome = {
            "escaped": "the Guard was eliminated: escaped",
            "melee": "Melee",
            "no-effect": "no effect",
        }[r.outcome]
        return f"{text}; {outcome}"

    def _escaped(self, r: ev.EscapedBy) -> str:
        if r.route == "guard-infiltrated":
            return f"{self.unit(r.units[0])} infiltrated away; its prisoners escaped"
        return f"{self.units(r.units)} escaped by {r.route.capitalize()}"

    def _rearm(self, r: ev.Rearmed) -> str:
        split = f" (split into {' and '.join(r.split_into)})" if r.split_into else ""
        becomes = f" as {r.counter}" if r.counter else ""
        why = {
            "cc": f"having eliminated or captured {self.unit(r.enemy)} in CC",
            "alone": f"with no other enemy unit in its Location once {self.unit(r.enemy)} "
            "was eliminated",
            "surrender": f"when {self.unit(r.enemy)} surrendered",
        }.get(r.how, f"({r.how}, {r.enemy})")
        return f"{self.unit(r.handle)} rearmed{becomes}{split}, {why}"

    def _scrounge(self, r: ev.Scrounged) -> str:
        dice = f"dr {r.roll} vs a wreck" if r.wreck else f"DR {r.roll}"
        return f"{self.unit(r.handle)} scrounged: {dice}"
