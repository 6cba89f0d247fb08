"""Text for the camp screen's panels, as Rich markup built from a ``CampState``.

Pure functions of the state, so each panel can be redrawn from scratch after any event,
undo or redo without keeping screen-side copies of the game.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.markup import escape

from stockade.core.camp.simulate import Tally
from stockade.core.camp.state import CampState, MonthEntry, Need, month_label
from stockade.core.camp.table import ACTION_IDS

# The camp's keys by name, as the binding registry has them by default (``camp.<name>``
# in tui/bindings.py); the screen passes the keys in force (a remap in config.toml).
DEFAULT_KEYS: dict[str, str] = {
    "loiter": "l",
    "malinger": "m",
    "gather": "g",
    "escape": "e",
    "stay": "s",
    "undo": "u",
    "redo": "r",
    "simulate": "c",
    "help": "?",
    "quit": "q",
}
ENDING_WORDS = {"escaped": "ESCAPED", "liberated": "LIBERATED", "dead": "DIED IN CAMP"}
ENDING_STYLE = {"escaped": "bold green", "liberated": "bold cyan", "dead": "bold red"}


def _plural(count: int) -> str:
    return "" if count == 1 else "s"


def record_text(state: CampState) -> str:
    if not state.started:
        return "[dim]Not yet captured: roll for the capture date.[/]"
    lines = [
        f"Captured    {month_label(state.capture_year, state.capture_month)}",
        f"Now         [b]{month_label(state.year, state.month)}[/]",
        f"In camp     {state.months_in_captivity} month{_plural(state.months_in_captivity)}",
        f"Health      {health_bar(state)}",
        f"Escape Kit  {kit_text(state.kit)}",
        f"Status      {status_text(state)}",
    ]
    return "\n".join(lines)


def health_bar(state: CampState) -> str:
    health = max(state.health, 0)
    if state.phase == "health" or not state.health and not state.over:
        return "[dim]not rolled[/]"
    top = state.max_health or max(9, health)
    style = "red" if health <= 2 else "yellow" if health <= 4 else "green"
    filled = min(health, top)
    return f"[{style}]{'█' * filled}[/][dim]{'░' * (top - filled)}[/] {state.health}/{top}"


def kit_text(kit: int) -> str:
    if kit == 0:
        return "[dim]none[/]"
    shown = min(kit, 12)
    return f"[b yellow]{'■' * shown}[/]{'+' if kit > shown else ''} {kit}"


def status_text(state: CampState) -> str:
    if state.over:
        return f"[{ENDING_STYLE[state.ending]}]{ENDING_WORDS[state.ending]}[/]"
    if state.hospitalised:
        return "[red]hospitalised: Malinger only[/]"
    return "in the huts"


def actions_text(state: CampState, house: bool, keys: Mapping[str, str] = DEFAULT_KEYS) -> str:
    allowed = state.allowed_actions if state.phase == "action" else ()
    lines = []
    for action_id in ACTION_IDS:
        rule = state.table.action(action_id)
        mark = "*" if action_id == "gather" else " "
        style = "b" if action_id in allowed else "dim"
        summary = rule.summary if house else _SOURCE_SUMMARY[action_id]
        key = f"[{style}]{escape(keys[action_id])}[/]"
        name = escape(f"{rule.name + mark:<11}")  # from the log's table: never markup
        lines.append(f"{key} [{style}]{name}[/] {escape(summary)}")
    return "\n".join(lines)


# What the source itself says of each action, for source-only play.
_SOURCE_SUMMARY = {
    "loiter": "camp routine, head down",
    "malinger": "hospital, fawning, stealing",
    "gather": "the third action: kit",
}


def prompt_text(
    need: Need, physical: bool, entry: str, kit: int, keys: Mapping[str, str] = DEFAULT_KEYS
) -> str:
    k = {name: escape(key) for name, key in keys.items()}
    if need.phase == "over":
        keys_now = f"{k['undo']} undo · {k['help']} help · {k['quit']} quit"
        return f"[b]The war is over for him.[/]  {keys_now}"
    if need.phase == "action":
        shown = (
            k["malinger"]
            if need.choices == ("malinger",)
            else " / ".join(k[a] for a in ("loiter", "malinger", "gather"))
        )
        return f"[b]{need.prompt}[/]: {shown}"
    if need.phase == "escape_choice":
        return (
            f"[b]End of turn[/]: [b]{k['escape']}[/] escape ({kit}d6, any 6) · "
            f"[b]{k['stay']}[/] stay"
        )
    if need.phase == "outcome":
        return f"[b]{need.prompt}[/]\nHealth Kit (-1 0), Enter: [b]{escape(entry)}[/]▏"
    if physical:
        dice = " ".join(f"d{s}" for s in need.sides)
        return f"[b]{need.prompt}[/]\nType {dice}, Enter: [b]{escape(entry)}[/]▏"
    return need.prompt


def history_lines(state: CampState, limit: int = 200) -> list[str]:
    months: list[MonthEntry] = list(state.history[-limit:])
    if state.current is not None and state.current.notes:
        months.append(state.current)
    return [f"[b]{m.label}[/]  {escape('; '.join(m.notes))}" for m in months]


def chart_lines(tallies: list[Tally], bar_width: int = 10) -> list[str]:
    lines = ["[green]█[/]escaped [cyan]▓[/]liberated [red]░[/]died [dim]E/L/D%[/]"]
    for t in tallies:
        e, lib = round(t.rate("escaped")), round(t.rate("liberated"))
        d = 100 - e - lib
        cells = [round(bar_width * x / 100) for x in (e, lib)]
        cells.append(max(0, bar_width - sum(cells)))
        bar = f"[green]{'█' * cells[0]}[/][cyan]{'▓' * cells[1]}[/][red]{'░' * cells[2]}[/]"
        lines.append(f"{t.strategy:<13.13}{bar}{e:>3}/{lib:>2}/{d:>2}")
    return lines
