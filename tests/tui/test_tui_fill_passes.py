"""What the fill (the main screen replacing the frame, the demo at 120x40) does once
only, counted in a fresh process started as the launcher starts the app: each panel is
one widget that draws its own text's lines, rendered by Rich at the width they are
painted at (the German panel overflows: its scrollbar is decided in the layout that
finds it overflowing, not by a second layout and render at one column less), once a
width; the entries' list above the command bar (hidden until a phase or the bar opens)
is not mounted in the fill."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tui.support import demo_in_a_child

ROOT = Path(__file__).resolve().parents[2]

CHILD = """\
import asyncio, json, sys
from pathlib import Path
from textual.widget import Widget
import stockade.tui.app as app_module

from stockade.tui.widgets.offer_list import OfferList
import stockade.tui.widgets.side_panel as side_panel

renders = {}
real_render_panel = side_panel.render_panel

class Counted:
    # the panel's text, noting the width of each time Rich renders it

    def __init__(self, text, name):
        self.text, self.name = text, name

    def __rich_console__(self, console, options):
        renders.setdefault(self.name, []).append(options.max_width)
        yield self.text

def counted_panel(data, *args, **kwargs):
    return Counted(real_render_panel(data, *args, **kwargs), data.name)

side_panel.render_panel = counted_panel

painted = {}
order = []
real_render_lines = Widget.render_lines

def render_lines(self, crop):
    if type(self).__name__ == "SidePanelView":
        painted.setdefault(self.side, set()).add(self.scrollable_content_region.width)
        if "panels painted" not in order:
            order.append("panels painted")
    return real_render_lines(self, crop)

Widget.render_lines = render_lines

def offers_mounted(self):
    order.append("offers mounted")

OfferList.on_mount = offers_mounted

async def main():
    app = app_module.launched(Path(sys.argv[1]))
    async with app.run_test(size=(120, 40)) as pilot:
        while type(app.screen).__name__ != "MainScreen":
            await asyncio.sleep(0.001)
        await app.screen.wait_for_refresh()
        filled = dict(renders)
        await pilot.pause()
        panels = {
            panel.side: {
                "scrollbar": panel.show_vertical_scrollbar,
                "overflows": panel.max_scroll_y > 0,
                "children": len(panel.children),
            }
            for panel in app.screen.query("SidePanelView")
        }
    app.game.close()
    print(json.dumps({"painted": {k: sorted(v) for k, v in painted.items()}, "panels": panels,
                      "order": order, "renders": filled}))

asyncio.run(main())
"""


@pytest.fixture(scope="module")
def fill(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("fill-passes")
    return demo_in_a_child(tmp, CHILD)


def test_each_panel_is_one_widget_painted_at_one_width(fill: dict[str, Any]) -> None:
    # the demo's German panel overflows at 120x40, the American one does not
    assert fill["panels"]["German"]["overflows"] and fill["panels"]["German"]["scrollbar"]
    assert not fill["panels"]["American"]["scrollbar"]
    # no child: the panel draws its text itself (main: a Static in each panel)
    assert [panel["children"] for panel in fill["panels"].values()] == [0, 0], fill["panels"]
    assert fill["painted"] == {"American": [56], "German": [55]}, fill["painted"]


def test_each_panel_text_is_rendered_once_a_width(fill: dict[str, Any]) -> None:
    # Rich renders the American panel's text once, at 56 (its lines measure the panel
    # and are painted), the German one at 56, found overflowing, then at 55, the width
    # it is painted at. main: 3 and 4 (measured, measured again, rendered to be painted).
    assert fill["renders"] == {"American": [56], "German": [56, 55]}, fill["renders"]


def test_the_entries_list_is_not_mounted_in_the_fill(fill: dict[str, Any]) -> None:
    # mounted when the bar or a phase first asks for it (test_tui_fill_layouts.py)
    assert fill["order"] == ["panels painted"], fill["order"]
