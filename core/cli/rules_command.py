"""``stockade rules [SECTION]``: the requirements of an A20 section with Stockade's
status for each (the conformance matrix, core/data/conformance.toml). Self-contained:
arguments.py only calls ``register``."""

from __future__ import annotations

import argparse

from stockade.core.cli.errors import CliError, Exit


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    rules = sub.add_parser(
        "rules",
        help="the requirements of an A20 section and Stockade's status for each",
        description="List the requirements of an A20 section (e.g. A20.55), one sentence or "
        "clause a line, each enforced, shown, asked or out of scope. Without SECTION: "
        "every section. The whole matrix, with its tests, is docs/conformance.md.",
    )
    rules.add_argument("section", nargs="?", default="", metavar="SECTION")
    rules.set_defaults(func=cmd_rules)


def cmd_rules(args: argparse.Namespace, ui: object) -> int:
    from stockade.core import conformance

    if not args.section:
        print(conformance.index_text())
        return Exit.OK
    text = conformance.section_text(args.section)
    if text is None:
        raise CliError(
            f"rules: no A20 section '{args.section}' (try: stockade rules, for the list)",
            Exit.USAGE,
        )
    print(text)
    return Exit.OK
