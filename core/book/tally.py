"""The CVP tally: a projection of the game state, every point explained.

The fold already books each CVP-worthy casualty as a ``Casualty`` line (which unit,
which event, which rule, which multiplier). The tally only reads those lines; it never
decides what a casualty is worth. The one thing it adds is the projection "if the game
ended now": every prisoner still guarded counts double (A20.1). At game end the
``GameEnded`` event books those prisoners itself, so the projection is then empty and
``cvp == cvp_if_ended``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from stockade.core.model.state import PRISONER, GameState

# The same wording the fold uses for a line's counter and kind, so a projected line
# reads exactly like the line the game end will book for that prisoner.
from stockade.core.rules.common import _vp_counter, _vp_kind


@dataclass(frozen=True)
class TallyLine:
    unit: str  # handle
    counter: str  # as it was; a crew is remembered as a crew
    unit_kind: str
    seq: int  # the event that booked it (for a projection: the capture)
    turn: int
    rule: str
    base: int
    multiplier: int
    why: str
    banked: bool = True  # False: only "if the game ended now"

    @property
    def points(self) -> int:
        return self.base * self.multiplier


@dataclass
class SideTally:
    name: str
    nationality: str
    lines: list[TallyLine] = field(default_factory=list)
    by_turn: dict[int, int] = field(default_factory=dict)  # banked points per Game Turn

    @property
    def cvp(self) -> int:
        return sum(line.points for line in self.lines if line.banked)

    @property
    def cvp_if_ended(self) -> int:
        return sum(line.points for line in self.lines)


@dataclass
class Tally:
    scenario: str
    turn: int
    ended: bool
    sides: dict[str, SideTally]


# --------------------------------------------------------------------- building
def tally(state: GameState) -> Tally:
    """Each side's CVP: the booked casualty lines, plus the end-of-game projection."""
    sides = {name: SideTally(name, side.nationality) for name, side in state.sides.items()}
    for c in state.casualties:
        sides[c.credited].lines.append(
            TallyLine(
                c.unit,
                c.counter,
                c.unit_kind,
                c.seq,
                c.turn,
                c.rule,
                c.base,
                c.multiplier,
                c.why,
                banked=True,
            )
        )
    if not state.ended:
        for u in state.units.values():
            if u.status != PRISONER:
                continue
            captor = state.enemy_of(u.side)
            sides[captor].lines.append(
                TallyLine(
                    u.handle,
                    _vp_counter(u),
                    _vp_kind(u),
                    u.captured_seq,
                    state.turn,
                    "A20.1",
                    u.origin_cvp,
                    2,
                    f"if the game ended now: prisoner guarded by {u.guard}",
                    banked=False,
                )
            )
    # The turns that occur: the first, the current one and every turn a casualty was
    # booked in, zeros included, in order. Never range(1, turn): a turn number read
    # from a log must not decide how much is built (issue 13); the schema bounds it
    # too, and this stays O(casualties) whatever it says.
    # Every Game Turn from the first to the last one played, those with no casualty too.
    turns = range(1, max(state.turn, *(c.turn for c in state.casualties), 1) + 1)
    for side in sides.values():
        side.by_turn = dict.fromkeys(turns, 0)
        for line in side.lines:
            if line.banked:
                side.by_turn[line.turn] = side.by_turn.get(line.turn, 0) + line.points
    return Tally(state.scenario, state.turn, state.ended, sides)


# ------------------------------------------------------------------------ JSON
def _line_json(line: TallyLine) -> dict[str, Any]:
    return {
        "unit": line.unit,
        "counter": line.counter,
        "unit_kind": line.unit_kind,
        "seq": line.seq,
        "turn": line.turn,
        "rule": line.rule,
        "base": line.base,
        "multiplier": line.multiplier,
        "points": line.points,
        "why": line.why,
        "banked": line.banked,
    }


def to_json(t: Tally) -> dict[str, Any]:
    return {
        "scenario": t.scenario,
        "turn": t.turn,
        "ended": t.ended,
        "sides": {
            name: {
                "nationality": s.nationality,
                "cvp": s.cvp,
                "cvp_if_ended": s.cvp_if_ended,
                "lines": [_line_json(line) for line in s.lines],
                # JSON object keys are strings; the turn number is kept readable.
                "by_turn": {str(turn): pts for turn, pts in s.by_turn.items()},
            }
            for name, s in t.sides.items()
        },
    }


# ------------------------------------------------------------------- rendering
_HEAD = ("seq", "T", "unit", "counter", "kind", "rule", "points", "why")


def _cells(line: TallyLine) -> tuple[str, ...]:
    mark = "" if line.banked else " *"
    points = f"{line.base} x {line.multiplier} = {line.points}{mark}"
    return (
        str(line.seq),
        str(line.turn),
        line.unit,
        line.counter,
        line.unit_kind,
        line.rule,
        points,
        line.why,
    )


def _status(t: Tally) -> str:
    return "game over" if t.ended else f"Game Turn {t.turn}, game in progress"


