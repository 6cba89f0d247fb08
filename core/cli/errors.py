"""The CLI's own error and its exit codes: one table, documented in docs/commands.md.

| code | name       | meaning                                                        |
|------|------------|----------------------------------------------------------------|
| 0    | OK         | done                                                           |
| 1    | REFUSED    | an entry refused by a rule, or input the book cannot read      |
| 2    | USAGE      | a bad command line                                             |
| 3    | DAMAGED    | the log is damaged (check/repair), or a file that is not a game|
| 4    | CONFLICTS  | done, but the result leaves conflicting entries in the history |
| 5    | LOCKED     | another Stockade window is writing this game                  |
| 6    | REWRITTEN  | verify: the new log does not extend the old one                |
| 130  | INTERRUPTED| Ctrl-C                                                         |
"""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    OK = 0
    REFUSED = 1
    USAGE = 2
    DAMAGED = 3
    CONFLICTS = 4
    LOCKED = 5
    REWRITTEN = 6
    INTERRUPTED = 130


USAGE = Exit.USAGE  # bad command line
FAILED = Exit.REFUSED  # refused entry, bad input


class CliError(Exception):
    def __init__(self, message: str, code: int = FAILED):
        super().__init__(message)
        self.code = code
