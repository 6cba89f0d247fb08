"""``--json`` replies: one JSON object on stdout, the same envelope for every command.

The shape is documented in docs/commands.md ("JSON replies"). ``SCHEMA`` goes up only
when a field is removed or changes meaning; new fields may appear at any time, so a
reader should ignore keys it does not know.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from stockade.core.model.visible import json_visible

if TYPE_CHECKING:
    from stockade.core.model import events as ev

SCHEMA = 1


def envelope(command: str, ok: bool = True, **payload: Any) -> dict[str, Any]:
    return {"schema": SCHEMA, "command": command, "ok": ok, **payload}


def emit(command: str, **payload: Any) -> None:
    """Print a successful reply."""
    print(json_visible(json.dumps(envelope(command, **payload), indent=2, ensure_ascii=False)))


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


__all__ = ["SCHEMA", "emit", "emit_error", "envelope", "record"]
