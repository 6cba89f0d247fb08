"""The side panel's Rearm section, rendered: an unarmed unit that may not rearm from an
enemy lost in its Location says why, narrow and wide (A20.551)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from stockade.core.reads.views import side_panel
from stockade.tui.widgets.side_panel import render_panel
from tests.reads.kit import escape_kills_a_hs_guard


@pytest.mark.parametrize("wide", [False, True])
def test_the_rearm_section_says_why_a_squad_is_not_rearmed_by_a_hs(wide):
    game = escape_kills_a_hs_guard()
    console = Console(width=160 if wide else 80, record=True, file=io.StringIO())
    console.print(render_panel(side_panel(game.state, "g"), "bold", wide=wide))
    text = " ".join(console.export_text().split())
    assert "✗ not now" in text
    assert "not from b1 (2-4-8): b 2-4-8 (b1) (US# 2) rearms only an unarmed unit of" in text
    assert "is never split to be rearmed (A20.551)" in text
