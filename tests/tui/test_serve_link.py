"""``stockade serve`` prints its link as plain text: no escape codes in a terminal (it
can be copied), none when piped."""

from __future__ import annotations

import asyncio
import io

import pytest
from rich.console import Console

from stockade.tui.serve import StockadeServer


@pytest.mark.parametrize("terminal", [True, False])
def test_the_link_is_printed_without_escape_codes(terminal):
    server = StockadeServer("stockade x", "127.0.0.1", 8765, "s3cr3t[b]", "Demo [b]game[/b]")
    out = io.StringIO()
    server.console = Console(file=out, force_terminal=terminal, color_system="truecolor", width=200)
    asyncio.run(server.on_startup(None))
    text = out.getvalue()
    assert "\x1b[" not in text
    assert "http://127.0.0.1:8765/?token=s3cr3t[b]" in text
    assert "Demo [b]game[/b]" in text  # a title is text, never markup
