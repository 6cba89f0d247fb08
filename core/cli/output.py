"""Everything the CLI prints goes through ``visible``: nothing read from a log, a
command or a file name can drive the terminal.

A name in a log may come from an opponent. An escape sequence in it could set the
window title, write the clipboard (OSC 52), plant a hyperlink or clear the screen when
``history`` prints it. The schema refuses control characters in every record
(core/model/bounds.py); this is the second wall, for what reaches the terminal by any other
way (a refused command echoed back, a file name, an old log read by ``repair``).

Control characters are shown, never sent: C0 and DEL as ``\\x1b``, C1 as ``\\x9b``, a
byte that was not UTF-8 (a surrogate-escaped file name) as ``\\xff``. Newline and tab
are the only ones passed through: they are how the CLI lays its own lines out.
Bidirectional overrides and isolates (U+202A-202E, U+2066-2069) are shown as ``\u202e``.
"""

from __future__ import annotations

import contextlib
import re
import sys

# typing costs ~2 ms to import, and the tally read from the store prints through this
# module; mypy reads a TYPE_CHECKING of our own the same way
TYPE_CHECKING = False

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, TextIO

# C0 but tab and newline, DEL, C1, lone surrogates (bytes that were not UTF-8), and the
# bidirectional embeddings, overrides and isolates, which can make a line read in an
# order other than the one it has ("Trojan Source"); a log may hold those in a name.
_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
# In JSON text every C0 character is already escaped by json.dumps; DEL and C1 are
# not, and JSON has no \x escape, so they get \u escapes there.
_JSON_HIDDEN = re.compile("[\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the byte that could not be decoded
        return f"\\x{code - 0xDC00:02x}"
    if code > 0xFF:
        return f"\\u{code:04x}"
    return f"\\x{code:02x}"


def visible(text: str) -> str:
    """``text`` with every control character but newline and tab shown as an escape."""
    return _HIDDEN.sub(_shown, text)


def json_visible(text: str) -> str:
    """JSON text (from json.dumps) with DEL and C1 escaped the JSON way: still valid."""
    return _JSON_HIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


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
