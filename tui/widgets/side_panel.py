"""One side's panel: its Guards and their prisoners, its men held by the enemy, its
unarmed units, who may escape or rearm and why, its CVP and its flags.

Everything shown comes from ``core.views.side_panel``; this widget only lays it out.
State is always a word or a symbol (✓ may / ✗ may not / ⚑ flag), never colour alone.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from core.views import SidePanel as PanelData
from core.views import origin_text

from themes import nation_colour


def _head(text: str, style: str) -> Text:
    return Text(text, style=f"bold underline {style}")


def _line(text: str, indent: int = 0, style: str = "", mark: str = "") -> Text:
    out = Text(" " * indent, no_wrap=False)
    if mark:
        out.append(mark)
    out.append(text, style=style)
    return out


def _was(u) -> str:
    """A prisoner by what it was: ``g2: 4-6-7 squad`` (its counter is an unarmed one)."""
    return f"{u.handle}: {origin_text(u) or u.counter}"


def render_panel(data: PanelData, accent: str, muted: str = "dim", wide: bool = False) -> Group:
    """The panel's text, top to bottom, most urgent first."""
    parts: list[Text] = []
    cvp = Text()
    cvp.append(f"CVP {data.cvp}", style="bold")
    cvp.append(f" banked, {data.cvp_if_ended} if ended now", style="")
    parts.append(cvp)
    flags = Text("⚑ " + " · ".join(data.flags), style="bold" if len(data.flags) > 1 else "")
    parts.append(flags)
    if data.guards:
        parts.append(_head("Guards", accent))
        for g in data.guards:
            head = _line(f"{g.label}", 0, "bold", "◆ ")
            head.append(f"  {g.usage}", style="bold" if g.used > g.capacity else "")
            parts.append(head)
            for p in g.prisoners:
                parts.append(_line(f"{_was(p.unit)}  US# {p.us}", 2, "", "└ "))
            if wide:
                for limit in g.limits:
                    parts.append(_line(limit, 4, muted, "· "))
            elif g.limits and g.used > g.unit.us:
                parts.append(_line(g.limits[0], 4, muted, "· "))
    if data.prisoners_held_by_enemy:
        parts.append(_head("Held by the enemy", accent))
        for h in data.prisoners_held_by_enemy:
            where = f" in {h.prisoner.unit.location}" if h.prisoner.unit.location else ""
            parts.append(_line(f"{_was(h.prisoner.unit)}, held by {h.prisoner.unit.guard}"
                               f"{where}", 0, "", "⛓ "))
    if data.escape:
        parts.append(_head("Escape", accent))
        for e in data.escape:
            mark = "✓ may: " if e.allowed else "✗ not now: "
            parts.append(_line(f"{e.unit.handle} {mark}{e.why}", 0,
                               "" if e.allowed else muted))
    if data.unarmed:
        parts.append(_head("Unarmed", accent))
        for u in data.unarmed:
            parts.append(_line(u.label, 0, "", "○ "))
            if u.protection:
                parts.append(_line(u.protection, 4, muted, "· "))
    if data.rearm:
        parts.append(_head("Rearm", accent))
        for r in data.rearm:
            if r.now:
                for way in r.now:
                    parts.append(_line(f"{r.unit.handle} ✓ now: {way}", 0))
            else:
                parts.append(_line(f"{r.unit.handle} ✗ not now", 0, muted))
            if wide or not r.now:
                for way in r.later[:1 if not wide else None]:
                    parts.append(_line(f"later: {way}", 4, muted, "· "))
    if data.eliminated:
        parts.append(_head("Eliminated", accent))
        parts.extend(_line(label, 0, muted, "✝ ") for label in data.eliminated)
    if data.escorted:
        parts.append(_head("Escorted off", accent))
        parts.extend(_line(label, 0, muted, "⇥ ") for label in data.escorted)
    if not (data.guards or data.prisoners_held_by_enemy or data.unarmed or data.eliminated
            or data.escorted):
        parts.append(Text("no prisoners, unarmed or lost units yet", style=muted))
    return Group(*parts)


class SidePanelView(VerticalScroll, can_focus=True):
    """A scrollable panel for one side; arrows and j/k scroll it."""

    DEFAULT_CSS = """
    SidePanelView {
        width: 1fr;
        height: 1fr;
        border: round $panel;
        border-title-style: bold;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    SidePanelView:focus { border: round $primary; }
    SidePanelView > Static { width: 1fr; }
    """
    BINDINGS = [
        Binding("j", "scroll_down", "Down", show=False, id="stockade.panel_down"),
        Binding("k", "scroll_up", "Up", show=False, id="stockade.panel_up"),
    ]

    def __init__(self, side: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.side = side
        self.data: PanelData | None = None

    def compose(self):
        yield Static(id=f"panel-{self.side_id}")

    @property
    def side_id(self) -> str:
        return "".join(ch if ch.isalnum() else "-" for ch in self.side.lower())

    def show(self, data: PanelData, wide: bool = False) -> None:
        self.data = data
        theme = self.app.current_theme
        accent = nation_colour(theme, data.nationality)
        self.border_title = f"{data.name} ({data.nationality})"
        self.border_subtitle = "v: CVP lines"
        self.styles.border_title_color = accent
        self.query_one(Static).update(render_panel(data, accent, wide=wide))
