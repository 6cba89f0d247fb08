"""The status line: the last outcome, the core's refusal (rule first), or a hint.

A refusal is marked with a symbol and the word "refused" as well as colour.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

KINDS = {"ok": "✓ ", "refusal": "✗ refused: ", "hint": "» ", "info": ""}


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine { height: auto; max-height: 3; padding: 0 1; background: $panel; }
    StatusLine.-refusal { background: $error 25%; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.kind = "info"
        self.message = ""

    def say(self, message: str, kind: str = "info") -> None:
        self.kind, self.message = kind, message
        self.set_class(kind == "refusal", "-refusal")
        styles = self.app.theme_variables
        colour = {
            "ok": styles.get("success", ""),
            "refusal": styles.get("error", ""),
            "hint": styles.get("accent", ""),
        }.get(kind, "")
        text = Text(no_wrap=False, overflow="ellipsis")
        text.append(KINDS.get(kind, ""), style=f"bold {colour}")
        text.append(message)
        self.update(text)
