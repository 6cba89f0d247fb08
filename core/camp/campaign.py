"""A campaign being played: the log on disk, the timeline, the current state.

Every input is checked by the fold *before* it is written, and the state moves only
after the journal said the line is on disk: what the screen shows is always what a
resume would show.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from stockade.core.camp.dice import SeededDice, new_seed
from stockade.core.camp.errors import CampError
from stockade.core.camp.events import (
    ROLL_KINDS,
    ActionChosen,
    CampOptions,
    CampStarted,
    EscapeChosen,
    OutcomeEntered,
    Record,
    Redo,
    Undo,
)
from stockade.core.camp.fold import apply, initial_state, replay
from stockade.core.camp.history import HEADER_GROUP, new_timeline
from stockade.core.camp.logfile import encode, load_log
from stockade.core.camp.state import CampState, Need, need
from stockade.core.camp.table import RuleTable, load_table
from stockade.core.log.journal import Journal
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.timeline import Timeline

replace = msgspec.structs.replace


def options_from_mapping(values: dict[str, Any] | None) -> CampOptions:
    """Options as the CLI or a launcher passes them; unknown keys are refused."""
    values = {k: v for k, v in (values or {}).items() if v is not None}
    try:
        options = msgspec.convert(values, CampOptions)
    except msgspec.ValidationError as exc:
        raise CampError(f"bad camp option: {exc}") from None
    return options if options.seed else replace(options, seed=new_seed())


class Campaign:
    def __init__(
        self,
        journal: Journal,
        header: CampStarted,
        records: list[Record],
        timeline: Timeline[Record],
        state: CampState,
        warnings: list[str] | None = None,
    ):
        self.journal = journal
        self.header = header
        self.records = records
        self.timeline = timeline
        self.state = state
        self.warnings = warnings or []
        self.dice = SeededDice(header.options.seed)

    # -- opening ---------------------------------------------------------------
    @classmethod
    def create(cls, path: Path, options: CampOptions, table: RuleTable | None = None) -> Campaign:
        header = CampStarted(seq=1, grp=HEADER_GROUP, options=options, table=table or load_table())
        try:
            journal = Journal.create(Path(path), encode(header))
        except JournalError as exc:
            raise CampError(str(exc)) from None
        campaign = cls(journal, header, [], new_timeline(), initial_state(header))
        campaign._auto_roll(HEADER_GROUP)  # the capture date and Health, unless typed
        return campaign

    @classmethod
    def load(cls, path: Path) -> Campaign:
        try:
            journal = Journal.open(Path(path))
        except JournalError as exc:
            raise CampError(str(exc)) from None
        try:
            loaded = load_log(Path(path), journal)
        except CampError:
            journal.close()
            raise
        journal = loaded.journal or journal
        campaign = cls(
            journal, loaded.header, loaded.records, loaded.timeline, loaded.state, loaded.warnings
        )
        if not campaign.read_only:
            # A crash (or a torn last line set aside) may have cut off the rolls the
            # program makes for the latest input: make them now, with the same dice.
            campaign._auto_roll(campaign.timeline.active[-1])
        return campaign

    @classmethod
    def open_or_create(cls, path: Path, options: CampOptions) -> Campaign:
        return cls.load(path) if Path(path).exists() else cls.create(path, options)

    def close(self) -> None:
        self.journal.close()

    # -- reading ---------------------------------------------------------------
    @property
    def options(self) -> CampOptions:
        return self.header.options

    @property
    def read_only(self) -> bool:
        return self.journal.read_only

    def need(self) -> Need:
        return need(self.state)

    def can_undo(self) -> bool:
        return self.timeline.undoable() is not None

    def can_redo(self) -> bool:
        return self.timeline.redoable() is not None

    def effective_events(self) -> list[Record]:
        return self.timeline.effective()

    def state_at(self, count: int) -> CampState:
        """Replay the first ``count`` events in effect: the campaign as it stood then."""
        return replay(self.header, self.effective_events()[:count])

    # -- playing ---------------------------------------------------------------
    def choose_action(self, action: str) -> None:
        self._input(ActionChosen(action=action))

    def choose_escape(self, attempt: bool) -> None:
        self._input(EscapeChosen(attempt=attempt))

    def enter_outcome(self, health: int, kit: int) -> None:
        self._input(OutcomeEntered(health=health, kit=kit))

    def enter_dice(self, dice: tuple[int, ...]) -> None:
        """Dice rolled by hand for the roll the game waits for."""
        kind = self.state.phase
        if kind not in ROLL_KINDS:
            raise CampError("no roll is wanted now")
        self._input(ROLL_KINDS[kind](dice=tuple(dice), hand=True))

    def undo(self) -> None:
        target = self.timeline.undoable()
        if target is None:
            raise CampError("nothing to undo")
        self._control(Undo(target=target))

    def redo(self) -> None:
        target = self.timeline.redoable()
        if target is None:
            raise CampError("nothing to redo")
        self._control(Redo(target=target))

    # -- writing ---------------------------------------------------------------
    def _input(self, event: Record) -> None:
        group = self._next_seq()
        self._append(replace(event, seq=group, grp=group))
        self._auto_roll(group)

    def _auto_roll(self, group: int) -> None:
        """In auto mode the program rolls every die the rules ask for, logged."""
        if self.options.dice != "auto":
            return
        while not self.state.over and (wanted := self.need()).is_roll:
            dice = self.dice.roll(wanted.sides, self.timeline.count())
            self._append(ROLL_KINDS[wanted.phase](seq=self._next_seq(), grp=group, dice=dice))

    def _append(self, record: Record) -> None:
        state = apply(self.state, record)  # refuses before anything is written
        self._write(record)
        self.timeline.add(record)
        self.state = state

    def _control(self, record: Record) -> None:
        record = replace(record, seq=self._next_seq())
        probe = self.timeline.copy()
        probe.add(record)
        state = replay(self.header, probe.effective())
        self._write(record)
        self.timeline = probe
        self.state = state

    def _write(self, record: Record) -> None:
        try:
            self.journal.append(encode(record))
        except JournalError as exc:
            raise CampError(str(exc)) from None
        self.records.append(record)

    def _next_seq(self) -> int:
        return len(self.records) + 2  # the header is seq 1
