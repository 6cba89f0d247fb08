"""The command bar: the CLI's command language, typed after ``:``.

Completion comes from the core (``core.commands.complete``): the best candidate is shown
inline (tab or right arrow takes it) and the others are offered in the status line.
Up and down recall earlier commands. The bar never judges a command: the app hands the
text to the core and shows the core's refusal, rule first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input, Static
from textual.widgets.input import Selection

from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import key_of, raw_keys
from stockade.tui.widgets.laid_out_once import LaidOutOnce
from stockade.tui.widgets.offer_list import OfferList


def merge_candidate(text: str, candidate: str) -> str:
    """The command line with its last (partly typed) word replaced by ``candidate``."""
    if not text or text[-1].isspace():
        return text + candidate
    last = text.split()[-1]
    return text[: len(text) - len(last)] + candidate


def first_completion(candidates: Callable[[str], list[str]], value: str) -> str | None:
    """The line ``value`` completed with the first completion the core offers, or None."""
    if not value.strip():
        return None
    for candidate in candidates(value):
        full = merge_candidate(value, candidate)
        if full != value and full.startswith(value):
            return full
    return None


# The command language (core.commands, ~25 ms of imports) loads when the player first
# moves by a word or enters a command, never for the main screen to show.
def word_after(text: str, at: int) -> int:
    """Where the word after ``at`` starts, by the command language's words."""
    from stockade.core.commands.lexer import next_word_start

    return next_word_start(text, at)


def word_before(text: str, at: int) -> int:
    """Where the word before ``at`` starts, by the command language's words."""
    from stockade.core.commands.lexer import previous_word_start

    return previous_word_start(text, at)


