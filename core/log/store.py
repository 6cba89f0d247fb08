"""The log store: the file a game lives in, and nothing else.

Opening (the write lock is taken before the file is read; a torn tail, or a group whose
write was never accepted, is set aside; a damaged log opens read-only up to the
damage), appending records durably through ``core.log.journal`` (one group at a time,
or a held group of many in one write: ``hold`` / ``write_held``), telling what a failed
or refused write left in the file (``what_reached_the_file``, by content: ``core.log.
on_disk``), and the bytes the snapshot cache (``core.log.snapcache``) verifies. It
wraps ``core.log.journal`` and ``core.log.game_log`` and leaves their contents alone; it knows
no rule and folds nothing (``core.book.projection`` does).
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import msgspec

from stockade.core.log import chain, derived, snap_sizes
from stockade.core.log.derived import Content
from stockade.core.log.files import group_marker, read_marker, write_new_file
from stockade.core.log.game_log import GAME, LoadedLog, LogProblem, load
from stockade.core.log.game_timeline import CONTROLS, Timeline
from stockade.core.log.journal import Journal
from stockade.core.log.journal_errors import JournalDamaged, JournalError, JournalReplaced
from stockade.core.log.records import LogRecords, ReadAgain
from stockade.core.log.timeline import extend as extend_timeline
from stockade.core.model import events as ev
from stockade.core.model.errors import LogRefusal

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:  # a write's: what a failed write left (on_disk), a staged group
    from stockade.core.log import snapcache  # a long game's: loaded when it has one
    from stockade.core.log.on_disk import OnDisk
    from stockade.core.log.staging import StagedGroup


# A long log's records are read again from the file when asked for: the timeline and
# the fold hold each by its seq (``Timeline.lines``, ``core.log.effective_records``).
def _held(record: ev.Record) -> bool:
    return False


# Logs this long or longer are read piece by piece (``core.log.streamed_read.stream``).
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

    def take_log_data(self, wanted: bool = True) -> bytes | ReadAgain | None:
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
            return records.bytes_read()  # hashed again a block at a time, never held
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
            if not journal.read_only:
                unfinished = _settle_unfinished_group(path, journal)
            streamed = _stream(path)
            if streamed is not None:
                return cls._streamed(path, journal, read_only, unfinished, *streamed)
            loaded: LoadedLog = load(path)
        except BaseException:
            journal.close()
            raise
        if journal.read_only:
            unfinished = _hide_unfinished_group(path, loaded)
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
        else:
            self.held = None  # nothing is written: ``write`` refuses or keeps it in memory
        self.holding = True
        self.held_at = len(self.records)

    def drop_held(self) -> None:
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
        """After a failed or refused write: what the file holds now (``core.log.on_disk``,
        by content) and what to tell the player of it. A foreign line stops this store
        writing (it is never taken in); lost entries are kept in a side file first, a
        copy of the log as this game had it. Raises JournalError if the file cannot be
        read."""
        from stockade.core.log.on_disk import Found, examine  # after a failed write only

        assert self.journal is not None and self.path is not None
        journal, path = self.journal, self.path
        on_file = self.records[: self.held_at] if self.holding else self.records
        found = examine(path, on_file, journal.size, journal.last_attempt)
        if found.found is Found.FOREIGN:
            return found, self.stop_writing(
                f"{path}: line {found.line} was not written by this game (another program "
                f"wrote it while the game was open: {found.text!r}); it is not taken into "
                f"the game, and stockade check {path.name} shows where the log stops being "
                "Stockade's; your entry was NOT recorded"
            )
        if found.found is Found.LOST:
            copy = self._keep_copy(on_file)
            first, last = found.line, found.line + found.lost - 1
            entries = f"entry {first}" if first == last else f"entries {first}-{last}"
            return found, (
                f". {found.lost} accepted entr{'y is' if found.lost == 1 else 'ies are'} no "
                f"longer in the log as this game had {'it' if found.lost == 1 else 'them'} "
                f"({entries}: another program cut the file short or changed it); the log "
                f"as this game had it {copy}. The game goes on from what the file holds now"
            )
        if found.found in (Found.WRITTEN, Found.PART_WRITTEN) and os.path.lexists(
            group_marker(path)
        ):  # a group never accepted: the re-read cuts it back (``_settle_unfinished_group``)
            return found, (
                ". The log was re-read: what had reached the file of it was cut back and "
                "set aside; nothing of it was recorded"
            )
        said = {
            Found.NOT_WRITTEN: ". The log was re-read: it holds what it held before",
            Found.WRITTEN: (
                ". The log was re-read: the entry had reached the file after all (the "
                "cut-back failed) and is kept; check the history"
            ),
            Found.PART_WRITTEN: (
                f". The log was re-read: {found.kept} whole line(s) of the entry had reached "
                "the file and are kept, the unfinished one is set aside; check the history"
            ),
        }
        return found, said[found.found]

    def _keep_copy(self, records: Sequence[ev.Record]) -> str:
        """``records`` as a log (hash-chained, as the journal writes one) in a new side
        file beside this one: where it went, or why it could not be written."""
        assert self.path is not None
        data = b"".join(line + b"\n" for line in chain.chained([ev.encode(r) for r in records]))
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for n in range(100):
            side = self.path.with_name(f"{self.path.name}.kept-{stamp}" + (f".{n}" if n else ""))
            try:
                write_new_file(side, data)
            except FileExistsError:
                continue
            except OSError as exc:
                return f"could not be kept ({side}: {exc.strerror or exc})"
            return f"was kept in {side}"
        return "could not be kept (every side file name was taken)"

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


if TYPE_CHECKING:
    Streamed = tuple[LogRecords[ev.Record], Content | None, Timeline, snapcache.Snapshot | None]


def _snapshots_on() -> bool:
    """Are snapshots read and written (``snapcache.enabled``)? Asked only of a game long
    enough to have one (``snap_sizes.MIN_EVENTS``): a short one never loads the cache."""
    from stockade.core.log import snapcache

    return snapcache.enabled()


def _stream(path: Path) -> Streamed | None:
    """A long sound log read piece by piece, the digest of its bytes (None when no
    derived store keys anything by it), its timeline, built as it was read, and the
    snapshot whose prefix it was read past undecoded (``_stream_past``); None
    when it is short, damaged, torn or has a group not yet accepted (``load`` reads
    it whole and says what it found)."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return None  # ``load`` names the problem
    if size < STREAM_FROM or os.path.lexists(group_marker(path)):
        return None
    from stockade.core.log import snapcache
    from stockade.core.log.streamed_read import stream  # a long log's: short ones never load it

    snapshot = snapcache.peek(path) if snapcache.enabled() else None
    if snapshot is not None and snapshot.timeline is not None and snapshot.log_bytes <= size:
        past = _stream_past(path, snapshot)
        if past is not None:
            return past
    content = Content() if derived.cache_dir() is not None else None
    # groups hold seqs from the first record on; the records by line are the stream's
    timeline = Timeline(CONTROLS, lines=[])
    read = stream(
        path,
        GAME,
        _held,
        content.extend if content is not None else None,
        partial(extend_timeline, timeline),
    )
    if read is None:
        return None
    timeline.lines = read.records
    return read.records, content, timeline, None


