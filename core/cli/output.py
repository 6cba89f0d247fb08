"""Everything the CLI prints goes through ``visible`` (core/model/visible.py, which says
why): while a command runs, stdout and stderr show control characters instead of
sending them, so nothing read from a log, a command or a file name can drive the
terminal."""

from __future__ import annotations

import contextlib
import sys

from stockade.core.model.visible import visible

# typing costs ~2 ms to import, and the tally read from the store prints through this
# module; mypy reads a TYPE_CHECKING of our own the same way
TYPE_CHECKING = False

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, TextIO


class VisibleStream:
    """A text stream that passes everything written through ``visible``."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(visible(text))
        return len(text)

    def writelines(self, lines: list[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding...
        return getattr(self._stream, name)


@contextlib.contextmanager
def visible_output() -> Iterator[None]:
    """While it runs, stdout and stderr show control characters instead of sending them."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = VisibleStream(out), VisibleStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
