"""Output that cannot be hijacked (issue 13): the CLI shows control characters instead
of sending them; the TUI shows names as written, never as Rich markup."""

from __future__ import annotations

import re

import pytest

from stockade.core.cli import main
from stockade.core.cli.output import visible_output
from stockade.core.commands import execute
from stockade.core.model.visible import json_visible, visible
from stockade.tui.app import StockadeApp
from tests.tui.support import new_game, sync

# What must never reach a terminal from a log: C0 but newline and tab, DEL, C1.
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def test_visible_shows_every_control_character():
    for code in [*range(0x00, 0x20), *range(0x7F, 0xA0)]:
        if chr(code) in "\n\t":
            continue
        shown = visible(f"a{chr(code)}b")
        assert shown == f"a\\x{code:02x}b" and not FORBIDDEN.search(shown)
    assert visible("line\n\tindented — Łódź") == "line\n\tindented — Łódź"
    assert visible("bad byte \udcff") == "bad byte \\xff"


def test_json_visible_keeps_json_valid():
    import json

    text = json_visible(json.dumps({"a": "x\x1b\x85\x7f"}, ensure_ascii=False))
    assert json.loads(text) == {"a": "x\x1b\x85\x7f"}
    assert not FORBIDDEN.search(text)


def test_the_visible_stream_wraps_stdout_and_stderr(capsys):
    with visible_output():
        print("title \x1b]0;pwned\x07 set")
    assert capsys.readouterr().out == "title \\x1b]0;pwned\\x07 set\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["do", "{game}", "add American 6-6-6 as a1 at O4\x1b[2J"],
        ["do", "{game}", "add American \x1b]52;c;QUFB\x07 as a1"],
        [
            "new",
            "{dir}/n.jsonl",
            "--scenario",
            "X\x1b]0;pwned\x07",
            "--side",
            "A:American",
            "--side",
            "B:German",
        ],  # fmt: skip
        ["check", "{dir}/\x1b[31mred\x9b.jsonl"],
        ["strike", "{game}", "1", "--reason", "\x1b[2J"],
    ],
)
def test_no_escape_typed_or_named_reaches_the_terminal(tmp_path, capsys, argv):
    game = new_game(tmp_path, "Plain", [("American", "American", 4), ("German", "German", 3)])
    game.close()
    argv = [a.format(game=game.path, dir=tmp_path) for a in argv]
    main(argv)
    out, err = capsys.readouterr()
    assert not FORBIDDEN.search(out + err), (out, err)
    assert "\x1b" not in game.path.read_text()


MARKUP = "[link=file:///etc/passwd]click[/link] [on red]X[/on red]"


def screen_text(app) -> str:
    """Every character on the screen, as the SVG screenshot draws it."""
    import html

    svg = app.export_screenshot()
    texts = re.findall(r"<text[^>]*>(.*?)</text>", svg)
    return html.unescape("".join(texts)).replace("\xa0", " ")


@sync
async def test_markup_in_names_is_shown_as_written(tmp_path):
    game = new_game(tmp_path, MARKUP, [("[b]Ami[/b]", "American", 4), ("German", "German", 3)])
    execute(game, "add German 4-6-7 as g1 at '[blink]O4'")
    execute(game, "eliminate g1 by [b]Ami[/b]")
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        main_screen = screen_text(app)
        assert "[b]Ami[/b] (American)" in main_screen  # the side panel's title
        assert "[blink]O4" in main_screen  # the history line
        assert "file:///etc/passwd" in main_screen  # the scenario, shown as written
        await pilot.press("v")
        await pilot.pause()
        tally_screen = screen_text(app)
        assert MARKUP in tally_screen
        assert "[b]Ami[/b] (American): CVP" in tally_screen
        assert "link" not in re.sub(r">[^<]*<", "><", app.export_screenshot())  # no live link
    game.close()


def test_html_and_markdown_exports_escape_for_their_format():
    from stockade.core.book.tally import tally, to_html, to_markdown

    nasty = "<script>alert(1)</script> | *x* [a](javascript:x) ~~y~~ &amp;"
    game = new_game_in_memory(nasty)
    page = to_html(tally(game.state))
    assert "<script>" not in page and "&lt;script&gt;" in page
    md = to_markdown(tally(game.state))
    assert "<script>" not in md and "\\<script\\>" in md
    assert "[a](" not in md and "\\|" in md and "\\~\\~y" in md and "\\&amp;" in md


def new_game_in_memory(scenario: str):
    from stockade.core.book.game import Game
    from stockade.core.model import events as ev

    sides = [ev.SideSpec("American", "American"), ev.SideSpec("German", "German")]
    return Game.in_memory(scenario, sides)


def test_bidirectional_overrides_are_shown_not_applied():
    # "Trojan Source": U+202E would print the rest of the line right to left.
    assert visible("g1 surrendered\u202e to a1") == "g1 surrendered\\u202e to a1"
    assert visible("x\u2066y\u2069") == "x\\u2066y\\u2069"


def test_a_json_reply_stays_valid_json_and_inert(tmp_path, capsys):
    import json

    game = new_game(tmp_path, "Plain", [("American", "American", 4), ("German", "German", 3)])
    game.close()
    main(["do", str(game.path), "add American '\x1b]52;c;QUFB\x07\x9b\u202e' as a1", "--json"])
    out, err = capsys.readouterr()
    assert not FORBIDDEN.search(out + err) and "\u202e" not in out + err
    reply = json.loads(out)
    assert reply["ok"] is False and "\x1b]52" in reply["error"]["message"]


@sync
async def test_the_open_game_list_shows_a_markup_name_as_written(tmp_path, stockade_dirs):
    from stockade.tui.screens.games import OpenGameScreen

    data = stockade_dirs.data
    data.mkdir()
    other = new_game(data, MARKUP, [("American", "American", 4), ("German", "German", 3)])
    other.close()
    here = tmp_path / "here"
    here.mkdir()
    game = new_game(here, "Plain", [("American", "American", 4), ("German", "German", 3)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        app.push_screen(OpenGameScreen())
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "[link=file:///etc/passwd]click[/link] [on red]X[/on red]" in screen_text(app)
    game.close()
