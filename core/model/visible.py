"""Data text shown, never obeyed: ``visible`` shows every control character in a string
from a log, a command or a file name as an escape, so nothing read can drive a terminal.

A name in a log may come from an opponent. An escape sequence in it could set the
window title, write the clipboard (OSC 52), plant a hyperlink or clear the screen when
it is printed or drawn. The schema refuses control characters in every record
(core/model/bounds.py); this is the second wall, for what reaches the screen by any other
way (a refused command echoed back, a file name, an old log read by ``repair``). The CLI
(core/cli/output.py) and the TUI (tui/plain.py) both show data text through it.

Control characters are shown, never sent: C0 and DEL as ``\\x1b``, C1 as ``\\x9b``, a
byte that was not UTF-8 (a surrogate-escaped file name) as ``\\xff``. Newline and tab
are the only ones passed through: they are how the CLI lays its own lines out.
Bidirectional overrides and isolates (U+202A-202E, U+2066-2069) are shown as ``\u202e``.
"""

from __future__ import annotations

import re

# C0 but tab and newline, DEL, C1, lone surrogates (bytes that were not UTF-8), and the
# bidirectional embeddings, overrides and isolates, which can make a line read in an
# order other than the one it has ("Trojan Source"); a log may hold those in a name.
_HIDDEN = "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"
# Every one of them is a character ``str.isprintable`` refuses (Cc, Cf, Cs, Zl, Zp): a
# text printable but for its newlines and tabs holds none, and is shown as it is. The
# pattern's text is compiled by ``re`` on the first text that is not (and kept): its
# surrogate range costs ~5 ms to compile, which most runs never need.
# In JSON text every C0 character is already escaped by json.dumps; DEL and C1 are
# not, and JSON has no \x escape, so they get \u escapes there. Kept as the pattern's
# text: ``re`` compiles it on the first JSON reply (and keeps it), not on every start.
_JSON_HIDDEN = "[\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the byte that could not be decoded
        return f"\\x{code - 0xDC00:02x}"
    if code > 0xFF:
        return f"\\u{code:04x}"
    return f"\\x{code:02x}"


def visible(text: str) -> str:
    """``text`` with every control character but newline and tab shown as an escape."""
    if text.replace("\n", "").replace("\t", "").isprintable():
        return text
    return re.sub(_HIDDEN, _shown, text)


def json_visible(text: str) -> str:
    """JSON text (from json.dumps) with DEL and C1 escaped the JSON way: still valid."""
    return re.sub(_JSON_HIDDEN, lambda m: f"\\u{ord(m.group()):04x}", text)