def _stream_past(path: Path, snapshot: snapcache.Snapshot) -> Streamed | None:
    """The log read past the prefix ``snapshot`` was made from, without decoding it:
    its bytes hashed on the way (the digest the snapshot is keyed by proves them the
    very bytes once read whole, checked and folded), its timeline the snapshot's,
    only the lines after it decoded and checked. None when the prefix does not hold
    (changed, cut short, or not whole lines) or the lines after it are not sound."""
    from stockade.core.log import snapcache
    from stockade.core.log.streamed_read import Proven, stream

    rows = snapshot.timeline
    assert rows is not None
    if max(rows.group_seqs, default=0) > snapshot.lines or max(rows.alone, default=0) > (
        snapshot.lines
    ):
        return None
    timeline = Timeline(CONTROLS, lines=[])
    try:
        snapcache.timeline_of(rows, timeline)
    except ValueError:
        return None
    content = Content()
    proven = Proven(
        snapshot.log_bytes,
        snapshot.lines,
        lambda: content.digest() == snapshot.log_hash,
        snapshot.index,
    )
    read = stream(path, GAME, _held, content.extend, partial(extend_timeline, timeline), proven)
    if read is None:
        return None
    timeline.lines = read.records
    return read.records, content, timeline, snapshot


def _settle_unfinished_group(path: Path, journal: Journal) -> str:
    """A group whose write was never accepted (``Journal.append_group``'s marker is still
    there: killed, or failed and not cut back): set the bytes it left aside and cut the
    log back to where it began. '' when there is none."""
    marker = group_marker(path)
    lengths = read_marker(marker)
    if lengths is None:
        if os.path.lexists(marker):
            os.unlink(marker)  # not a marker (a link, other bytes): never followed
        return ""
    before, after = lengths
    size = journal.size
    if size <= before:  # the write never began
        os.unlink(marker)
        return ""
    with open(path, "rb") as log:
        log.seek(before)
        unfinished = log.read(size - before)
    from stockade.core.log.torn_tail import set_aside  # a write: only when there is one

    side = set_aside(path, unfinished)
    journal.truncate_torn_tail(before)
    os.unlink(marker)
    return (
        f"the last write into this log was never accepted ({size - before} of "
        f"{after - before} bytes of one group of entries: a 'stockade run' killed or failed "
        f"while writing); none of it counts: the log was cut back to what it held "
        f"before, and the bytes were set aside to {side.name}"
    )


def _hide_unfinished_group(path: Path, loaded: LoadedLog) -> str:
    """Read-only, a group not yet accepted (being written, or killed until a writer
    opens the log) is not shown: the records end where the group began."""
    lengths = read_marker(group_marker(path))
    if lengths is None or loaded.size <= lengths[0]:
        return ""
    keep = loaded.data[: lengths[0]].count(b"\n")
    if keep >= len(loaded.records):
        return ""
    hidden = len(loaded.records) - keep
    del loaded.records[keep:]
    loaded.torn_tail = None  # part of the unfinished group, not a torn line of its own
    loaded.good_bytes = lengths[0]
    return (
        f"the last {hidden} entries are a write not yet accepted (a 'stockade run' "
        "writing, or killed while writing); they are not shown"
    )


def _disk_hint(exc: JournalError) -> str:
    """Say plainly what a full or read-only disk means for the player (told by the OS
    error's number, never by its words, which depend on the platform and language)."""
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return (
            ". The disk is full: nothing more can be recorded until space is freed; "
            "everything recorded before is safe"
        )
    if exc.errno == errno.EROFS:
        return ". The disk is read-only: nothing can be recorded"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return ". Stockade may not write this file: nothing can be recorded"
    return ""