def _totals(s: SideTally, ended: bool) -> str:
    if ended or s.cvp == s.cvp_if_ended:
        return f"{s.cvp} CVP"
    return f"{s.cvp} CVP banked; {s.cvp_if_ended} if the game ended now"


def _title(s: SideTally) -> str:
    return s.name if s.name == s.nationality else f"{s.name} ({s.nationality})"


MAX_BAR = 60  # a bar is decoration (the number beside it carries the value): capped


def _bar(points: int) -> str:
    return "#" * min(points, MAX_BAR) + ("+" if points > MAX_BAR else "")


def to_text(t: Tally) -> str:
    # One set of column widths and one bar width for every side, so the sides' tables
    # line up under each other and can be read across.
    rows_of = {name: [_cells(line) for line in s.lines] for name, s in t.sides.items()}
    every = [_HEAD, *(row for rows in rows_of.values() for row in rows)]
    widths = [max(len(r[i]) for r in every) for i in range(len(_HEAD) - 1)]
    by_turn = [(turn, pts) for s in t.sides.values() for turn, pts in s.by_turn.items()]
    turn_w = max((len(str(turn)) for turn, _ in by_turn), default=1)
    bar_w = max((len(_bar(pts)) for _, pts in by_turn), default=0)
    out = [f"CVP tally: {t.scenario or 'untitled'} ({_status(t)})", ""]
    for name, s in t.sides.items():
        out.append(f"{_title(s)}: {_totals(s, t.ended)}")
        if not s.lines:
            out.append("  no casualties yet")
        else:
            for row in [_HEAD, *rows_of[name]]:
                cols = [cell.ljust(w) for cell, w in zip(row[:-1], widths, strict=True)]
                out.append("  " + "  ".join(cols + [row[-1]]).rstrip())
        if any(not line.banked for line in s.lines):
            out.append("  * not banked yet: counted only if the game ended now (A20.1)")
        out.append("  by Game Turn:")
        for turn, pts in s.by_turn.items():
            bar = _bar(pts).ljust(bar_w) + " " if bar_w else ""
            out.append(f"    T{str(turn).ljust(turn_w)} {bar}{pts}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _md(text: str) -> str:
    """Escape what would break a Markdown table cell or start markup."""
    for ch in "\\|*_`[]<>~&":
        text = text.replace(ch, "\\" + ch)
    return text


def to_markdown(t: Tally) -> str:
    out = [f"# CVP tally: {_md(t.scenario or 'untitled')}", "", f"_{_status(t)}_", ""]
    for s in t.sides.values():
        out += [f"## {_md(_title(s))}: {_totals(s, t.ended)}", ""]
        if s.lines:
            out.append("| " + " | ".join(_HEAD) + " |")
            out.append("|" + "---|" * len(_HEAD))
            for line in s.lines:
                out.append("| " + " | ".join(_md(c) for c in _cells(line)) + " |")
            out.append("")
        else:
            out += ["No casualties yet.", ""]
        if any(not line.banked for line in s.lines):
            out += ["\\* not banked yet: counted only if the game ended now (A20.1)", ""]
        out += ["| Game Turn | CVP |", "|---|---|"]
        out += [f"| {turn} | {pts} |" for turn, pts in s.by_turn.items()]
        out.append("")
    return "\n".join(out)


_CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}
table{border-collapse:collapse;margin:.5em 0 1em}
th,td{border:1px solid #888;padding:.2em .5em;text-align:left;vertical-align:top}
tr.projected td{font-style:italic}
.bar{display:inline-block;background:#555;height:.8em;margin-right:.4em}"""


def to_html(t: Tally) -> str:
    e = html.escape
    title = f"CVP tally: {t.scenario or 'untitled'}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{e(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{e(title)}</h1>",
        f"<p>{e(_status(t))}</p>",
    ]
    for s in t.sides.values():
        out.append(f"<h2>{e(_title(s))}: {e(_totals(s, t.ended))}</h2>")
        if s.lines:
            out.append(
                "<table><thead><tr>"
                + "".join(f"<th>{e(h)}</th>" for h in _HEAD)
                + "</tr></thead><tbody>"
            )
            for line in s.lines:
                cls = "" if line.banked else ' class="projected"'
                out.append(
                    f"<tr{cls}>" + "".join(f"<td>{e(c)}</td>" for c in _cells(line)) + "</tr>"
                )
            out.append("</tbody></table>")
        else:
            out.append("<p>No casualties yet.</p>")
        if any(not line.banked for line in s.lines):
            out.append("<p>* not banked yet: counted only if the game ended now (A20.1)</p>")
        out.append("<table><thead><tr><th>Game Turn</th><th>CVP</th></tr></thead><tbody>")
        for turn, pts in s.by_turn.items():
            # The bar is decoration; the number beside it carries the value.
            out.append(
                f'<tr><td>{turn}</td><td><span class="bar" '
                f'style="width:{min(pts, MAX_BAR)}em"></span>{pts}</td></tr>'
            )
        out.append("</tbody></table>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)
