"""The log store: the file a game lives in, and nothing else.

Opening (the write lock is taken before the file is read; a torn tail is set aside;
a damaged log opens read-only up to the damage), appending records durably through
``core.log.journal``, and the bytes the snapshot cache (``core.log.snapcache``) verifies. It
wraps ``core.log.journal`` and ``core.log.game_log`` and leaves their contents alone; it knows
no rule and folds nothing (``core.book.projection`` does).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from stockade.core.log import snapcache
from stockade.core.log.game_log import LoadedLog, LogProblem, load
from stockade.core.log.journal import Journal, JournalDamaged, JournalError, JournalReplaced
from stockade.core.log.reader import settle_torn_tail
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal

if TYPE_CHECKING:  # names_then replays through the writer, which imports this module
    from stockade.core.book.names_replay import NamesThen


@dataclass
class LogStore:
    records: list[ev.Record]
    journal: Journal | None = None
    path: Path | None = None
    warnings: list[str] = field(default_factory=list)
    problem: LogProblem | None = None
    # What these records said of entries never folded in this process, replayed on
    # first use (``Game.names_then``); made from the records, so kept with them (a
    # re-read log is a new store). The TUI builds it in a worker thread while the
    # event loop may ask too: the lock makes the second caller wait for the first's.
    replayed: NamesThen | None = field(default=None, repr=False, compare=False)
    replay_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def names_then(self) -> NamesThen:
        """The replay (``core.book.names_replay``), built once: a second caller, from another
        thread, waits for the first's. It replays a copy of the records, because the
        event loop may append meanwhile (and folds what it adds itself)."""
        built = self.replayed
        if built is None:
            with self.replay_lock:
                built = self.replayed
                if built is None:
                    from stockade.core.book.names_replay import NamesThen  # imports this module

                    built = self.replayed = NamesThen(list(self.records))
        return built

    @property
    def read_only(self) -> bool:
        return self.journal is not None and self.journal.read_only or self.problem is not None

    @classmethod
    def create(cls, path: Path, header: ev.Record) -> LogStore:
        journal = Journal.create(Path(path), ev.encode(header))
        journal.chained = True  # every later line links to the one before (core/log/chain.py)
        return cls([header], journal, Path(path))

    @classmethod
    def open(cls, path: Path, read_only: bool) -> tuple[LogStore, bytes | None]:
        """Open a log; also the bytes the snapshot cache verifies (None for a small
        log). Raises JournalError if it cannot be read or is not a game."""
        path = Path(path)
        journal = Journal.open(path, want_write=not read_only)
        journal.chained = True  # every appended line links to the one before (core/log/chain.py)
        try:
            loaded: LoadedLog = load(path)
        except BaseException:
            journal.close()
            raise
        if loaded.problem and not loaded.records:
            journal.close()
            raise JournalDamaged(f"{path}: {loaded.problem}")
        warnings = list(loaded.warnings)
        if loaded.problem:
            journal.close()
            warnings.append(
                f"{loaded.problem}; opened read-only, nothing after it is "
                f"shown (stockade repair {path.name} writes a repaired copy)"
            )
            return cls(loaded.records, None, path, warnings, loaded.problem), None
        if journal.read_only and journal.why_read_only and not read_only:
            warnings.append(journal.why_read_only)
        journal = settle_torn_tail(path, loaded, journal, warnings)
        log_data = None
        if (
            len(loaded.records) >= snapcache.MIN_EVENTS
            and snapcache.cache_file(path) is not None  # None: the cache is off
        ):
            # the bytes already read (the file was only ever cut back to good_bytes
            # since): reading them again held a second copy of the log while it folds
            log_data = loaded.data[: loaded.good_bytes or None]
        return cls(loaded.records, journal, path, warnings), log_data

    def write(self, records: list[ev.Record], after_error: Callable[[], str]) -> None:
        """Append ``records`` durably, all or none. On a failed write, ``after_error()``
        (the game re-reading the file) says what became of it."""
        if self.read_only:
            why = self.journal.why_read_only if self.journal else str(self.problem)
            raise Refusal("log", f"this game is open read-only ({why})")
        if self.journal is None:
            return  # an in-memory game (tests, previews)
        try:
            self.journal.append_many([ev.encode(r) for r in records])
        except JournalReplaced as exc:
            raise Refusal("log", self._stop_writing(f"{exc}; nothing written")) from None
        except JournalError as exc:
            raise Refusal("log", str(exc) + _disk_hint(exc) + after_error()) from None

    def check_log(self) -> str:
        """'' while the log on disk is still the file this store writes; else the
        message, once the store has stopped writing (read-only). The app asks between
        entries, so a deleted or replaced log is told before the next one."""
        if self.journal is None or self.journal.read_only:
            return ""
        gone = self.journal.changed_on_disk()
        return self._stop_writing(gone) if gone else ""

    def _stop_writing(self, what: str) -> str:
        """Another file (or none) is at the path: re-reading it would quietly carry this
        window on in a different game, so it stops writing instead."""
        assert self.journal is not None
        self.journal.read_only = True
        self.journal.why_read_only = (
            f"{what}; this window stays read-only (open the game again to go on with the "
            "file that is there now)"
        )
        return self.journal.why_read_only

    def close(self) -> None:
        if self.journal:
            self.journal.close()


def _disk_hint(exc: JournalError) -> str:
    """Say plainly what a full disk means for the player."""
    text = str(exc)
    if "No space left" in text or "quota" in text.lower():
        return (
            ". The disk is full: nothing more can be recorded until space is freed; "
            "everything recorded before is safe"
        )
    if "Read-only file system" in text:
        return ". The disk is read-only: nothing can be recorded"
    return ""
