"""The command bar: the CLI's command language, typed after ``:``.

Completion comes from the core (``core.commands.complete``): the best candidate is shown
inline (tab or right arrow takes it) and the others are offered in the status line.
Up and down recall earlier commands. The bar never judges a command: the app hands the
text to the core and shows the core's refusal, rule first.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Input, Label


def merge_candidate(text: str, candidate: str) -> str:
    """The command line with its last (partly typed) word replaced by ``candidate``."""
    if not text or text[-1].isspace():
        return text + candidate
    last = text.split()[-1]
    return text[: len(text) - len(last)] + candidate


class CoreSuggester(Suggester):
    """Inline suggestion: the first completion the core offers."""

    def __init__(self, candidates: Callable[[str], list[str]]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self._candidates = candidates

    async def get_suggestion(self, value: str) -> str | None:
        if not value.strip():
            return None
        for candidate in self._candidates(value):
            full = merge_candidate(value, candidate)
            if full != value and full.startswith(value):
                return full
        return None


class CommandInput(Input):
    BINDINGS = [
        Binding("tab", "complete", "Complete", show=False, id="stockade.command_complete"),
        Binding("up", "recall(-1)", "Earlier", show=False, id="stockade.command_earlier"),
        Binding("down", "recall(1)", "Later", show=False, id="stockade.command_later"),
        Binding("escape", "leave", "Leave", show=False, id="stockade.command_leave"),
    ]

    def __init__(self, candidates: Callable[[str], list[str]], **kwargs) -> None:
        super().__init__(suggester=CoreSuggester(candidates), **kwargs)
        self.recalled: list[str] = []
        self._recall_at = 0

    def action_complete(self) -> None:
        if self._suggestion:
            self.value = self._suggestion
            self.cursor_position = len(self.value)
            if not self.value.endswith(" "):
                self.insert_text_at_cursor(" ")

    def action_recall(self, step: int) -> None:
        if not self.recalled:
            return
        self._recall_at = max(0, min(len(self.recalled), self._recall_at + step))
        self.value = self.recalled[self._recall_at] if self._recall_at < len(self.recalled) else ""
        self.cursor_position = len(self.value)

    def remember(self, text: str) -> None:
        if text and (not self.recalled or self.recalled[-1] != text):
            self.recalled.append(text)
        self._recall_at = len(self.recalled)

    def action_leave(self) -> None:
        self.value = ""
        self.post_message(CommandBar.Left())


class CommandBar(Horizontal):
    DEFAULT_CSS = """
    CommandBar { height: 1; background: $surface; }
    CommandBar > Label { width: 2; padding: 0 0 0 1; color: $text-muted; }
    CommandBar:focus-within > Label { color: $primary; text-style: bold; }
    CommandBar > Input { border: none; height: 1; padding: 0; background: $surface; }
    CommandBar > Input:focus { border: none; background: $boost; }
    """

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Changed(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Left(Message):
        pass

    def __init__(self, candidates: Callable[[str], list[str]], **kwargs) -> None:
        super().__init__(**kwargs)
        self._candidates = candidates

    def compose(self) -> ComposeResult:
        yield Label(":")
        yield CommandInput(
            self._candidates,
            placeholder="press : and type a command (help lists them; tab completes)",
            id="command-input",
        )

    @property
    def input(self) -> CommandInput:
        return self.query_one(CommandInput)

    def open(self, text: str = "") -> None:
        self.input.value = text
        self.input.cursor_position = len(text)
        self.input.focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        # A player who presses ':' again while already in the bar means "a command".
        text = event.value.strip().lstrip(":").strip()
        if text:
            self.input.remember(text)
            self.post_message(self.Submitted(text))

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(event.value))
