"""The CVP tally as data, and every way it is written out: text, Markdown, HTML and
JSON here, BBCode and CSV in core/reads/tally_formats.py.

The data is built by a fold (``core.book.tally.tally``) or read back from the derived
store (core/cli/tally_report.py), and rendered by this same code either way. So that a
tally read from the store renders without loading msgspec or the model, this module
imports nothing at its top (``html``, with its table of entities, is loaded by the
HTML writer, which escapes with it): the rows are plain classes (``__slots__``;
``dataclasses`` alone costs more than the interpreter's start), each with its row for the store
(``row`` / ``from_row``), and the verdict is held as its JSON object, the shape
``tally --json`` documents (``core.book.verdict.Verdict`` as builtins).
"""

from __future__ import annotations

# typing costs ~2 ms to import; mypy reads a TYPE_CHECKING of our own the same way
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

    VerdictData = dict[str, Any]  # core.book.verdict.Verdict as JSON builtins


class _Record:
    """Equality and a readable repr from ``__slots__`` (what a dataclass would give)."""

    __slots__: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({fields})"


class TallyLine(_Record):
    __slots__ = (
        "unit",  # handle
        "counter",  # as it was; a crew is remembered as a crew
        "unit_kind",
        "seq",  # the event that booked it (for a projection: the capture)
        "turn",
        "rule",
        "base",
        "multiplier",
        "why",
        "banked",  # False: only "if the game ended now"
    )

    def __init__(
        self,
        unit: str,
        counter: str,
        unit_kind: str,
        seq: int,
        turn: int,
        rule: str,
        base: int,
        multiplier: int,
        why: str,
        banked: bool = True,
    ) -> None:
        self.unit, self.counter, self.unit_kind = unit, counter, unit_kind
        self.seq, self.turn, self.rule = seq, turn, rule
        self.base, self.multiplier, self.why, self.banked = base, multiplier, why, banked

    @property
    def points(self) -> int:
        return self.base * self.multiplier

    def row(self) -> list[Any]:
        return list(self._values())

    @classmethod
    def from_row(cls, row: list[Any]) -> TallyLine:
        return cls(*row)


class SideTally(_Record):
    __slots__ = ("name", "nationality", "lines", "by_turn")

    def __init__(
        self,
        name: str,
        nationality: str,
        lines: list[TallyLine] | None = None,
        by_turn: dict[int, int] | None = None,  # banked points per Game Turn
    ) -> None:
        self.name, self.nationality = name, nationality
        self.lines: list[TallyLine] = [] if lines is None else lines
        self.by_turn: dict[int, int] = {} if by_turn is None else by_turn

    @property
    def cvp(self) -> int:
        return sum(line.points for line in self.lines if line.banked)

    @property
    def cvp_if_ended(self) -> int:
        return sum(line.points for line in self.lines)

    def row(self) -> list[Any]:
        lines = [line.row() for line in self.lines]
        return [self.name, self.nationality, lines, list(self.by_turn.items())]

    @classmethod
    def from_row(cls, row: list[Any]) -> SideTally:
        name, nationality, lines, by_turn = row
        return cls(name, nationality, [TallyLine.from_row(r) for r in lines], dict(by_turn))


class Tally(_Record):
    __slots__ = ("scenario", "turn", "ended", "sides", "verdict")

    def __init__(
        self,
        scenario: str,
        turn: int,
        ended: bool,
        sides: dict[str, SideTally],
        verdict: VerdictData | None = None,  # the Victory Conditions judged, if any
    ) -> None:
        self.scenario, self.turn, self.ended = scenario, turn, ended
        self.sides, self.verdict = sides, verdict

    def row(self) -> list[Any]:
        sides = [s.row() for s in self.sides.values()]
        return [self.scenario, self.turn, self.ended, sides, self.verdict]

    @classmethod
    def from_row(cls, row: list[Any]) -> Tally:
        scenario, turn, ended, sides, verdict = row
        found = [SideTally.from_row(s) for s in sides]
        return cls(scenario, turn, ended, {s.name: s for s in found}, verdict)


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
        out["verdict"] = t.verdict
    return out


