"""The tally for the places players post it: BBCode (the ASL forums) and CSV
(spreadsheets). Text, Markdown, HTML and JSON are in core/book/tally_sheet.py; these read the same
``Tally`` and decide nothing about points. Golden files: tests/golden/.

Escaping, because scenario and side names come from players:

* BBCode has no escape character. Every ``[`` from a name becomes ``[[b][/b]``: an
  empty bold tag right after the bracket, so no forum parser (phpBB, XenForo, vBulletin,
  SMF) can read a tag there, and the reader still sees ``[``.
* CSV: quoting by the ``csv`` module (commas, quotes, line breaks), and a text cell
  starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading
  ``'`` so a spreadsheet shows it instead of running it as a formula (CSV injection).
"""

from __future__ import annotations

import csv
import io

from stockade.core.book.tally_sheet import (
    Tally,
    TallyLine,
    side_title,
    side_totals,
    tally_status,
    verdict_lines,
)


# ---------------------------------------------------------------------- BBCode
def bbcode_escape(text: str) -> str:
    return text.replace("[", "[[b][/b]")


def _bb_line(line: TallyLine) -> str:
    e = bbcode_escape
    points = f"{line.base} x {line.multiplier} = {line.points}"
    if not line.banked:
        points = f"[i]{points} (not banked yet)[/i]"
    return (
        f"[*]#{line.seq}, Turn {line.turn}: [b]{e(line.unit)}[/b] {e(line.counter)} "
        f"{e(line.unit_kind)}, {e(line.rule)}: {points}: {e(line.why)}"
    )


def to_bbcode(t: Tally) -> str:
    e = bbcode_escape
    out = [f"[b]CVP tally: {e(t.scenario or 'untitled')}[/b] ({e(tally_status(t))})", ""]
    for s in t.sides.values():
        out.append(f"[b]{e(side_title(s))}[/b]: {e(side_totals(s, t.ended))}")
        if s.lines:
            out.append("[list]")
            out += [_bb_line(line) for line in s.lines]
            out.append("[/list]")
        else:
            out.append("No casualties yet.")
        if s.by_turn:
            turns = ", ".join(f"T{turn}: {pts}" for turn, pts in s.by_turn.items())
            out.append(f"By Game Turn: {turns}")
        out.append("")
    if t.verdict is not None:
        head, *rest = verdict_lines(t.verdict)
        out += [f"[b]{e(head)}[/b]", "[list]"] + [f"[*]{e(line.strip())}" for line in rest]
        out.append("[/list]")
    return "\n".join(out).rstrip() + "\n"


# ------------------------------------------------------------------------- CSV
CSV_HEAD = (
    "scenario",
    "side",
    "nationality",
    "seq",
    "turn",
    "unit",
    "counter",
    "kind",
    "rule",
    "base",
    "multiplier",
    "points",
    "banked",
    "why",
)
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: str | int) -> str | int:
    """A cell as a spreadsheet should show it: numbers stay numbers; text that a
    spreadsheet would run as a formula is quoted with a leading apostrophe."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def to_csv(t: Tally) -> str:
    """One row per tally line (projected lines have ``banked`` = no), with a header.
    Lines end in ``\\n``; every spreadsheet reads that."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_HEAD)
    for s in t.sides.values():
        for line in s.lines:
            row: tuple[str | int, ...] = (
                t.scenario,
                s.name,
                s.nationality,
                line.seq,
                line.turn,
                line.unit,
                line.counter,
                line.unit_kind,
                line.rule,
                line.base,
                line.multiplier,
                line.points,
                "yes" if line.banked else "no",
                line.why,
            )
            writer.writerow([csv_cell(cell) for cell in row])
    if t.verdict is not None:
        # the verdict as rows of their own: ``rule`` says "verdict" (the headline) or
        # "condition" (one line of it), ``why`` holds the words
        for i, said in enumerate(verdict_lines(t.verdict)):
            words = said.strip().removeprefix("Verdict: ")
            rule = "verdict" if i == 0 else "condition"
            verdict_row = (
                t.scenario,
                t.verdict["winner"],
                "",
                "",
                "",
                "",
                "",
                "",
                rule,
                "",
                "",
                "",
                "",
                words,
            )
            writer.writerow([csv_cell(cell) for cell in verdict_row])
    return buffer.getvalue()


__all__ = ["CSV_HEAD", "bbcode_escape", "csv_cell", "to_bbcode", "to_csv"]
