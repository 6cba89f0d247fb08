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

import msgspec

from stockade.core.book.verdict import Verdict, judge
from stockade.core.model.bounds import MAX_TURN
from stockade.core.model.state import GameState
from stockade.core.model.tracked_unit import PRISONER

# The same wording the fold uses for a line's counter and kind, so a projected line
# reads exactly like the line the game end will book for that prisoner.
from stockade.core.rules.casualties import vp_counter, vp_kind


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
    verdict: Verdict | None = None  # the Victory Conditions judged, when the game has them


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
                    vp_counter(u),
                    vp_kind(u),
                    u.captured_seq,
                    state.turn,
                    "A20.1",
                    u.origin_cvp,
                    2,
                    f"if the game ended now: prisoner guarded by {u.guard}",
                    banked=False,
                )
            )
    # Every Game Turn from the first to the last one played, those with no casualty too,
    # in order. A turn number read from a log must not decide how much is built (a log
    # may be hostile): the run of turns stops at the schema's bound, and a turn beyond it
    # (never in a log the schema let through) is listed alone.
    played = {state.turn, *(c.turn for c in state.casualties)}
    last = max(played | {1})
    turns = sorted(played | set(range(1, min(last, MAX_TURN) + 1)))
    for side in sides.values():
        side.by_turn = dict.fromkeys(turns, 0)
        for line in side.lines:
            if line.banked:
                side.by_turn[line.turn] = side.by_turn.get(line.turn, 0) + line.points
    verdict = judge(state, {name: s.cvp_if_ended for name, s in sides.items()})
    return Tally(state.scenario, state.turn, state.ended, sides, verdict)


def cvp_if_ended(state: GameState) -> dict[str, int]:
    """Each side's CVP "if the game ended now", as ``tally`` sums it (booked lines,
    and every guarded prisoner double while the game goes on), without making the
    lines: what a write judging the verdict needs (tests/book/test_verdict.py holds the two
    to the same figures)."""
    out = dict.fromkeys(state.sides, 0)
    for c in state.casualties:
        out[c.credited] += c.base * c.multiplier
    if not state.ended:
        for guard in state.guards():
            for u in state.prisoners_of(guard.handle):
                out[state.enemy_of(u.side)] += 2 * u.origin_cvp
    return out


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
    out = {
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
    if t.verdict is not None:
        out["verdict"] = msgspec.to_builtins(t.verdict)
    return out


# ---------------------------------------------------------------------- verdict
def verdict_lines(v: Verdict) -> list[str]:
    """The verdict in plain lines: the headline, then each condition with its values
    and what it misses (every export words it so)."""
    out = [f"Verdict: {v.headline}"]
    if v.card:
        out.append(f"  card: {v.card}")
    for c in v.clauses:
        mark = "met" if c.met else "not met"
        out.append(f"  {c.words or c.winner + ' win'}: {mark}")
        for i, group in enumerate(c.any_of):
            lead = "    " if i == 0 else "    or "
            for j, test in enumerate(group):
                joint = lead if j == 0 else "    and "
                tail = "" if test.met else f" (missing: {test.missing})"
                out.append(f"{joint}{'met' if test.met else 'not met'}: {test.words}{tail}")
    exits = ", ".join(f"{side} {vp}" for side, vp in v.exit_vp.items() if vp)
    if exits:
        out.append(f"  Exit VP: {exits}")
    if v.control:
        out.append("  control: " + ", ".join(f"{loc} {side}" for loc, side in v.control.items()))
    return out


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


def tally_status(t: Tally) -> str:
    return "game over" if t.ended else f"Game Turn {t.turn}, game in progress"


def side_totals(s: SideTally, ended: bool) -> str:
    if ended or s.cvp == s.cvp_if_ended:
        return f"{s.cvp} CVP"
    return f"{s.cvp} CVP banked; {s.cvp_if_ended} if the game ended now"


def side_title(s: SideTally) -> str:
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
    out = [f"CVP tally: {t.scenario or 'untitled'} ({tally_status(t)})", ""]
    for name, s in t.sides.items():
        out.append(f"{side_title(s)}: {side_totals(s, t.ended)}")
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
    if t.verdict is not None:
        out += verdict_lines(t.verdict)
    return "\n".join(out).rstrip() + "\n"


def _md(text: str) -> str:
    """Escape what would break a Markdown table cell or start markup."""
    for ch in "\\|*_`[]<>~&":
        text = text.replace(ch, "\\" + ch)
    return text


def to_markdown(t: Tally) -> str:
    out = [f"# CVP tally: {_md(t.scenario or 'untitled')}", "", f"_{tally_status(t)}_", ""]
    for s in t.sides.values():
        out += [f"## {_md(side_title(s))}: {side_totals(s, t.ended)}", ""]
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
    if t.verdict is not None:
        head, *rest = verdict_lines(t.verdict)
        out += [f"## {_md(head)}", ""] + [f"- {_md(line.strip())}" for line in rest] + [""]
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
        f"<p>{e(tally_status(t))}</p>",
    ]
    for s in t.sides.values():
        out.append(f"<h2>{e(side_title(s))}: {e(side_totals(s, t.ended))}</h2>")
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
    if t.verdict is not None:
        head, *rest = verdict_lines(t.verdict)
        out.append(f'<h2 class="verdict">{e(head)}</h2>')
        out.append("<ul>" + "".join(f"<li>{e(line.strip())}</li>" for line in rest) + "</ul>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)
