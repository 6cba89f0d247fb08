"""The CLI's own error: one line for stderr and the exit code to leave with."""

from __future__ import annotations

USAGE = 2  # bad command line
FAILED = 1  # refused entry, bad file, bad input


class CliError(Exception):
    def __init__(self, message: str, code: int = FAILED):
        super().__init__(message)
        self.code = code
