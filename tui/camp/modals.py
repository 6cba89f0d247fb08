"""The camp's help screen (which rules are the source's, which are house rules) and
its end screen."""

from __future__ import annotations

from collections.abc import Mapping

from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from stockade.core.camp.events import CampOptions
from stockade.core.camp.state import CampState, month_label
from stockade.core.camp.table import ACTION_IDS, RuleTable
from stockade.tui.bindings import bindings as key_bindings
from stockade.tui.bindings import key_of, keys_of
from stockade.tui.camp.render import DEFAULT_KEYS, ENDING_STYLE, ENDING_WORDS

BANNER = (
    "[b reverse] HOUSE RULE [/] marks what is Stockade's, not the source's: the third "
    "action (Gather kit), each action's roll and its effect on Health and Kit, and the "
    "Health ceiling. Play with --rules source to use none of it."
)

SOURCE_RULES = """\
[b]From the source[/] (M. Hartley, "The Camp", Lone Warrior #138)
• Capture: d6 year (1 = 1939 … 6 = 1944), d12 month (2d6 "at a pinch").
• Health d6 + 3. At 1: hospitalised for good, Malinger only, until liberated. Below 1: dead.
• One turn a month, one action a turn: Loiter, Malinger, or a third action.
• Escape: at the end of a turn, with at least 1 Escape Kit: a d6 per point, any 6 escapes; \
else all kit is lost and Health drops by d3.
• From 1945, at the start of each turn: d12 ≤ month number liberates.
• In 1945, at the end of each turn: 2d6 > Health costs 1 Health.
"""

READINGS = """\
[b]Stockade's readings[/] (the source is silent; these are choices, not rules)
• Turn 1 is the month of capture. A hospitalised POW does not attempt escape.
• At the end of a turn the escape comes first, the 1945 roll after it.
"""


def camp_keys(app: object) -> dict[str, str]:
    """The camp's keys in force (the player's keymap applied), by name."""
    return {name: key_of(app, f"camp.{name}") for name in DEFAULT_KEYS}


def house_rule_text(
    table: RuleTable, options: CampOptions, keys: Mapping[str, str] = DEFAULT_KEYS
) -> str:
    lines = [
        f"[b reverse] {escape(table.meta.label)} [/] [b]The action table[/] — NOT from the source. "
        "The copy of the article is cut off where the third action and each action's roll "
        "are given; Stockade fills the gap with this table (core/camp/house_rules.toml; a "
        "campaign keeps the copy it began with):",
    ]
    for action_id in ACTION_IDS:
        rule = table.action(action_id)
        named = "named by the source" if action_id != "gather" else "house rule: the third action"
        lines.append(
            f"  [b]{escape(keys[action_id])} {escape(rule.name)}[/] ({named}), d{rule.die}:"
        )
        for o in rule.outcomes:
            effects = [
                f"Health {o.health:+d}" if o.health else "",
                "all kit lost" if o.lose_kit else "",
                f"Kit {o.kit:+d}" if o.kit else "",
            ]
            effect = ", ".join(e for e in effects if e) or "no effect"
            lines.append(f"     {o.faces:>4}: {escape(o.text)} — {effect}")
    lines.append(f"  Health never rises above {table.meta.max_health} (house rule).")
    if options.rules == "source":
        lines.append(
            "[b yellow]This campaign plays source only:[/] the table is not used; "
            "you enter each action's effect yourself."
        )
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    BINDINGS = key_bindings("camp_help")

    def __init__(self, table: RuleTable, options: CampOptions):
        super().__init__()
        self._table = table
        self._options = options

    def compose(self) -> ComposeResult:
        k = {name: escape(key) for name, key in camp_keys(self.app).items()}
        close = escape("/".join(keys_of(self.app, "camp.help.close")))
        keys = (
            f"[b]Keys[/]: {k['loiter']}/{k['malinger']}/{k['gather']} action · "
            f"{k['escape']} escape · {k['stay']} stay · digits + Enter for typed dice · "
            f"{k['undo']} undo · {k['redo']} redo · {k['simulate']} simulate · "
            f"{k['help']} help · {k['quit']} quit"
        )
        mode = (
            f"[b]This campaign[/]: dice {self._options.dice}, rules {self._options.rules}, "
            f"month die {self._options.month_die}, seed {escape(self._options.seed)}"
        )
        text = "\n".join(
            [
                BANNER,
                "",
                SOURCE_RULES,
                house_rule_text(self._table, self._options, camp_keys(self.app)),
                "",
                READINGS,
                mode,
                keys,
                "",
                f"[dim]{close} closes[/]",
            ]
        )
        with VerticalScroll(id="camp-help"):
            yield Static(text)


class EndScreen(ModalScreen[str]):
    """Dismisses with "undo", "quit" or "" (back to the record)."""

    BINDINGS = key_bindings("camp_end")

    def __init__(self, state: CampState):
        super().__init__()
        self._state = state

    def compose(self) -> ComposeResult:
        s = self._state
        months = s.months_in_captivity
        back = escape("/".join(keys_of(self.app, "camp.end.back")))
        undo = escape(key_of(self.app, "camp.end.undo"))
        quit_ = escape(key_of(self.app, "camp.end.quit"))
        text = "\n".join(
            [
                f"[{ENDING_STYLE[s.ending]}]{ENDING_WORDS[s.ending]}[/]",
                "",
                f"Captured {month_label(s.capture_year, s.capture_month)}",
                f"Ended    {month_label(s.year, s.month)}",
                f"Survived {months} month{'s' if months != 1 else ''} in captivity",
                f"Health {s.health}, Escape Kit {s.kit}",
                "",
                f"[b]{back}[/] back to the record · [b]{undo}[/] undo · [b]{quit_}[/] quit",
            ]
        )
        with Vertical(id="camp-end"):
            yield Static(text)

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
