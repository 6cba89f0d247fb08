"""``--json`` replies: one JSON object on stdout, the same envelope for every command.

The shape is documented in docs/commands.md ("JSON replies"). ``SCHEMA`` goes up only
when a field is removed or changes meaning; new fields may appear at any time, so a
reader should ignore keys it does not know.
"""

from __future__ import annotations

import json
import sys

from stockade.core.model.visible import json_visible

# typing costs ~2 ms to import, and the tally read from the store replies through this
# module; mypy reads a TYPE_CHECKING of our own the same way
TYPE_CHECKING = False

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from stockade.core.model import events as ev

SCHEMA = 1


def envelope(command: str, ok: bool = True, **payload: Any) -> dict[str, Any]:
    return {"schema": SCHEMA, "command": command, "ok": ok, **payload}


def reply_text(command: str, **payload: Any) -> str:
    """A successful reply as printed (without the final newline)."""
    return json_visible(json.dumps(envelope(command, **payload), indent=2, ensure_ascii=False))


def emit(command: str, **payload: Any) -> None:
    """Print a successful reply."""
    print(reply_text(command, **payload))


def emit_stream(command: str, key: str, items: Iterable[Any], **payload: Any) -> None:
    """Print a successful reply whose last field ``key`` is a list of ``items``, each
    written as it comes: the same text ``emit`` prints (``indent=2``), without holding
    the list or the whole text (a long game's history is hundreds of MB of it)."""
    out = sys.stdout
    empty: dict[str, Any] = {**payload, key: []}
    whole = json.dumps(envelope(command, **empty), indent=2, ensure_ascii=False)
    cut = whole.rindex("[]")  # the empty list is the last value: the items go there
    out.write(json_visible(whole[:cut]) + "[")
    lead = "\n    "
    for item in items:
        text = json.dumps(item, indent=2, ensure_ascii=False).replace("\n", "\n    ")
        out.write(json_visible(lead + text))  # strings hold no raw newline: JSON escapes it
        lead = ",\n    "
    out.write(("]" if lead == "\n    " else "\n  ]") + json_visible(whole[cut + 2 :]) + "\n")


def emit_error(
    command: str,
    code: int,
    message: str,
    rule: str | None = None,
    kind: str = "error",
    **payload: Any,
) -> None:
    """Print a failed reply (stdout; the one-line message also goes to stderr).

    ``rule``: the rule that refused it, or None (never ""); ``kind``: ``rule``,
    ``input``, ``history``, ``log`` or ``internal`` for a refusal, ``error`` for any
    other failure (a file, a damaged or locked log)."""
    error = {"exit": int(code), "message": message, "rule": rule or None, "kind": kind}
    reply = json.dumps(
        envelope(command, ok=False, error=error, **payload), indent=2, ensure_ascii=False
    )
    print(json_visible(reply))  # DEL, C1, bidi as \u escapes: valid JSON, inert
    sys.stdout.flush()


def record(rec: ev.Record) -> Any:
    """A record exactly as the log holds it (the log's own JSON, as an object)."""
    from stockade.core.model.events import encode

    return json.loads(encode(rec))


__all__ = ["SCHEMA", "emit", "emit_error", "emit_stream", "envelope", "record", "reply_text"]