# ---------------------------------------------------------------------- verdict
def verdict_rows(v: VerdictData) -> list[tuple[str, str]]:
    """The verdict as rows, each its lead and its words: the headline, then each
    condition with its values and what it misses (every export words it so; the text
    tally wraps a long one under its words)."""
    out = [("Verdict: ", v["headline"])]
    if v.get("card"):
        out.append(("  card: ", v["card"]))
    for c in v["clauses"]:
        mark = "met" if c["met"] else "not met"
        out.append(("  ", f"{c['words'] or c['winner'] + ' win'}: {mark}"))
        for i, group in enumerate(c["any_of"]):
            lead = "    " if i == 0 else "    or "
            for j, test in enumerate(group):
                joint = lead if j == 0 else "    and "
                tail = "" if test["met"] else f" (missing: {test['missing']})"
                out.append(
                    (f"{joint}{'met' if test['met'] else 'not met'}: ", test["words"] + tail)
                )
    exits = ", ".join(f"{side} {vp}" for side, vp in v["exit_vp"].items() if vp)
    if exits:
        out.append(("  Exit VP: ", exits))
    if v["control"]:
        out.append(
            ("  control: ", ", ".join(f"{loc} {side}" for loc, side in v["control"].items()))
        )
    return out


def verdict_lines(v: VerdictData) -> list[str]:
    """The verdict in plain lines (``verdict_rows``, each on one line)."""
    return [lead + words for lead, words in verdict_rows(v)]


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


NOT_BANKED_SAYS = "not banked yet: counted only if the game ended now (A20.1)"
BARS_SAY = "each # is 1 CVP banked in that Game Turn; the number is the turn's total"


def to_text(t: Tally, width: int | None = None) -> str:
    """The tally as text; ``width``: the columns a row may take, its ``why`` (and a
    verdict's words) wrapped under itself past them (core/model/columns.py); None:
    each row on one line."""
    from stockade.core.model.columns import laid_out, lead, widths

    # One set of column widths and one bar width for every side, so the sides' tables
    # line up under each other and can be read across.
    rows_of = {name: [_cells(line) for line in s.lines] for name, s in t.sides.items()}
    cols = widths([_HEAD, *(row for rows in rows_of.values() for row in rows)])
    by_turn = [(turn, pts) for s in t.sides.values() for turn, pts in s.by_turn.items()]
    turn_w = max((len(str(turn)) for turn, _ in by_turn), default=1)
    bar_w = max((len(_bar(pts)) for _, pts in by_turn), default=0)
    out = [f"CVP tally: {t.scenario or 'untitled'} ({tally_status(t)})", ""]
    for name, s in t.sides.items():
        out += laid_out(f"{side_title(s)}: ", side_totals(s, t.ended), width)
        if not s.lines:
            out.append("  no casualties yet")
        else:
            for row in [_HEAD, *rows_of[name]]:
                out += laid_out(lead(row[:-1], cols, indent="  "), row[-1], width, below=6)
        if any(not line.banked for line in s.lines):
            out += laid_out(
                "  * ", "not banked yet: counted only if the game ended now (A20.1)", width
            )
        out.append("  by Game Turn:")
        for turn, pts in s.by_turn.items():
            bar = _bar(pts).ljust(bar_w) + " " if bar_w else ""
            out.append(f"    T{str(turn).ljust(turn_w)} {bar}{pts}")
        if any(s.by_turn.values()):
            out += laid_out("  ", BARS_SAY, width)
        out.append("")
    if t.verdict is not None:
        for said, words in verdict_rows(t.verdict):
            out += laid_out(said, words, width)
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
            out += [f"\\* {NOT_BANKED_SAYS}", ""]
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
    import html

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
