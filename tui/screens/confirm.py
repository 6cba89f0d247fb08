"""A yes/no question, optionally with a line of text (a strike's reason, an amended
entry). A line may be checked before the question closes: a refusal is shown in the
question and the text stays, to be corrected rather than typed again."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import hint, keys_of
from stockade.tui.plain import markup_safe, plain


class ConfirmScreen(ModalScreen[str | None]):
    """Dismisses with the typed text ("" when no input) on yes, None on no."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 76; max-width: 100%; height: auto; max-height: 100%;
                               border: thick $warning; background: $surface; padding: 0 1; }
    ConfirmScreen #confirm-scroll { height: auto; }
    ConfirmScreen Input { padding: 0 1; background: $boost; }
    ConfirmScreen #confirm-keys { color: $text-muted; margin-top: 1; }
    ConfirmScreen #confirm-refusal { color: $error; height: auto; display: none; }
    """
    BINDINGS = key_bindings("confirm")

    def __init__(
        self,
        title: str,
        body: Text | str,
        ask: str = "",
        value: str = "",
        vet: Callable[[str], str] | None = None,
    ) -> None:
        """``value``: the text the line starts with; ``vet``: says why a typed line is
        refused ("" when it is not), and the question stays open on a refusal."""
        super().__init__()
        self.title_text, self.body, self.ask = title, body, ask
        self.value, self.vet = value, vet
        self._refusal_rows = 0

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = markup_safe(self.title_text)
            body = plain(self.body) if isinstance(self.body, str) else self.body
            # The body scrolls (a long strike preview) so that the reason and the keys
            # below it stay on the screen, even at 80x24.
            with VerticalScroll(id="confirm-scroll"):
                yield Static(body, id="confirm-body")
            if self.ask:
                # a line given to start from is there to be edited, not replaced
                yield Input(
                    self.value,
                    placeholder=self.ask,
                    id="confirm-input",
                    compact=True,
                    select_on_focus=not self.value,
                )
                yield Static("", id="confirm-refusal")
            if self.ask:
                # A letter bound to "no" types into the reason instead: name the keys
                # that still cancel from the input (esc).
                typed = [k for k in keys_of(self.app, "stockade.confirm_no") if len(k) == 1]
                cancel = [
                    k
                    for k in keys_of(self.app, "stockade.confirm_no")
                    if k not in typed and k != "space"
                ]
                keys = "enter: confirm · " + (
                    f"{'/'.join(cancel)}: cancel"
                    if cancel
                    else hint(self.app, ("stockade.confirm_no", "cancel"))
                )
            else:
                no = "/".join(keys_of(self.app, "stockade.confirm_no"))
                keys = hint(self.app, "stockade.confirm_yes") + f" · {no}: no"
            yield Static(keys, id="confirm-keys")

    # The rows the box needs besides the body: its border (2), the reason (1), the
    # keys and their margin (2).
    _AROUND_BODY = 5

    def on_mount(self) -> None:
        self._fit(self.app.size.height)
        if self.ask:
            self.query_one(Input).focus()

    def on_resize(self, event: Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        around = self._AROUND_BODY - (0 if self.ask else 1) + self._refusal_rows
        self.query_one("#confirm-scroll").styles.max_height = max(3, height - around)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self._answer(event.value.strip())

    def action_yes(self) -> None:
        self._answer(self.query_one(Input).value.strip() if self.ask else "")

    def _answer(self, text: str) -> None:
        refusal = self.vet(text) if self.vet is not None and text else ""
        if refusal:
            # the body gives up the rows the refusal takes, so that it shows at 80x24
            width = max(20, self.query_one(Input).size.width or 70)
            self._refusal_rows = sum(-(-max(1, len(line)) // width) for line in refusal.split("\n"))
            shown = self.query_one("#confirm-refusal", Static)
            shown.update(plain(refusal))
            shown.display = True
            self._fit(self.app.size.height)
            return
        self.dismiss(text)

    def action_no(self) -> None:
        self.dismiss(None)
