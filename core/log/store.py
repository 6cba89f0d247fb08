"""The log store: the file a game lives in, and nothing else.

Opening (the write lock is taken before the file is read; a torn tail, or a group whose
write was never accepted, is set aside: ``core.log.torn_tail``, ``core.log.
unfinished_group``; a long log is read piece by piece: ``core.log.long_read``; a
damaged log opens read-only up to the damage), appending records durably through
``core.log.journal`` (one group at a time, or a held group of many in one write:
``hold`` / ``write_held``), telling what a failed or refused write left in the file
(``core.log.failed_write``), and the bytes the snapshot cache (``core.log.snapcache``)
verifies. It wraps ``core.log.journal`` and ``core.log.game_log`` and leaves their
contents alone; it knows no rule and folds nothing (``core.book.projection`` does).
What only a torn, unfinished, long or failed log needs is in those modules, loaded
when the log is so: a short sound game's open never imports them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import msgspec

from stockade.core.log import derived, snap_sizes
from stockade.core.log.derived import Content
from stockade.core.log.files import group_marker
from stockade.core.log.game_log import GAME, LoadedLog, LogProblem, load
from stockade.core.log.game_timeline import Timeline
from stockade.core.log.journal import Journal
from stockade.core.log.journal_errors import JournalDamaged, JournalError, JournalReplaced
from stockade.core.log.records import LogRecords
from stockade.core.model import events as ev
from stockade.core.model.errors import LogRefusal

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:  # a long game's, a failed write's, a staged group's: loaded when so
    from stockade.core.log import snapcache
    from stockade.core.log.long_read import Streamed
    from stockade.core.log.on_disk import OnDisk
    from stockade.core.log.staging import StagedGroup


# Logs this long or longer are read piece by piece (``core.log.long_read``).
STREAM_FROM = 1 << 20

GameRecords = list[ev.Record] | LogRecords[ev.Record]


class LogStore(msgspec.Struct):
    records: GameRecords
    journal: Journal | None = None
    path: Path | None = None
    warnings: list[str] = msgspec.field(default_factory=list)
    problem: LogProblem | None = None
    # The bytes the snapshot cache verifies (``LogStore.open``; None for a small log):
    # the writer takes them once to fold from the cache and drops them (``take_log_data``).
    log_data: bytes | None = msgspec.field(default=None)
    # The length and digest of the log as this store read it and then wrote to it (every
    # accepted append added), the key of what is derived from it (core/log/derived.py);
    # None when the store is off, or when what the file holds is not simply that (a
    # torn tail or an unfinished group set aside, a failed write).
    content: Content | None = msgspec.field(default=None)

    # A long log's timeline, built as it was read (``take_timeline``).
    timeline: Timeline | None = msgspec.field(default=None)
    # The snapshot whose prefix the log was read past without decoding it (its bytes
    # hash to the snapshot's key): the fold starts from it (``take_snapshot``).
    snapshot: snapcache.Snapshot | None = msgspec.field(default=None)

    # While a group is held (``hold``): the lines written since, staged beside the log
    # (``core.log.staging``), not yet in it; None when nothing would be written.
    held: StagedGroup | None = msgspec.field(default=None)
    holding: bool = msgspec.field(default=False)
    # How many of ``records`` the file held when the group began: the rest are the
    # group's, in memory only until it is written.
    held_at: int = msgspec.field(default=0)

    def take_log_data(self, wanted: bool = True) -> bytes | snapcache.ReadAgain | None:
        """The bytes read at open, once: kept no longer than the fold needs them
        (``wanted``: does the fold use them? A long log read piece by piece is read
        again for them, and only then)."""
        data, self.log_data = self.log_data, None
        records = self.records
        if (
            wanted
            and data is None
            and isinstance(records, LogRecords)
            and len(records) >= snap_sizes.MIN_EVENTS
            and _snapshots_on()
        ):
            from stockade.core.log.snapcache import ReadAgain  # (loaded: ``_snapshots_on``)

            return ReadAgain(records)  # hashed again a block at a time, never held
        return data if wanted else None

    @property
    def read_only(self) -> bool:
        return self.journal is not None and self.journal.read_only or self.problem is not None

    def content_key(self) -> tuple[int, str] | None:
        """(length, digest) of the log as this store read and wrote it, or None."""
        return self.content.key() if self.content is not None else None

    def _follow_writes(self) -> None:
        """Keep ``content`` up to date with every accepted append of the journal."""
        if self.journal is not None and self.content is not None:
            self.journal.on_written = self.content.extend

    @classmethod
    def create(cls, path: Path, header: ev.Record) -> LogStore:
        # a new file holds exactly what its journal wrote: the digest of the writes
        content = Content() if derived.cache_dir() is not None else None
        follow = content.extend if content is not None else None
        journal = Journal.create(Path(path), ev.encode(header), on_written=follow)
        journal.chained = True  # every later line links to the one before (core/log/chain.py)
        return cls([header], journal, Path(path), content=content)

    @classmethod
    def open(cls, path: Path, read_only: bool) -> LogStore:
        """Open a log (its ``log_data``: the bytes the snapshot cache verifies, None for
        a small log). Raises JournalError if it cannot be read or is not a game."""
        path = Path(path)
        journal = Journal.open(path, want_write=not read_only)
        journal.chained = True  # every appended line links to the one before (core/log/chain.py)
        unfinished = ""
        try:
            if not journal.read_only and os.path.lexists(group_marker(path)):
                from stockade.core.log.unfinished_group import settle_unfinished_group

                unfinished = settle_unfinished_group(path, journal)
            streamed = _stream(path)
            if streamed is not None:
                return cls._streamed(path, journal, read_only, unfinished, *streamed)
            loaded: LoadedLog = load(path)
        except BaseException:
            journal.close()
            raise
        if journal.read_only and os.path.lexists(group_marker(path)):
            from stockade.core.log.unfinished_group import hide_unfinished_group

            unfinished = hide_unfinished_group(path, loaded)
        if loaded.problem and not loaded.records:
            journal.close()
            raise JournalDamaged(f"{path}: {loaded.problem}")
        warnings = list(loaded.warnings) + ([unfinished] if unfinished else [])
        if loaded.problem:
            journal.close()
            warnings.append(
                f"{loaded.problem}; opened read-only, nothing after it is "
                f"shown (stockade repair {path.name} writes a repaired copy)"
            )
            return cls(loaded.records, None, path, warnings, loaded.problem)
        if journal.read_only and journal.why_read_only and not read_only:
            warnings.append(journal.why_read_only)
        clean = not warnings and loaded.torn_tail is None
        if loaded.torn_tail is not None:  # a crash mid-write: saved, then cut back
            from stockade.core.log.torn_tail import settle_torn_tail

            journal = settle_torn_tail(path, loaded, journal, warnings)
        content = None
        if clean and derived.cache_dir() is not None and not os.path.lexists(group_marker(path)):
            # the very bytes the records were read from, hashed in one pass with the
            # snapshot's check of their prefix (``parts_from_store`` settles it)
            content = Content(loaded.data, later=True)
        log_data = None
        if len(loaded.records) >= snap_sizes.MIN_EVENTS and _snapshots_on():
            # the bytes already read (the file was only ever cut back to good_bytes
            # since): reading them again held a second copy of the log while it folds
            log_data = loaded.data[: loaded.good_bytes or None]
        store = cls(loaded.records, journal, path, warnings, log_data=log_data, content=content)
        store._follow_writes()
        return store

    @classmethod
    def read_sound(cls, path: Path) -> LogStore | None:
        """A long sound log read piece by piece, with no journal (nothing is written,
        nothing is locked: ``check`` and ``verify`` read a log as it is); None when it
        is short, or anything but sound (read it whole with ``load``)."""
        streamed = _stream(Path(path))
        if streamed is None:
            return None
        records, _content, timeline, _snapshot = streamed
        store = cls(records, None, Path(path))
        store.timeline = timeline
        return store

    @classmethod
    def _streamed(
        cls,
        path: Path,
        journal: Journal,
        read_only: bool,
        unfinished: str,
        records: LogRecords[ev.Record],
        content: Content | None,
        timeline: Timeline,
        snapshot: snapcache.Snapshot | None,
    ) -> LogStore:
        """The store of a sound long log read piece by piece: nothing torn, nothing
        damaged (else it is read whole), so only the notes of opening are said."""
        warnings = [unfinished] if unfinished else []
        if journal.read_only and journal.why_read_only and not read_only:
            warnings.append(journal.why_read_only)
        if warnings:
            content = None
        store = cls(records, journal, path, warnings, content=content)
        store.timeline, store.snapshot = timeline, snapshot
        store._follow_writes()
        return store

    def prefix(self, keep: int) -> GameRecords:
        """The first ``keep`` records (a game as it was before a group never written)."""
        records = self.records
        return records.prefix(keep) if isinstance(records, LogRecords) else records[:keep]

    def take_snapshot(self) -> snapcache.Snapshot | None:
        """The snapshot the log was read past (once), or None."""
        snapshot, self.snapshot = self.snapshot, None
        return snapshot

    def take_timeline(self) -> Timeline | None:
        """The timeline built as the log was read piece by piece (once), or None."""
        timeline, self.timeline = self.timeline, None
        return timeline

    def write(
        self,
        records: list[ev.Record],
        after_error: Callable[[], str],
        lines: list[bytes] | None = None,
    ) -> None:
        """Append ``records`` durably, all or none (``lines``: their encoding, when the
        caller already made it). On a failed write, ``after_error()`` (the game
        re-reading the file) says what became of it."""
        if self.read_only:
            why = self.journal.why_read_only if self.journal else str(self.problem)
            raise LogRefusal(f"this game is open read-only ({why})")
        if self.journal is None:
            return  # an in-memory game (tests, previews)
        lines = lines or [ev.encode(r) for r in records]
        if self.held is not None:
            try:  # written with the rest of the group (``write_held``)
                self.held.add(lines)
            except JournalError as failed:  # the log is not touched while a group is held
                raise LogRefusal(str(failed) + _disk_hint(failed)) from None
            return
        self._append(lines, after_error)

    def hold(self) -> None:
        """Hold every write back until ``write_held`` (or ``drop_held``): one group,
        staged beside the log (``core.log.staging``), not in memory."""
        if self.journal is not None and not self.read_only:
            try:
                self.held = self.journal.stage_group()
            except JournalError as failed:
                raise LogRefusal(str(failed) + _disk_hint(failed)) from None
            self._read_back(self.held)
        else:
            self.held = None  # nothing is written: ``write`` refuses or keeps it in memory
        self.holding = True
        self.held_at = len(self.records)

    def _read_back(self, group: StagedGroup) -> None:
        """The records become read back from the file, each line staged indexed where it
        will lie (``core.log.read_back``): a group of any length holds a slot a record,
        not the record. Left held as before when the file's lines are not the records."""
        from stockade.core.log.read_back import readable  # a staged group's

        assert self.journal is not None and self.path is not None
        records = readable(self.records, self.journal, self.path, GAME.decoder.decode)
        if records is None:
            return
        try:
            records.stage_into(group)
        except ValueError:
            return
        group.on_staged = records.stage
        self.records = records

    def drop_held(self) -> None:
        if isinstance(self.records, LogRecords):
            self.records.unstage()  # written: read from the log; else never read again
        if self.held is not None:
            self.held.close()
        self.held, self.holding = None, False

    def write_held(self, after_error: Callable[[], str]) -> int:
        """Write every held line, or none (a kill midway leaves the file as it was, or
        whole: ``Journal.append_group``); returns how many lines were written."""
        group = self.held
        try:
            if group is not None and group.lines and self.journal is not None:
                self._append_group(group, after_error)
            return group.lines if group is not None else 0
        finally:
            self.drop_held()

    def _append_group(self, group: StagedGroup, after_error: Callable[[], str]) -> None:
        assert self.journal is not None
        try:
            self.journal.append_group(group)
        except BaseException as failed:
            self._failed(failed, after_error)
            raise

    def _append(self, lines: list[bytes], after_error: Callable[[], str]) -> None:
        assert self.journal is not None
        try:
            self.journal.append_many(lines)
        except BaseException as failed:
            self._failed(failed, after_error)
            raise

    def _failed(self, failed: BaseException, after_error: Callable[[], str]) -> None:
        """Raise the refusal a failed write gets (the caller raises anything else)."""
        assert self.journal is not None
        # what the file holds now is for a re-read to say, never this store's digest
        self.content, self.journal.on_written = None, None
        if isinstance(failed, JournalReplaced):
            raise LogRefusal(self.stop_writing(f"{failed}; nothing written")) from None
        if isinstance(failed, JournalError):
            raise LogRefusal(str(failed) + _disk_hint(failed) + after_error()) from None

    def what_reached_the_file(self) -> tuple[OnDisk, str]:
        """After a failed or refused write: what the file holds now and what to tell the
        player of it (``core.log.failed_write``). Raises JournalError if the file cannot
        be read."""
        from stockade.core.log.failed_write import what_reached_the_file  # a failed write's

        assert self.journal is not None and self.path is not None
        on_file = self.records[: self.held_at] if self.holding else self.records
        return what_reached_the_file(self.path, self.journal, on_file, self.stop_writing)

    def check_log(self) -> str:
        """'' while the log on disk is still the file this store writes; else the
        message, once the store has stopped writing (read-only). The app asks between
        entries, so a deleted or replaced log is told before the next one."""
        if self.journal is None or self.journal.read_only:
            return ""
        gone = self.journal.changed_on_disk()
        return self.stop_writing(gone) if gone else ""

    def stop_writing(self, what: str) -> str:
        """Another file (or none) is at the path, or another program changed what this
        store read: re-reading it would quietly carry this window on in a different
        game, so it stops writing instead (the reason, as the player reads it)."""
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
        if isinstance(self.records, LogRecords):
            self.records.close()


def _snapshots_on() -> bool:
    """Are snapshots read and written (``snapcache.enabled``)? Asked only of a game long
    enough to have one (``snap_sizes.MIN_EVENTS``): a short one never loads the cache."""
    from stockade.core.log import snapcache

    return snapcache.enabled()


def _stream(path: Path) -> Streamed | None:
    """A long sound log read piece by piece (``core.log.long_read``); None when it is
    short, damaged, torn or has a group not yet accepted (``load`` reads it whole and
    says what it found)."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return None  # ``load`` names the problem
    if size < STREAM_FROM or os.path.lexists(group_marker(path)):
        return None
    from stockade.core.log.long_read import read_long  # a long log's: short ones never load it

    return read_long(path, size)


def _disk_hint(exc: JournalError) -> str:
    """What a full or read-only disk means for the player (``core.log.failed_write``)."""
    from stockade.core.log.failed_write import disk_hint  # a failed write's words

    return disk_hint(exc)
