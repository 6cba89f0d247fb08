"""The side panel's Rearm section, rendered: an unarmed unit that may not rearm from an
enemy lost in its Location says why, narrow and wide (A20.551)."""

from __future__ import annotations

import io

from rich.console import Console

from stockade.core.reads.views import side_panel
from stockade.tui.widgets.side_panel import render_panel
from tests.reads.kit import escape_kills_a_hs_guard


def test_the_wide_rearm_section_says_why_a_squad_is_not_rearmed_by_a_hs():
    game = escape_kills_a_hs_guard()
    console = Console(width=160, record=True, file=io.StringIO())
    console.print(render_panel(side_panel(game.state, "g"), "bold", wide=True))
    text = " ".join(console.export_text().split())
    assert "✗ not now" in text
    assert "not from b1 (2-4-8): b 2-4-8 (b1) (US# 2) rearms only an unarmed unit of" in text
    assert "is never split to be rearmed (A20.551)" in text


def test_the_narrow_rearm_section_gives_the_rule_and_the_verb_that_says_it_whole():
    """At 80 columns a side panel is 36 wide: the refusal whole took six of its rows.
    It shows the rule and the verb whose refusal says it whole, in two."""
    game = escape_kills_a_hs_guard()
    console = Console(width=36, record=True, file=io.StringIO())
    console.print(render_panel(side_panel(game.state, "g"), "bold", wide=False))
    lines = console.export_text().splitlines()
    first = next(n for n, line in enumerate(lines) if "not from b1" in line)
    why = []
    for line in lines[first:]:
        if why and line.lstrip().startswith("·"):
            break
        why.append(line.strip())
    assert " ".join(why) == "· not from b1 (2-4-8), A20.551: rearm g1 says why"
    assert len(why) <= 2
