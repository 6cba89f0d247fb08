"""The camp screen driven by keys alone (Textual Pilot, 80x24)."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.widgets import Footer

from stockade.core.camp.campaign import Campaign, options_from_mapping
from stockade.tui.camp import screen as camp_screen
from stockade.tui.camp.app import CampApp
from stockade.tui.camp.modals import EndScreen, HelpScreen


def panel(app, widget_id: str) -> str:
    content = app.screen.query_one(widget_id).content
    return Text.from_markup(content).plain if isinstance(content, str) else str(content)


async def type_keys(pilot, text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(c, c) for c in text], "enter")


def test_a_campaign_with_typed_dice_from_capture_to_escape(tmp_path):
    asyncio.run(typed_dice_flow(tmp_path))  # no async plugin in this venv: run the loop here


def test_help_and_a_simulation_in_a_worker(tmp_path, monkeypatch):
    monkeypatch.setattr(camp_screen, "SIMULATED_GAMES", 40)
    asyncio.run(help_and_simulation_flow(tmp_path))


def test_a_typed_digit_redraws_the_turn_panel_alone(tmp_path):
    asyncio.run(typed_digit_flow(tmp_path))


async def typed_digit_flow(tmp_path):
    """A digit typed for a physical roll changes the turn panel's prompt only: the
    screen is not laid out again for it, and the footer's keys (enabled as before) are
    not rebuilt. Counted, not timed."""
    campaign = Campaign.create(
        tmp_path / "camp.jsonl", options_from_mapping({"seed": "p", "dice": "physical"})
    )
    app = CampApp(campaign)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        layouts: list[object] = []
        screen.screen_layout_refresh_signal.subscribe(screen, layouts.append)
        keys = list(screen.query_one(Footer).children)
        await pilot.press("6", "space", "1", "2")
        await pilot.pause()
        assert "6 12" in panel(app, "#camp-turn")
        assert layouts == [], len(layouts)
        assert list(screen.query_one(Footer).children) == keys  # the same widgets
    campaign.close()


async def typed_dice_flow(tmp_path):
    path = tmp_path / "camp.jsonl"
    campaign = Campaign.create(path, options_from_mapping({"seed": "p", "dice": "physical"}))
    app = CampApp(campaign)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, "6 12")  # December 1944
        await type_keys(pilot, "7")  # a d6 cannot show 7: refused, nothing logged
        assert "a d6 shows 1 to 6, not 7" in panel(app, "#camp-turn")
        await pilot.press("backspace")
        await type_keys(pilot, "6")  # Health 9
        assert "December 1944" in panel(app, "#camp-record")
        await pilot.press("g")
        await type_keys(pilot, "3")  # a piece of kit
        assert "e escape (1d6, any 6)" in panel(app, "#camp-turn")
        await pilot.press("e")
        await type_keys(pilot, "6")
        assert isinstance(app.screen, EndScreen)
        await pilot.press("u")  # take back the typed six
        assert campaign.state.phase == "escape_roll" and not campaign.state.over
        await type_keys(pilot, "2")
        await type_keys(pilot, "1")  # recaptured, Health -1
        assert "Dec 1944" in panel(app, "#camp-history")
        assert "8/9" in panel(app, "#camp-record")
        await pilot.press("q")
    campaign.close()
    resumed = Campaign.load(path)
    assert (resumed.state.year, resumed.state.month, resumed.state.health) == (1945, 1, 8)
    assert resumed.need().phase == "liberation"  # January 1945 opens with its d12


async def help_and_simulation_flow(tmp_path):
    campaign = Campaign.create(tmp_path / "c.jsonl", options_from_mapping({"seed": "q"}))
    app = CampApp(campaign)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        assert campaign.state.months_in_captivity == 1
        assert "Loiter d6" in panel(app, "#camp-dice")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "HOUSE RULE" in str(app.screen.query_one("#camp-help Static").content)
        await pilot.press("escape", "c")
        await app.workers.wait_for_complete()
        await pilot.pause()
        chart = panel(app, "#camp-chart")
        assert "gather-to-3" in chart and "40 games each" in chart
        await pilot.press("u")
        assert campaign.state.months_in_captivity == 0
    campaign.close()


def test_the_camp_names_remapped_keys(tmp_path, stockade_dirs):
    """The camp's texts named l/m/g, e, s, c, u, q whatever the keymap said: they come
    from the binding registry now, like the main screen's."""
    config = stockade_dirs.config
    config.mkdir()
    (config / "config.toml").write_text(
        '[keys]\n"camp.gather" = "k"\n"camp.escape" = "x"\n"camp.simulate" = "z"\n'
        '"camp.undo" = "b"\n"camp.end.quit" = "o"\n'
    )
    asyncio.run(remapped_flow(tmp_path))


async def remapped_flow(tmp_path):
    campaign = Campaign.create(tmp_path / "c.jsonl", options_from_mapping({"seed": "p"}))
    app = CampApp(campaign)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        turn = panel(app, "#camp-turn")
        assert "l / m / k" in turn and "l / m / g" not in turn, turn
        assert any(line.startswith("k Gather") for line in turn.splitlines()), turn
        assert panel(app, "#camp-chart").startswith("z: simulate")
        await pilot.press("k")  # the remapped key works and is the one named
        await pilot.pause()
        assert campaign.state.last_roll.startswith("Gather kit")
        if campaign.state.phase == "escape_choice":  # a piece of kit: escape or stay
            turn = panel(app, "#camp-turn")
            assert "x escape" in turn and "e escape" not in turn, turn
        await pilot.press("question_mark")
        await pilot.pause()
        help_text = str(app.screen.query_one("#camp-help Static").content)
        assert "l/m/k action · x escape" in help_text and "b undo" in help_text
        assert "z simulate" in help_text
    campaign.close()
