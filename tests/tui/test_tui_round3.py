"""What the third playthrough at 80x24 found (docs/playthrough/round3.md), one test each.

Each test fails on the code before its fix: the columns of a picker with greyed rows,
the unarmed counter cut in the roster, the strike question's keys, a form's verdict
while a required field is still empty, the roster key in the footer.
"""

from __future__ import annotations

import itertools

import pytest

from stockade.core.commands import execute
from stockade.tui.app import StockadeApp
from stockade.tui.forms.base import FormScreen
from tests.tui.support import new_game, sync

# Two broken German squads next to two American squads, in the American RtPh.
SETUP = [
    "add German 4-6-7 4-6-7 at Q4 broken",
    "add American 6-6-6 6-6-6 at Q5",
    "phase RtPh 1 American",
]


def _game(tmp_path, lines=SETUP, strict=False):
    sides = [("American", "American", 3), ("German", "German", 3)]
    game = new_game(tmp_path, "Round 3", sides, strict=strict)
    for line in lines:
        execute(game, line)
    return game


def _rows(app) -> list[str]:
    from stockade.tui.widgets.roster import Roster

    rows = app.screen.query_one(Roster).rows
    return [str(rows.get_option_at_index(i).prompt) for i in range(rows.option_count)]


@sync
async def test_greyed_rows_line_up_with_the_legal_ones(tmp_path):
    """The surrender picker: g1, g2 may be picked, a1, a2 (greyed, ✗) may not. Their
    Location column starts at the same place (the ✗ used to push greyed rows right).
    Strict: a1 and a2, in Good Order, are not broken by a surrender's implication."""
    game = _game(tmp_path, strict=True)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        rows = _rows(app)
        assert any("✗" in r for r in rows) and any("✗" not in r for r in rows)
        columns = {r.index("Q4") if "Q4" in r else r.index("Q5") for r in rows}
        assert len(columns) == 1, rows
        handles = {r.index(h) for r, h in zip(rows, ("g1", "g2", "a1", "a2"), strict=True)}
        assert len(handles) == 1, rows
    game.close()


@sync
async def test_the_roster_shows_an_unarmed_counter_whole_at_80_columns(tmp_path):
    game = _game(tmp_path, [*SETUP, "surrender g1 g2 to a1"])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        rows = _rows(app)
        g1 = next(r for r in rows if r.startswith("g1"))
        assert "(1)-0-6 [was 4-6-7 squad]" in g1, rows
        assert g1.rstrip().endswith("prisoner of a1"), rows
    game.close()


@sync
async def test_the_strike_question_names_esc_not_a_letter_that_types_into_the_reason(tmp_path):
    """The strike asks for a reason in an input: "n" types an n there, so the hint
    must not say "n: cancel" (it did); esc cancels."""
    from textual.widgets import Input

    from stockade.tui.screens.confirm import ConfirmScreen

    game = _game(tmp_path)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        answers: list[str | None] = []
        app.push_screen(
            ConfirmScreen("Strike an entry", "Strike entry 2?", "reason"), answers.append
        )
        await pilot.pause()
        keys = str(app.screen.query_one("#confirm-keys").render())
        assert "esc: cancel" in keys and "n: cancel" not in keys and "n/" not in keys, keys
        await pilot.press("n", "o")
        await pilot.pause()
        assert app.screen.query_one(Input).value == "no"  # n typed, nothing cancelled
        await pilot.press("escape")
        await pilot.pause()
        assert answers == [None]
    game.close()


@sync
async def test_a_half_filled_form_asks_for_the_field_not_the_command_syntax(tmp_path):
    """The rearm form with the unit picked and "How" still empty said "✗ refused:
    write: rearm H cc|alone|surrender ENEMY ..." (the command language): it now names
    the field still to fill. A real refusal still shows as one."""
    lines = [*SETUP, "surrender g1 g2 to a1", "phase APh 1 American", "abandon g1"]
    game = _game(tmp_path, lines)
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "r")
        await pilot.pause()
        await pilot.press("enter")  # the roster picker: g1, the one unarmed unit
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen) and form.spec.name == "rearm"
        verdict = str(form.query_one("#verdict").render())
        assert "? still to fill: How" in verdict, verdict
        assert "write:" not in verdict and "refused" not in verdict, verdict
        form.query_one("#f-how").value = "alone"  # alone with a1? a1 is armed, alive
        form.query_one("#f-enemy").value = "a1"
        await pilot.pause()
        verdict = str(form.query_one("#verdict").render())
        assert "✗ refused: A20.551" in verdict, verdict
    game.close()


@pytest.mark.parametrize("remap", [False, True])
@sync
async def test_the_roster_key_is_in_the_footer_at_80_columns(tmp_path, remap):
    """w (the roster) was in no footer, even at 160 columns: only help and the palette
    named it. It takes the place of ":" (the command bar's own line says "press :").
    Quit is there too; at 80 columns the palette's key makes room for it (ctrl+p still
    opens the palette; help names it). With "next phase" remapped to a longer key the
    footer still fits 80 columns."""
    from textual.widgets._footer import FooterKey

    if remap:
        (tmp_path / "config").mkdir()
        (tmp_path / "config" / "config.toml").write_text(
            '[keys]\n"stockade.next_phase" = "space"\n'
        )
    game = _game(tmp_path, [])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = [k for k in app.screen.query(FooterKey) if k.display]
        shown = [(k.key_display, k.description) for k in keys]
        assert ("w", "Roster") in shown, shown
        assert ("q", "Quit") in shown, shown  # a new user looked for it there
        for key in keys:
            assert key.region.width > 0 and key.region.right <= 80, shown
        regions = sorted((k.region for k in keys), key=lambda r: r.x)
        for left, right in itertools.pairwise(regions):
            assert left.right <= right.x, shown  # whole, none drawn over another
        await pilot.press("w")
        await pilot.pause()
        assert type(app.screen).__name__ == "RosterScreen"
    game.close()
