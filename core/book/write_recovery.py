"""After a write failed or another program changed the log: find out what the file
holds and carry on from exactly that.

Separate from the write protocol (``core.book.writer``): nothing here writes a record.
It re-reads the log (the file is the truth) and replaces the writer's parts with what
it holds, or puts the game back to what it held before a group that never reached the
file. ``Writer`` takes these methods from ``WriteRecovery``.
"""

from __future__ import annotations

from stockade.core.book.game_parts import open_parts, parts_from_store
from stockade.core.book.projection import Projection
from stockade.core.log.game_timeline import Timeline
from stockade.core.log.journal_errors import JournalError
from stockade.core.log.store import LogStore

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:  # built on first use (``Writer.names_then``): a read may never need it
    from stockade.core.book import names_replay


class WriteRecovery:
    """The writer's recovery: its parts, as ``core.book.writer.Writer`` holds them."""

    store: LogStore
    timeline: Timeline
    projection: Projection
    named: set[int]
    replayed: names_replay.NamesThen | None

    def recover(self) -> None:
        """Re-read the log from disk and carry on from exactly what it holds.

        Called after a failed write: the journal refuses writes until this succeeds.
        Takes the lock afresh, sets aside any torn tail, and replaces the store, the
        timeline and the projection (the file is the truth). Raises JournalError if the
        log cannot be read.
        """
        journal, path = self.store.journal, self.store.path
        if path is None or journal is None:
            return
        journal.close()
        try:
            fresh = open_parts(path)
        except JournalError as exc:
            journal.read_only = True
            journal.why_read_only = f"could not re-read the log after an error: {exc}"
            raise
        self.store, self.timeline, self.projection = fresh
        self.named = set()
        self.replayed = None

    def _after_write_error(self) -> str:
        """A write failed or was refused: decide by content what the file holds
        (``LogStore.what_reached_the_file``), then re-read it before anything else is
        written, unless a line in it is not this game's (then nothing more is written
        and nothing of it is taken in). Returns what to tell the player."""
        journal = self.store.journal
        if journal is None or not journal.poisoned:
            return ""
        from stockade.core.log.on_disk import Found  # after a failed write only, as the store

        try:
            found, said = self.store.what_reached_the_file()
            if found.found is Found.FOREIGN:
                return f". {said}"
            self.recover()
        except JournalError as exc:
            if self.store.journal is not None:
                self.store.journal.read_only = True
                self.store.journal.why_read_only = f"could not re-read the log: {exc}"
            return (
                f". The log could not be re-read ({exc}); nothing more is written "
                "until it is (Game.recover / reopen the game)"
            )
        return said

    def check_log(self) -> str:
        """``Game.check_log``: the path's file replaced or gone (the store stops
        writing), or its length changed by another program (told as a failed write is:
        by what the file holds now)."""
        gone = self.store.check_log()
        journal = self.store.journal
        if gone or journal is None or not journal.resized():
            return gone
        said = self._after_write_error().removeprefix(". ")
        return f"{self.store.path}: another program changed the log while it was open; {said}"

    def _forget_after(self, keep: int) -> None:
        """The game as it was with its first ``keep`` records (what it held before a
        group that never reached the file): folded again from memory."""
        store = self.store
        fresh = parts_from_store(
            LogStore(store.prefix(keep), store.journal, store.path, store.warnings, store.problem)
        )
        self.store, self.timeline, self.projection = fresh
        self.named = set()
        self.replayed = None
