"""What can go wrong with a log file, as types the callers catch.

Separate from the journal (``core.log.journal``) that raises most of them: the readers,
the store, the CLI and the app tell a damaged log from a locked or unwritable one by
these types without needing the journal itself.
"""

from __future__ import annotations


class JournalError(Exception):
    """A journal could not be read or written; the message is for the player (it names
    the file). ``errno``: the OS error behind it, if any, for callers that tell a full
    disk from a read-only one (never by the message's words)."""

    def __init__(self, message: str, errno: int | None = None):
        super().__init__(message)
        self.errno = errno


class JournalDamaged(JournalError):
    """The file holds no readable game: not a log, or damaged from its first line."""


class JournalWriteError(JournalError):
    """A write or fsync failed: the record was NOT accepted."""


class JournalReplaced(JournalWriteError):
    """The path no longer names the file this journal opened (deleted, moved, replaced):
    nothing is written, and the caller must not quietly carry on with another file."""


class JournalLocked(JournalError):
    """Another process holds the write lock on this journal."""
