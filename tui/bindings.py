"""Every key binding of the app, in one table.

Each binding has an id (``stockade.next_phase``) that the player can remap in
``config.toml`` (table ``[keys]``). The screens' ``BINDINGS``, the footer, the help
screen, the command palette, the hints on the status line and the keymap check are
all built from this table, so a remapped key shows everywhere it is named.

Textual applies the keymap to the bindings themselves; what this module adds is
``keys_of`` / ``hint``, which read the same keymap to *name* a key in prose.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from textual.binding import Binding, BindingType
from textual.keys import format_key


@dataclass(frozen=True)
class Key:
    """One binding: where it works, what it does, and how it is named."""

    id: str
    scope: str  # which screen or widget owns it (see SCOPES)
    keys: str  # the default key(s), comma separated, the first one is the one named
    action: str
    label: str  # the footer's short word
    does: str  # what it does, in a few words (help, hints, palette)
    footer: bool = False  # one of the main verbs shown in the footer
    palette: str = ""  # the command palette's title ("" = not offered there)
    priority: bool = False

    @property
    def action_name(self) -> str:
        """The action without its arguments (``form('add')``: ``form``), as Textual
        asks ``check_action`` about it."""
        return self.action.partition("(")[0]


SCOPES = {
    "app": "everywhere",
    "main": "main screen",
    "list": "history list",
    "panel": "side panels",
    "command": "command bar (:)",
    "replay": "history and replay (h)",
    "tally": "tally (v)",
    "menu": "forms menu (f)",
    "form": "forms",
    "games": "new game and open game",
    "roster": "roster (w)",
    "pick": "unit lists in forms (the roster)",
    "picker": "a unit field in a form",
    "tick": "a tick box in a form",
    "confirm": "questions",
    "help": "help (?)",
    "text": "a page of text (help, help A20.55)",
    "camp": "POW camp (palette, or stockade camp)",
    "camp_help": "POW camp help",
    "camp_end": "POW camp: the end",
}

KEYS: tuple[Key, ...] = (
    Key(
        "stockade.palette",
        "app",
        "ctrl+p",
        "command_palette",
        "Palette",
        "command palette",
        priority=True,
    ),
    # ---------------------------------------------------------------- main screen
    Key("stockade.next_phase", "main", "n", "next_phase", "Next", "next phase", True, "Next phase"),
    Key(
        "stockade.prev_phase",
        "main",
        "N",
        "prev_phase",
        "Prev",
        "previous phase",
        palette="Previous phase",
    ),
    # The ctrl+ keys of the clock also work while the command bar is open (it stays
    # open for the next command, and a plain letter there is text).
    Key(
        "stockade.next_a20_phase",
        "main",
        "g,ctrl+g",
        "next_a20_phase",
        "Go on",
        "next phase where A20 acts",
        palette="Next phase where A20 acts",
    ),
    Key(
        "stockade.next_turn",
        "main",
        "t,ctrl+t",
        "next_turn",
        "Turn",
        "next Player Turn",
        palette="Next Player Turn",
    ),
    Key(
        "stockade.undo",
        "main",
        "u,ctrl+z",
        "undo",
        "Undo",
        "undo the last entry",
        True,
        "Undo the last entry",
    ),
    Key("stockade.redo", "main", "r,ctrl+y", "redo", "Redo", "redo", True, "Redo"),
    # A reply longer than the status line's three lines: its rest, from the board or
    # from inside the command bar (a plain arrow there recalls earlier commands).
    Key("stockade.reply_more", "main", "ctrl+down", "reply(1)", "More", "the rest of a long reply"),
    Key("stockade.reply_back", "main", "ctrl+up", "reply(-1)", "Back", "back up a long reply"),
    # A refusal whose only obstacle is a board fact recorded earlier offers the entry
    # that records the change: this key records it, then the refused line (from the
    # board or from inside the command bar, where the refused line stays).
    Key(
        "stockade.accept_offer",
        "main",
        "ctrl+b",
        "accept_offer",
        "Accept",
        "accept a refusal's offer",
    ),
    # ':' is a priority key: it acts in the app's own turn, before the keys typed after
    # it are handed on, so they land in the bar (see also CommandInput.on_key).
    Key(
        "stockade.command",
        "main",
        "colon",
        "command",
        "Cmd",
        "type a command",
        palette="Type a command",
        priority=True,
    ),
    Key(
        "stockade.forms", "main", "f", "forms", "Forms", "guided forms", True, "Guided forms (menu)"
    ),
    Key("stockade.add_unit", "main", "a", "form('add')", "Add", "add a unit (form)"),
    Key("stockade.surrender", "main", "s", "form('surrender')", "Surrender", "surrender (form)"),
    Key(
        "stockade.history",
        "main",
        "h",
        "history",
        "History",
        "history and replay",
        True,
        "History and replay",
    ),
    Key(
        "stockade.tally",
        "main",
        "v",
        "tally",
        "Tally",
        "CVP tally",
        True,
        "Tally: CVP with every line explained",
    ),
    # In the footer instead of ":" (the command bar says "press : ..." on its own line,
    # and a tap on the bar opens it too): at 80 columns the footer holds eight keys.
    Key(
        "stockade.roster",
        "main",
        "w",
        "roster",
        "Roster",
        "roster: every unit",
        True,
        "Roster: every unit, its Location and status",
    ),
    Key(
        "stockade.new_game",
        "main",
        "ctrl+n",
        "new_game",
        "New",
        "new game",
        palette="New game: scenario, sides, nationalities, ELRs",
    ),
    Key(
        "stockade.open_game",
        "main",
        "ctrl+o",
        "open_game",
        "Open",
        "open a game",
        palette="Open game: recent games or a path",
    ),
    Key(
        "stockade.demo_game",
        "main",
        "ctrl+d",
        "demo_game",
        "Demo",
        "back to the demo game",
        palette="Open the demo game",
    ),
    Key(
        "stockade.help",
        "main",
        "question_mark,f1",
        "help",
        "Help",
        "help",
        True,
        "Help: keys and commands",
    ),
    Key("stockade.quit", "main", "q", "quit", "Quit", "quit", True, "Quit"),
    # ---------------------------------------------------------------- lists, panels
    Key("stockade.list_down", "list", "j,down", "cursor_down", "Down", "move down"),
    Key("stockade.list_up", "list", "k,up", "cursor_up", "Up", "move up"),
    Key("stockade.list_page_down", "list", "pagedown", "page_down", "Page down", "a page down"),
    Key("stockade.list_page_up", "list", "pageup", "page_up", "Page up", "a page up"),
    Key("stockade.list_first", "list", "home", "first", "First", "the first entry"),
    Key("stockade.list_last", "list", "end", "last", "Last", "the last entry"),
    Key("stockade.panel_down", "panel", "j", "scroll_down", "Down", "scroll down"),
    Key("stockade.panel_up", "panel", "k", "scroll_up", "Up", "scroll up"),
    # ---------------------------------------------------------------- command bar
    Key(
        "stockade.command_complete", "command", "tab", "complete", "Complete", "take the completion"
    ),
    Key("stockade.command_earlier", "command", "up", "recall(-1)", "Earlier", "an earlier command"),
    Key("stockade.command_later", "command", "down", "recall(1)", "Later", "a later command"),
    Key(
        "stockade.command_leave",
        "command",
        "escape",
        "leave",
        "Leave",
        "leave the bar (back to the board)",
    ),
    # ---------------------------------------------------------------- replay
    Key(
        "stockade.replay_present",
        "replay",
        "escape,h,p",
        "present",
        "Present",
        "back to the present",
        True,
    ),
    Key("stockade.replay_first", "replay", "home", "first", "First", "first entry"),
    Key("stockade.replay_last", "replay", "end", "last", "Last", "last entry"),
    Key(
        "stockade.replay_undo_to",
        "replay",
        "U",
        "undo_to_here",
        "Undo to here",
        "undo to here",
        True,
    ),
    Key("stockade.replay_strike", "replay", "x", "strike", "Strike", "strike", True),
    Key("stockade.replay_unstrike", "replay", "X", "unstrike", "Unstrike", "unstrike", True),
    Key("stockade.replay_amend", "replay", "a", "amend", "Amend", "amend it where it stands", True),
    Key("stockade.replay_quit", "replay", "q", "app.quit", "Quit", "quit"),
    # ---------------------------------------------------------------- tally
    Key(
        "stockade.tally_markdown",
        "tally",
        "m",
        "export('md')",
        "Export .md",
        "export Markdown",
        True,
    ),
    Key("stockade.tally_html", "tally", "w", "export('html')", "Export .html", "export HTML", True),
    Key(
        "stockade.tally_bbcode",
        "tally",
        "b",
        "export('bbcode')",
        "Export BBCode",
        "export BBCode (forums)",
        True,
    ),
    Key("stockade.tally_csv", "tally", "c", "export('csv')", "Export .csv", "export CSV", True),
    Key("stockade.tally_back", "tally", "escape,v", "back", "Back", "back", True),
    Key("stockade.tally_down", "tally", "j", "scroll(1)", "Down", "scroll down"),
    Key("stockade.tally_up", "tally", "k", "scroll(-1)", "Up", "scroll up"),
    Key("stockade.tally_quit", "tally", "q", "app.quit", "Quit", "quit"),
    # ---------------------------------------------------------------- forms
    Key("stockade.menu_close", "menu", "escape", "dismiss_menu", "Close", "close", True),
    Key("stockade.menu_down", "menu", "j", "down", "Down", "move down"),
    Key("stockade.menu_up", "menu", "k", "up", "Up", "move up"),
    Key("stockade.form_record", "form", "ctrl+s", "record", "Record", "record", True),
    Key("stockade.form_cancel", "form", "escape", "cancel", "Cancel", "cancel", True),
    # ---------------------------------------------------------------- roster, pickers
    Key("stockade.roster_close", "roster", "escape", "close", "Close", "close", True),
    Key("stockade.pick_cancel", "pick", "escape", "close", "Cancel", "cancel", True),
    Key("stockade.form_pick", "picker", "space", "pick", "Pick", "open the unit list"),
    Key(
        "stockade.form_picker_next",
        "picker",
        "enter",
        "confirm",
        "Next",
        "open the unit list while empty, else on to the next field",
    ),
    Key("stockade.form_tick_next", "tick", "enter", "confirm", "Next", "on to the next field"),
    Key("stockade.form_clear", "picker", "delete,backspace", "clear", "Clear", "clear the pick"),
    # ---------------------------------------------------------------- new / open game
    Key("stockade.games_accept", "games", "ctrl+s", "accept", "OK", "create / open", True),
    Key("stockade.games_cancel", "games", "escape", "cancel", "Cancel", "cancel", True),
    # read before the key reaches the field, so that keys typed right after it go to
    # the next field (a field's own enter moves the focus only after them)
    Key(
        "stockade.games_next_field",
        "games",
        "enter",
        "next_field",
        "Next",
        "on to the next field",
        priority=True,
    ),
    # Likewise tab: a field's tab (Textual's, the screen's) moves the focus only once
    # the key has bubbled up, after the letters typed behind it ("RussianRussian3").
    Key(
        "stockade.games_tab",
        "games",
        "tab",
        "app.focus_next",
        "Field",
        "next field",
        priority=True,
    ),
    Key(
        "stockade.games_back_tab",
        "games",
        "shift+tab",
        "app.focus_previous",
        "Back",
        "previous field",
        priority=True,
    ),
    # ---------------------------------------------------------------- questions, help
    Key("stockade.confirm_yes", "confirm", "y", "yes", "Yes", "yes", True),
    Key("stockade.confirm_no", "confirm", "n,escape", "no", "No", "no", True),
    Key(
        "stockade.help_close", "help", "escape,q,f1,question_mark", "close", "Close", "close", True
    ),
    Key("stockade.help_down", "help", "j", "scroll('down')", "Down", "scroll down"),
    Key("stockade.help_up", "help", "k", "scroll('up')", "Up", "scroll up"),
    Key("stockade.text_close", "text", "escape,q", "close", "Close", "close", True),
    Key("stockade.text_page_down", "text", "pagedown", "page('down')", "PgDn", "page down"),
    Key("stockade.text_page_up", "text", "pageup", "page('up')", "PgUp", "page up"),
    Key("stockade.text_down", "text", "j", "scroll('down')", "Down", "scroll down"),
    Key("stockade.text_up", "text", "k", "scroll('up')", "Up", "scroll up"),
    # ---------------------------------------------------------------- the POW camp
    Key("camp.loiter", "camp", "l", "act('loiter')", "Loiter", "loiter", True),
    Key("camp.malinger", "camp", "m", "act('malinger')", "Malinger", "malinger", True),
    Key("camp.gather", "camp", "g", "act('gather')", "Gather", "gather", True),
    Key("camp.escape", "camp", "e", "escape(True)", "Escape", "escape", True),
    Key("camp.stay", "camp", "s", "escape(False)", "Stay", "stay", True),
    Key("camp.undo", "camp", "u", "undo", "Undo", "undo", True),
    Key("camp.redo", "camp", "r", "redo", "Redo", "redo", True),
    Key("camp.simulate", "camp", "c", "simulate", "Simulate", "simulate", True),
    Key("camp.help", "camp", "question_mark,f1", "help", "Help", "help", True),
    Key("camp.quit", "camp", "q", "quit_camp", "Quit", "quit", True),
    Key(
        "camp.help.close",
        "camp_help",
        "escape,q,f1,question_mark",
        "dismiss",
        "Close",
        "close",
        True,
    ),
    Key("camp.end.undo", "camp_end", "u", "choose('undo')", "Undo", "undo", True),
    Key("camp.end.quit", "camp_end", "q", "choose('quit')", "Quit", "quit", True),
    Key(
        "camp.end.back",
        "camp_end",
        "escape,enter",
        "choose('')",
        "Record",
        "back to the record",
        True,
    ),
)

BY_ID: dict[str, Key] = {k.id: k for k in KEYS}


def ids() -> set[str]:
    """Every binding id a keymap may name."""
    return set(BY_ID)


def bindings(scope: str) -> list[BindingType]:
    """The Textual ``BINDINGS`` of one screen or widget."""
    return [
        Binding(
            k.keys,
            k.action,
            k.label,
            show=k.footer,
            priority=k.priority,
            id=k.id,
            tooltip=k.does,
        )
        for k in KEYS
        if k.scope == scope
    ]


def in_scope(scope: str) -> list[Key]:
    return [k for k in KEYS if k.scope == scope]


def display(key: str) -> str:
    """How a key is named on screen: ``colon`` -> ``:``, ``ctrl+n`` -> ``^n``."""
    *modifiers, name = key.strip().split("+")
    shown = format_key(name)
    if "ctrl" in modifiers:
        modifiers.remove("ctrl")
        shown = f"^{shown}"
    return "+".join([*modifiers, shown])


def raw_keys(app: object, binding_id: str) -> list[str]:
    """The keys bound to ``binding_id`` now (after the player's keymap), as Textual names
    them (``escape``, ``ctrl+z``): the app keeps the keymap it applied in ``keys_in_force``."""
    keymap = getattr(app, "keys_in_force", None) or {}
    raw = keymap.get(binding_id) or BY_ID[binding_id].keys
    return [k.strip() for k in raw.split(",") if k.strip()]


def keys_of(app: object, binding_id: str) -> list[str]:
    """The keys bound to ``binding_id`` now (after the player's keymap), for display."""
    return [display(k) for k in raw_keys(app, binding_id)]


def key_of(app: object, binding_id: str) -> str:
    """The first key bound to ``binding_id``: the one a hint names."""
    keys = keys_of(app, binding_id)
    return keys[0] if keys else "?"


def hint(app: object, *items: str | tuple[str | tuple[str, ...], str]) -> str:
    """``"n: next phase · f: guided forms"`` from binding ids, each optionally with its
    own wording: ``hint(app, "stockade.next_phase", ("stockade.forms", "forms"))``; a
    pair of ids with one wording names both keys: ``(("a.down", "a.up"), "page")``
    says ``"pgdn/pgup: page"``."""
    parts = []
    for item in items:
        ids, words = item if isinstance(item, tuple) else (item, BY_ID[item].does)
        keys = "/".join(key_of(app, i) for i in ((ids,) if isinstance(ids, str) else ids))
        parts.append(f"{keys}: {words}")
    return " · ".join(parts)


def named_in_bar(line: str) -> Key | None:
    """The board's binding a line of the command bar names by its footer word ("new",
    "tally", "quit") or by what it does ("new game"). The caller asks the book first:
    a word that is also a verb of the book (help, undo, next) is the verb."""
    said = " ".join(line.lower().split())
    return next(
        (k for k in KEYS if k.scope in ("main", "app") and said in (k.label.lower(), k.does)),
        None,
    )


def check_scopes(classes: Iterable[type]) -> list[str]:
    """Ids that a class binds but the registry does not know (a test reads it)."""
    out = []
    for cls in classes:
        for b in getattr(cls, "BINDINGS", []):
            if isinstance(b, Binding) and b.id and b.id not in BY_ID:
                out.append(f"{cls.__name__}: {b.id}")
    return out
