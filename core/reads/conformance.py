"""The A20 conformance matrix: every requirement of A20 (seed 004) with Stockade's
status for it and the tests that prove it (data in core/data/conformance.toml).

``python -m stockade.core.reads.conformance`` prints docs/conformance.md; with ``--write`` it
writes it (tests/rules/test_conformance.py fails when the committed file is out of date).
``section_text("A20.55")`` is what ``stockade rules A20.55`` and ``help A20.55`` show.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from stockade.core.model.columns import laid_out
from stockade.core.reads.rulings import rulings

STATUSES = ("enforced", "shown", "asked", "out of scope")
DOC = Path(__file__).resolve().parents[2] / "docs" / "conformance.md"


@dataclass(frozen=True)
class Section:
    rule: str  # "A20.55", or "A20.55 EX" for its example paragraph
    title: str


@dataclass(frozen=True)
class Requirement:
    rule: str
    number: int  # its place in the section, from 1
    words: str  # the text's first words, not the whole sentence
    status: str
    tests: tuple[str, ...]
    note: str  # how, or (out of scope) why not
    cites: tuple[str, ...]  # other rule ids a proving refusal/effect may cite
    ruling: str = ""  # the topic of the ruling (core/data/rulings.toml) it follows, if any

    @property
    def ref(self) -> str:
        return f"{self.rule} #{self.number}"


@cache
def _data() -> dict[str, list[dict[str, object]]]:
    with resources.files("stockade.core.data").joinpath("conformance.toml").open("rb") as fh:
        return tomllib.load(fh)


@cache
def sections() -> tuple[Section, ...]:
    return tuple(Section(str(s["rule"]), str(s["title"])) for s in _data()["section"])


def _texts(value: object) -> tuple[str, ...]:
    """A list of conformance.toml (its tests, its cites) as strings."""
    if not isinstance(value, list):
        raise ValueError(f"conformance.toml: expected a list, found {value!r}")
    return tuple(str(v) for v in value)


@cache
def requirements() -> tuple[Requirement, ...]:
    counts: dict[str, int] = {}
    out = []
    for r in _data()["requirement"]:
        rule = str(r["rule"])
        counts[rule] = counts.get(rule, 0) + 1
        out.append(
            Requirement(
                rule=rule,
                number=counts[rule],
                words=str(r["words"]),
                status=str(r.get("status", "")),
                tests=_texts(r.get("tests", [])),
                note=str(r.get("note", "")),
                cites=_texts(r.get("cites", [])),
                ruling=str(r.get("ruling", "")),
            )
        )
    return tuple(out)


def normalise(rule: str) -> str:
    """ "a20.55", "20.55 ex", "A20.55" -> "A20.55" / "A20.55 EX"."""
    text = rule.strip().upper().replace("EX", " EX")
    text = re.sub(r"\s+", " ", text).strip()
    return text if text.startswith("A") else "A" + text


def is_rule_id(word: str) -> bool:
    return bool(re.fullmatch(r"[Aa]?20(\.\d+)*", word.strip()))


def section_text(rule: str, width: int | None = None) -> str | None:
    """The requirements of ``rule`` (and its EX paragraph) with Stockade's status for
    each; None when A20 has no such section. ``width``: the columns a line may take,
    each requirement wrapped under its words past them (core/model/columns.py)."""
    wanted = normalise(rule)
    chosen = [s for s in sections() if s.rule in (wanted, wanted + " EX")]
    if not chosen:
        return None
    lines = []
    for section in chosen:
        lines += laid_out(
            f"{section.rule} ", f"{section.title} (each sentence by its first words)", width
        )
        for r in requirements():
            if r.rule == section.rule:
                how = r.note + (f" (ruling: {r.ruling})" if r.ruling else "")
                note = f": {how.strip()}" if how.strip() else ""
                lines += laid_out(f"  {r.number}. ", f"“{r.words} …” [{r.status}]{note}", width)
    deeper = [s.rule for s in sections() if s.rule.startswith(wanted) and s not in chosen]
    deeper = [s for s in deeper if not s.endswith(" EX")]
    if deeper:
        lines += laid_out("see also: ", ", ".join(deeper), width)
    lines += laid_out(  # a note of its own: wrapped at the margin
        "",
        "(Stockade quotes only each sentence's first words: the rulebook has the whole "
        "text; the whole matrix, with the tests that prove each line: docs/conformance.md)",
        width,
    )
    return "\n".join(lines)


def index_text(width: int | None = None) -> str:
    """Every section with how many of its requirements have each status; ``width`` as
    ``section_text`` takes it."""
    lines = ["A20 sections (stockade rules SECTION, help SECTION):"]
    for section in sections():
        counts: dict[str, int] = {}
        for r in requirements():
            if r.rule == section.rule:
                counts[r.status] = counts.get(r.status, 0) + 1
        summary = ", ".join(f"{n} {s}" for s, n in counts.items())
        lines += laid_out(f"  {section.rule:<10} ", f"{section.title} ({summary})", width)
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown() -> str:
    """docs/conformance.md, generated."""
    reqs = requirements()
    totals = {s: sum(1 for r in reqs if r.status == s) for s in STATUSES}
    out = [
        "# A20 conformance matrix",
        "",
        "Generated from `core/data/conformance.toml` by `python -m stockade.core.reads.conformance"
        " --write`; do not edit by hand. `tests/rules/test_conformance.py` fails"
        " when a requirement",
        "has no status, when a named test does not exist, when an enforced requirement has no",
        "test that expects a refusal or effect citing its rule, or when this file is stale.",
        "",
        "A20 as it stands in seed 004 (A20.1 to A20.552, with the EX paragraphs), one",
        "sentence or clause a line. Status: **enforced** (a refusal or an automatic effect),",
        "**shown** (displayed to the player), **asked** (the board knows it: Stockade asks and",
        "records the answer), **out of scope** (with the reason). The player sees a section",
        "with `stockade rules A20.55` or `help A20.55` in the command bar.",
        "",
        f"{len(reqs)} requirements: " + ", ".join(f"{n} {s}" for s, n in totals.items()) + ".",
        "",
    ]
    for section in sections():
        out += [f"## {section.rule} {section.title}", ""]
        out += ["| # | text begins | status | how / why | tests |", "|---|---|---|---|---|"]
        for r in reqs:
            if r.rule != section.rule:
                continue
            tests = "<br>".join(f"`{t}`" for t in r.tests)
            how = _cell((r.note + (f" (ruling: {r.ruling})" if r.ruling else "")).strip())
            out.append(f"| {r.number} | {_cell(r.words)} ... | {r.status} | {how} | {tests} |")
        out.append("")
    out += [
        "## Rulings relied on",
        "",
        "Where A20 is silent or ambiguous, and the published rulings Stockade follows "
        "(`core/data/rulings.toml`; reasons in `docs/rulings.md`; `stockade rulings`).",
        "",
        "| topic | rule | ruling | source | tests |",
        "|---|---|---|---|---|",
    ]
    for ruling in rulings():
        tests = "<br>".join(f"`{t}`" for t in ruling.tests)
        out.append(
            f"| {_cell(ruling.topic)} | {ruling.rule} | {_cell(ruling.ruling)} | "
            f"{_cell(ruling.source)} | {tests} |"
        )
    out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = markdown()
    if "--write" in args:
        DOC.write_text(text, encoding="utf-8")
        print(f"wrote {DOC}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
