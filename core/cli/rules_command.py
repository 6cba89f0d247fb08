"""``stockade rules [SECTION]``: the requirements of an A20 section with Stockade's
status for each (the conformance matrix, core/data/conformance.toml)."""

from __future__ import annotations

import argparse

from stockade.core.cli.errors import CliError, Exit
from stockade.core.cli.parsing import add_command, add_json
from stockade.core.cli.types import SubParsers
from stockade.core.cli.width import WIDTH, chosen


def register(sub: SubParsers[argparse.ArgumentParser]) -> None:
    rules = add_command(
        sub,
        "rules",
        "the requirements of an A20 section with Stockade's status for each",
        ["stockade rules A20.55", "stockade rules --json"],
        cmd_rules,
    )
    rules.add_argument(
        "section",
        nargs="?",
        default="",
        metavar="SECTION",
        help="e.g. A20.55 or 20.21; without it, every section",
    )
    add_json(rules)
    WIDTH.add_to(rules)


def cmd_rules(args: argparse.Namespace, ui: object) -> int:
    from stockade.core.reads import conformance

    asked: list[str] = []
    if args.section:
        if conformance.section_text(args.section) is None:
            raise CliError(
                f"rules: no A20 section '{args.section}' (try: stockade rules, for the list)",
                Exit.USAGE,
            )
        wanted = conformance.normalise(args.section)
        asked = [s.rule for s in conformance.sections() if s.rule in (wanted, wanted + " EX")]
    if getattr(args, "json", False):
        from stockade.core.cli.jsonout import emit

        found = [
            {
                "rule": r.rule,
                "number": r.number,
                "words": r.words,
                "status": r.status,
                "note": r.note,
                "tests": list(r.tests),
            }
            for r in conformance.requirements()
            if not asked or r.rule in asked
        ]
        emit("rules", requirements=found)
        return Exit.OK
    width = chosen(args)
    print(
        conformance.section_text(args.section, width)
        if args.section
        else conformance.index_text(width)
    )
    return Exit.OK
