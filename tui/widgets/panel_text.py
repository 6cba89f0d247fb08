"""One side's panel's text: its Guards and their prisoners, its men held by the enemy,
its unarmed units, who may escape or rearm and why, its CVP and its flags.

Everything shown comes from ``core.reads.views.side_panel``; this module only lays it
out (``tui.widgets.side_panel`` draws it). State is always a word or a symbol (✓ may /
✗ may not / ⚑ flag), never colour alone.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Protocol, TypeVar

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from stockade.core.model.tracked_unit import Unit
from stockade.core.reads.views import (
    EscapeView,
    GuardView,
    HeldView,
    RearmView,
    UnarmedView,
    WhyNot,
    origin_text,
)
from stockade.core.reads.views import SidePanel as PanelData


def _head(text: str, style: str) -> Text:
    return Text(text, style=f"bold underline {style}")


def _line(text: str, indent: int = 0, style: str = "", mark: str = "") -> Text | Padding:
    """One line; wrapped lines hang under the first (indent kept)."""
    out = Text(no_wrap=False)
    if mark:
        out.append(mark)
    out.append(text, style=style)
    return Padding(out, (0, 0, 0, indent)) if indent else out


def _guard_head(label: str, usage: str, usage_style: str) -> Table:
    """``◆ a3: HS 3-4-7 in S4 (broken)   US# 2/10``: the usage keeps to the right of the
    first line whole; a long label wraps under itself, never the usage onto a line of
    its own (a narrow panel at 80 columns cut ``US# 2/10`` in two)."""
    grid = Table.grid(expand=True)
    grid.add_column(width=2, no_wrap=True)  # the mark alone: wrapped words hang under the label
    grid.add_column(ratio=1)
    grid.add_column(no_wrap=True, justify="right")
    grid.add_row("◆ ", Text(label, style="bold"), Text("  " + usage, style=usage_style))
    return grid


def _was(u: Unit) -> str:
    """A prisoner by what it was: ``g2: 4-6-7 squad`` (its counter is an unarmed one)."""
    return f"{u.handle}: {origin_text(u) or u.counter}"


class _AboutAUnit(Protocol):
    @property
    def unit(self) -> Unit: ...


_Item = TypeVar("_Item", bound=_AboutAUnit)
_Verdict = TypeVar("_Verdict", bound=Hashable)


def _grouped(
    items: Iterable[_Item], key: Callable[[_Item], _Verdict]
) -> list[tuple[list[str], _Verdict]]:
    """Handles sharing the same verdict, so one line says it once (``g6 g7 ✗ ...``)."""
    groups: dict[_Verdict, list[str]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item.unit.handle)
    return [(handles, k) for k, handles in groups.items()]


def _escape_text(e: EscapeView, muted: str) -> Text:
    if e.allowed:
        return Text.assemble(("✓ may: ", "bold"), e.why)
    return Text.assemble(("✗ not now: ", "bold"), (e.why, muted))


def _rearm_text(r: RearmView, muted: str, wide: bool) -> Text:
    out = Text()
    if r.now:
        for i, way in enumerate(r.now):
            out.append("\n" if i else "")
            out.append("✓ now: ", style="bold")
            out.append(way)
    else:
        out.append("✗ not now", style="bold")
    for why in r.why_not:
        out.append(f"\n· {why}", style=muted)  # wide: the refusal whole
    for way in r.later if wide else r.later[: 0 if r.now else 1]:
        out.append("\n· later: ", style=muted)
        out.append(way, style=muted)
    return out


def _table(*columns: tuple[str, dict[str, Any]]) -> Table:
    table = Table(
        box=None,
        expand=True,
        show_edge=False,
        pad_edge=False,
        padding=(0, 1, 0, 0),
        header_style="bold",
    )
    for name, kw in columns:
        table.add_column(name, **kw)
    return table


def render_panel(data: PanelData, accent: str, muted: str = "dim", wide: bool = False) -> Group:
    """The panel's text, top to bottom, most urgent first: one part per view it shows.

    Wide (the -wide breakpoint): the enemy-held prisoners and the unarmed units are
    tables with an **escape** column and a **rearm** column, every rule in full. Narrow:
    the same as sections, one line per verdict (units sharing it are named together).
    """
    held = _held_table if wide else _held_lines
    unarmed = _unarmed_table if wide else _unarmed_lines
    return Group(
        _cvp_line(data),
        _flags_line(data.flags),
        *_guards(data.guards, accent, muted, wide),
        *held(data.prisoners_held_by_enemy, data.escape, accent, muted),
        *unarmed(data.unarmed, data.rearm, accent, muted),
        *_lost("Eliminated", "✝ ", data.eliminated, accent, muted),
        *_lost("Escorted off", "⇥ ", data.escorted, accent, muted),
        *_lost("Exited (Exit VP)", "⇥ ", data.exited, accent, muted),
        *_nothing_yet(data, muted),
    )


def _cvp_line(data: PanelData) -> Text:
    """``CVP 4 banked, 6 if ended now``; once the game has ended, the final count
    (guarded prisoners already doubled, A20.1)."""
    cvp = (f"CVP {data.cvp}", "bold")
    if data.ended:
        return Text.assemble(cvp, " final (the game has ended)")
    return Text.assemble(cvp, f" banked, {data.cvp_if_ended} if ended now")


def _flags_line(flags: list[str]) -> Text:
    return Text("⚑ " + " · ".join(flags), style="bold" if len(flags) > 1 else "")


def _guards(guards: list[GuardView], accent: str, muted: str, wide: bool) -> list[RenderableType]:
    """Each Guard, its usage (⚠ OVER past its capacity), its prisoners under it, and its
    limits: all of them when wide, the first when it guards more than its own US#."""
    if not guards:
        return []
    parts: list[RenderableType] = [_head("Guards", accent)]
    for g in guards:
        over = g.used > g.capacity
        parts.append(
            _guard_head(g.label, g.usage + (" ⚠ OVER" if over else ""), "bold" if over else "")
        )
        parts += [_line(f"{_was(p.unit)}  US# {p.us}", 2, "", "└ ") for p in g.prisoners]
        limits = g.limits if wide else g.limits[:1] if g.used > g.unit.us else []
        parts += [_line(limit, 4, muted, "· ") for limit in limits]
    return parts


def _held_table(
    held: list[HeldView], escape: list[EscapeView], accent: str, muted: str
) -> list[RenderableType]:
    """Wide: the side's men held by the enemy, each beside whether it may escape now."""
    if not held:
        return []
    verdicts = {e.unit.handle: e for e in escape}
    table = _table(("prisoner, held by", {"ratio": 2}), ("escape now?", {"ratio": 3}))
    for h in held:
        u = h.prisoner.unit
        where = f" in {u.location}" if u.location else ""
        e = verdicts.get(u.handle)
        table.add_row(
            Text.assemble("⛓ ", _was(u), (f"\n  by {u.guard}{where}", muted)),
            _escape_text(e, muted) if e else Text(""),
        )
    return [_head("Held by the enemy", accent), table]


def _held_lines(
    held: list[HeldView], escape: list[EscapeView], accent: str, muted: str
) -> list[RenderableType]:
    """Narrow: the side's men held by the enemy, then one line per escape verdict."""
    if not held:
        return []
    parts: list[RenderableType] = [_head("Held by the enemy", accent)]
    for h in held:
        u = h.prisoner.unit
        where = f" in {u.location}" if u.location else ""
        parts.append(_line(f"{_was(u)}, held by {u.guard}{where}", 0, "", "⛓ "))
    parts.append(_head("Escape", accent))
    for handles, (allowed, why) in _grouped(escape, lambda e: (e.allowed, e.why)):
        mark = "✓ may: " if allowed else "✗ not now: "
        parts.append(_line(f"{' '.join(handles)} {mark}{why}", 0, "" if allowed else muted))
    return parts


def _unarmed_table(
    unarmed: list[UnarmedView], rearm: list[RearmView], accent: str, muted: str
) -> list[RenderableType]:
    """Wide: the side's unarmed units, each beside how it may rearm or scrounge."""
    if not unarmed:
        return []
    ways = {r.unit.handle: r for r in rearm}
    table = _table(("unit", {"ratio": 2}), ("rearm / scrounge", {"ratio": 3}))
    for u in unarmed:
        cell = Text("○ " + u.label)
        if u.protection:
            cell.append(f"\n· {u.protection}", style=muted)
        r = ways.get(u.unit.handle)
        table.add_row(cell, _rearm_text(r, muted, wide=True) if r else Text(""))
    return [_head("Unarmed", accent), table]


def _unarmed_lines(
    unarmed: list[UnarmedView], rearm: list[RearmView], accent: str, muted: str
) -> list[RenderableType]:
    """Narrow: the side's unarmed units, then one line per rearm verdict."""
    if not unarmed:
        return []
    parts: list[RenderableType] = [_head("Unarmed", accent)]
    for u in unarmed:
        parts.append(_line(u.label, 0, "", "○ "))
        if u.protection:
            parts.append(_line(u.protection, 4, muted, "· "))
    parts.append(_head("Rearm", accent))
    for handles, (now, later, why_not) in _grouped(
        rearm, lambda r: (tuple(r.now), tuple(r.later), tuple(r.why_not))
    ):
        parts += _rearm_lines(handles, now, later, why_not, muted)
    return parts


def _rearm_lines(
    handles: list[str],
    now: tuple[str, ...],
    later: tuple[str, ...],
    why_not: tuple[WhyNot, ...],
    muted: str,
) -> list[RenderableType]:
    """``g6 g7 ✓ now: ...`` for each way open now; else ``✗ not now``, the rule that
    stops each enemy lost there from rearming it (the whole on the ``rearm`` verb: a
    refusal runs to seven rows at 80 columns), and the next way."""
    named = " ".join(handles)
    if now:
        return [_line(f"{named} ✓ now: {way}", 0) for way in now]
    verb = f"rearm {handles[0]}"
    return [
        _line(f"{named} ✗ not now", 0, muted),
        *(_line(f"not from {w.enemy}, {w.rule}: {verb} says why", 4, muted, "· ") for w in why_not),
        *(_line(f"later: {way}", 4, muted, "· ") for way in later[:1]),
    ]


def _lost(
    title: str, mark: str, labels: list[str], accent: str, muted: str
) -> list[RenderableType]:
    """The side's units gone from play one way (eliminated, escorted off, exited)."""
    if not labels:
        return []
    return [_head(title, accent), *(_line(label, 0, muted, mark) for label in labels)]


def _nothing_yet(data: PanelData, muted: str) -> list[RenderableType]:
    shown = (
        data.guards,
        data.prisoners_held_by_enemy,
        data.unarmed,
        data.eliminated,
        data.escorted,
        data.exited,
    )
    if any(shown):
        return []
    return [Text("no prisoners, unarmed or lost units now", style=muted)]