class CoreSuggester(Suggester):
    """Inline suggestion: the first completion the core offers."""

    def __init__(self, candidates: Callable[[str], list[str]]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.candidates = candidates

    async def get_suggestion(self, value: str) -> str | None:
        return first_completion(self.candidates, value)


def leave_keys(app: object) -> list[str]:
    return raw_keys(app, "stockade.command_leave")


class CommandInput(Input, inherit_css=False):
    """The bar's input. Styled by the bar's CSS alone (``inherit_css=False``): the
    rules of ``Input`` and of its bases that show in the bar are restated there, so
    the main screen fills without parsing ``Input``'s CSS (its borders, its invalid,
    compact and ANSI looks; ~9 M instructions) nor ``Widget``'s, ``ScrollView``'s and
    ``ScrollableContainer``'s again at a deeper rank."""

    BINDINGS = key_bindings("command")
    COMPONENT_CLASSES: ClassVar[set[str]] = Input.COMPONENT_CLASSES  # not inherited either

    def __init__(self, candidates: Callable[[str], list[str]], **kwargs: Any) -> None:
        super().__init__(suggester=CoreSuggester(candidates), **kwargs)
        self.candidates = candidates
        self.can_focus = False  # only ``CommandBar.open`` (the : key, a click) enters it
        self.recalled: list[str] = []
        self._recall_at = 0
        self._kept = False  # the selection is a refused line, kept (see ``keep``)

    @property
    def offers(self) -> OfferList | None:
        bar = self.bar
        return bar.offers if bar is not None else None

    @property
    def bar(self) -> CommandBar | None:
        for node in self.ancestors:
            if isinstance(node, CommandBar):
                return node
        return None

    def action_complete(self) -> None:
        offers = self.offers
        if not self.value.strip() and offers is not None and offers.picked:
            # the empty bar lists what may happen now: tab takes the one picked
            self.value = offers.picked
            self.cursor_position = len(self.value)
            if not self.value.endswith(" "):
                self.insert_text_at_cursor(" ")
            return
        # the same completion the inline suggestion shows, asked of the core again
        # (the Input keeps its suggestion private)
        completed = first_completion(self.candidates, self.value)
        if completed:
            self.value = completed
            self.cursor_position = len(self.value)
            if not self.value.endswith(" "):
                self.insert_text_at_cursor(" ")

    # Word jumps and deletes by the command language's words: Input's own stop at
    # every '-', inside a counter (4-4-7) or a leader (9-1).
    def action_cursor_right_word(self, select: bool = False) -> None:
        self._word_to(word_after(self.value, self.cursor_position), select)

    def action_cursor_left_word(self, select: bool = False) -> None:
        self._word_to(word_before(self.value, self.cursor_position), select)

    def _word_to(self, target: int, select: bool) -> None:
        if select:
            self.selection = Selection(self.selection.start, target)
        else:
            self.cursor_position = target

    def action_delete_left_word(self) -> None:
        if self.selection.is_empty:
            self.delete(word_before(self.value, self.cursor_position), self.cursor_position)
        else:
            self.delete_selection()

    def action_delete_right_word(self) -> None:
        if self.selection.is_empty:
            self.delete(self.cursor_position, word_after(self.value, self.cursor_position))
        else:
            self.delete_selection()

    def action_recall(self, step: int) -> None:
        offers = self.offers
        if not self.value.strip() and offers is not None and offers.step(step):
            return  # the empty bar's list: down and up pick the entry (up at the top: recall)
        if not self.recalled:
            return
        self._recall_at = max(0, min(len(self.recalled), self._recall_at + step))
        self.value = self.recalled[self._recall_at] if self._recall_at < len(self.recalled) else ""
        self.cursor_position = len(self.value)

    def keep(self) -> None:
        """A refused line stays in the bar, selected, the cursor at its end: a letter
        (or a paste) replaces it with the next command, as a shell's line after an
        error would not glue them; backspace, the arrows, home/end and the bar's other
        keys edit it where the cursor stands (the selection drops first). A key of the
        board or the app (ctrl+down to read the refusal) leaves it selected."""
        self.selection = Selection(0, len(self.value))
        self._kept = True

    def _edit_kept(self, event: events.Key) -> None:
        """A key on a kept line: an editing key drops the selection, so it edits."""
        if not self._kept:
            return
        if not event.is_printable:
            active = self.app.active_bindings.get(event.key)
            if active is not None and active.node is not self:
                return  # not the bar's key: the line stays selected
            if self.selection == Selection(0, len(self.value)):
                self.cursor_position = len(self.value)
        self._kept = False

    def remember(self, text: str) -> None:
        if text and (not self.recalled or self.recalled[-1] != text):
            self.recalled.append(text)
        self._recall_at = len(self.recalled)

    async def on_key(self, event: events.Key) -> None:
        # A public handler: Textual calls it in this widget's turn, before ``Input``'s
        # own key handling, which ``prevent_default`` skips for the keys handled here.
        if self.screen.focused is not self:
            # Typed after enter, queued here before the bar gave the focus back: the
            # board's key (n, u, ...), not text. Hand it to the app again, in order.
            event.stop()
            event.prevent_default()
            self.app.post_message(events.Key(event.key, event.character))
            return
        if event.key == "enter":
            # Run it here, in this widget's turn, not when the key has bubbled up to
            # the app: by then the keys typed after it would have landed in the bar.
            event.stop()
            event.prevent_default()
            await self.action_submit()
            return
        if event.key in leave_keys(self.app):
            # Likewise: leave in this key's turn, so a key typed right after esc is
            # the board's, not text in the bar.
            event.stop()
            event.prevent_default()
            self.action_leave()
            return
        self._edit_kept(event)
        if not event.is_printable:
            await self._run_binding_now(event)

    async def _run_binding_now(self, event: events.Key) -> None:
        # A bound key (ctrl+u, backspace, tab, up, the screen's ctrl+z...) is otherwise
        # run only once the key has bubbled up to the app, a few turns later: in a burst
        # (a paste, a fast typist) the letters and the enter typed after it would land
        # first, and ctrl+u would then wipe the new line after entering the old one with
        # it glued on. Run it here, in this key's turn, in the order it was typed.
        active = self.app.active_bindings.get(event.key)
        if active is None or active.binding.priority:
            return  # priority bindings already ran when the app received the key
        if await self.app.run_action(active.binding.action, active.node):
            event.stop()
            event.prevent_default()

    async def action_submit(self) -> None:
        # Handled here, in the key's own turn, not by a message that would wait behind
        # the keys typed after enter: those keys must reach the board, not this bar.
        bar = self.bar
        if bar is not None:
            bar.submit(self.value)

    def watch_value(self, value: str) -> None:
        bar = self.bar
        if bar is not None:
            bar.edited(value)

    def on_blur(self) -> None:
        if not self.value.strip():  # an empty bar leaves the focus chain when left
            self.can_focus = False

    def action_leave(self) -> None:
        self.value = ""
        self.can_focus = False
        # Out of the bar at once, not when the message below is handled: a key typed
        # right after esc is the board's.
        self.screen.set_focus(None)
        self.post_message(CommandBar.Left())


class CommandPrompt(LaidOutOnce, Static):
    """The bar's ":" (a ``Static``: a class the frame has styled already)."""


class CommandBar(LaidOutOnce, Horizontal):
    """The bar, and above it the list of entries that may happen now (shown while the
    bar is empty: when it opens, and when a phase opens). The list is mounted beside
    the bar, before it, so that the bar is the row itself (no container that only
    holds the prompt and the input)."""

    DEFAULT_CSS = """
    CommandBar { height: 1; background: $surface; }
    CommandBar .command-prompt { width: 2; padding: 0 0 0 1; color: $text-muted; }
    CommandBar:focus-within .command-prompt { color: $primary; text-style: bold; }
    CommandBar CommandInput {
        width: 100%; height: 1; overflow: auto auto; scrollbar-size-horizontal: 0;
        background: $surface; color: $foreground; pointer: text;
    }
    CommandBar CommandInput:focus { background: $boost; background-tint: $foreground 5%; }
    CommandBar CommandInput > .input--cursor {
        background: $input-cursor-background; color: $input-cursor-foreground;
        text-style: $input-cursor-text-style;
    }
    CommandBar CommandInput > .input--selection {
        background: $input-selection-background; color: $input-selection-foreground;
    }
    CommandBar CommandInput > .input--placeholder, CommandBar CommandInput > .input--suggestion {
        color: $text-disabled;
    }
    """

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Changed(Message):
        """The text in the bar changed; ``turn`` tells whether it is still the latest."""

        def __init__(self, text: str, turn: int) -> None:
            super().__init__()
            self.text = text
            self.turn = turn

    class Left(Message):
        pass

    def __init__(
        self,
        candidates: Callable[[str], list[str]],
        run: Callable[[str], object] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._candidates = candidates
        self._run = run  # runs a command at once; without it, a Submitted message
        # Counts the edits and the entries, when they happen: a Changed message is
        # handled a few turns later, and one whose turn is no longer the latest (an
        # edit or an enter came after it) is stale.
        self.turn = 0
        self._listing = False  # list the entries that may happen now while empty
        # Hidden until a phase opens or the bar opens: mounted then, so the main
        # screen fills without it (its class, CSS, mount and a layout).
        self._offers = OfferList(self, id="offers")

    def compose(self) -> ComposeResult:
        # a Static, not a Label: the same one cell, without loading and styling
        # another widget class for it while the main screen fills
        yield CommandPrompt(":", classes="command-prompt", markup=False)
        yield CommandInput(
            self._candidates,
            placeholder=self._closed_placeholder(listed=False),
            id="command-input",
        )

    @property
    def input(self) -> CommandInput:
        return self.query_one(CommandInput)

    @property
    def offers(self) -> OfferList:
        """The entries' list above the bar, mounted when first asked for."""
        parent = self.parent
        if self._offers.parent is None and isinstance(parent, Widget):
            # hidden with the bar where a screen too small hides its parts
            self._offers.set_class(self.has_class("part"), "part")
            parent.mount(self._offers, before=self)
        return self._offers

    def list_offers(self, lines: list[tuple[str, str]], now: bool | None = None) -> None:
        """The entries that may happen now (line, rule); ``now``: list them (a phase
        opened), or not (the player left the bar); None keeps the listing as it is,
        shown only while the bar is empty."""
        if now is not None:
            self._listing = now
        self.offers.show(lines, self._listing and not self.input.value.strip())
        if not self.input.has_focus:
            self.input.placeholder = self._closed_placeholder()
        else:  # the bar stays open after an entry: it says what the new list takes
            self.input.placeholder = self._open_placeholder(
                key_of(self.app, "stockade.command_leave")
            )

    @property
    def listing(self) -> bool:
        """Whether the entries that may happen now are listed while the bar is empty."""
        return self._listing

    @on(OfferList.Picked)
    def _picked(self, event: OfferList.Picked) -> None:
        event.stop()
        self.open(event.line + ("" if event.line.endswith(" ") else " "))

    def _open_placeholder(self, leave: str) -> str:
        """What the open, empty bar says it takes: the arrows pick among two or more
        entries listed (one listed is already picked: the arrows recall commands)."""
        listed = len(self.offers.lines)
        if listed > 1:
            return f"↓↑ pick an entry above, tab fills it; or type a command · {leave}: board"
        if listed == 1:
            return f"tab fills the entry above; or type a command · {leave}: board"
        return f"type a command (help lists them; tab completes) · {leave}: board"

    def open(self, text: str = "") -> None:
        leave = key_of(self.app, "stockade.command_leave")
        self.input.placeholder = self._open_placeholder(leave)
        self.input.can_focus = True
        self.input.value = text
        self.input.cursor_position = len(text)
        self._listing = True
        self.offers.show(self.offers.lines, not text.strip())
        # At once, not after the queued events (``focus()`` waits): the keys typed right
        # after ':' belong to the bar, not to the board's bindings.
        self.screen.set_focus(self.input)

    def close(self) -> None:
        """Empty the bar and take it out of the focus chain: Tab (or a click elsewhere
        after scrolling) never lands in it, so letters are keys again, not text."""
        self.input.value = ""
        self.input.can_focus = False
        self._listing = False
        self.offers.show(self.offers.lines, False)
        self.input.placeholder = self._closed_placeholder()

    def _closed_placeholder(self, listed: bool | None = None) -> str:
        key = key_of(self.app, "stockade.command")
        if self.offers.shown if listed is None else listed:
            return f"press {key}, then tab takes the entry marked ▸ (↓↑ pick); or type a command"
        return f"press {key} and type a command (help lists them; tab completes)"

    def on_click(self) -> None:
        if not self.input.has_focus:
            self.open(self.input.value)

    def edited(self, text: str) -> None:
        self.offers.show(self.offers.lines, self._listing and not text.strip())
        self.turn += 1
        self.post_message(self.Changed(text, self.turn))

    def submit(self, value: str) -> None:
        # The hints of the text typed before enter arrive after the reply to it: they
        # are stale, or they would replace the reply (a refused line stays in the bar,
        # so its text alone cannot tell).
        self.turn += 1
        # A player who presses ':' again while already in the bar means "a command".
        text = value.strip().lstrip(":").strip()
        if not text:
            return
        self.input.remember(text)
        if self._run is not None:
            self._run(text)
        else:
            self.post_message(self.Submitted(text))

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()  # the bar's own Changed, posted by ``edited``, says it with its turn
