"""Many SVG snapshots from one app run (not a test module itself: no test functions).

pytest-textual-snapshot's ``snap_compare`` starts an app for each screen it compares.
``Screens`` takes each screen from an app already running and makes the same
comparison: the SVG Textual's ``take_svg_screenshot`` exports (the app's title,
simplified), normalised by the plugin's ``SVGImageExtension``, equal to the stored file.
The stored files are syrupy's, named ``<test>[<name>].svg`` (the test's name without
its parameters: a test parametrized by runs of screens stores each screen under its own
name), so ``--snapshot-update`` writes them as before, and a mismatch goes into the
plugin's HTML report as well.
``check()`` fails naming every screen that differs, with the text rows that changed.
``as_snap_compare_takes_it`` waits as ``snap_compare`` does before it exports a screen;
``back_to_the_main_screen`` closes what is open between two screens.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import html
import inspect
import pickle
import re
from pathlib import Path

from pytest_textual_snapshot import (  # type: ignore[import-untyped]
    PseudoApp,
    PseudoConsole,
    SVGImageExtension,
    node_to_report_path,
)
from rich.console import Console

_ROW = re.compile(
    r'<text [^>]*x="([0-9.]+)"[^>]*clip-path="url\(#terminal(?:-\d+)?-line-(\d+)\)">(.*?)</text>'
)
CELL = 12.2  # the width of one cell in the SVG Rich exports; the first is at x = CELL


def rows(svg: str) -> list[str]:
    """The screen's text, one string per terminal row, each piece at its column."""
    lines: dict[int, str] = {}
    for x, number, text in _ROW.findall(svg):
        row, column = int(number), round(float(x) / CELL) - 1
        line = lines.get(row, "")
        lines[row] = line.ljust(column) + html.unescape(text).replace("\xa0", " ")
    return [lines.get(n, "").rstrip() for n in range(max(lines, default=-1) + 1)]


class Screens:
    """The screens of one test, each compared with its stored SVG as it is taken."""

    def __init__(self, snapshot, request) -> None:
        location = copy.copy(snapshot.test_location)
        location.testname = request.node.originalname
        self.snapshot = dataclasses.replace(
            snapshot, extension_class=SVGImageExtension, test_location=location
        )
        self.request = request
        self.differ: dict[str, str] = {}  # name -> what differs, readable
        self.taken: list[str] = []

    def take(self, app, name: str) -> None:
        """Export the app's screen now and compare it with ``<test>[name].svg``."""
        svg = app.export_screenshot(title=app.title, simplify=True)
        same = self.snapshot(name=name) == svg
        result = list(self.snapshot.executions.values())[-1]
        stored = result.recalled_data
        self.taken.append(name)
        if not same:
            self.differ[name] = self._said(str(stored) if stored is not None else None, svg)
        self._report(name, same, stored, svg)

    def check(self) -> None:
        assert self.taken, "no screen was taken"
        assert not self.differ, "screens differ from their stored SVG:\n" + "\n".join(
            f"--- {name}:\n{said}" for name, said in self.differ.items()
        )

    @staticmethod
    def _said(stored: str | None, svg: str) -> str:
        if stored is None:
            return "  no stored SVG (run with --snapshot-update to write it)"
        diff = list(difflib.unified_diff(rows(stored), rows(svg), "stored", "now", n=1))
        if not diff:
            return "  the same text; colours or styles differ (see the HTML report)"
        return "\n".join(line.rstrip("\n") for line in diff)

    def _report(self, name: str, same: bool, stored, svg: str) -> None:
        """What ``snap_compare`` leaves for the plugin's HTML report, one file per screen."""
        node = self.request.node
        console = Console(legacy_windows=False, force_terminal=True)
        full_path, line_number, test_name = node.reportinfo()
        data = (
            same,
            str(stored) if stored is not None else "",
            svg,
            PseudoApp(PseudoConsole(console.legacy_windows, console.size)),
            full_path,
            line_number,
            f"{test_name}[{name}]",
            inspect.getdoc(node.function) or "",
            "",
            stored is not None,
        )
        path = node_to_report_path(node)
        Path(f"{path}_{name}").write_bytes(pickle.dumps(data))


async def as_snap_compare_takes_it(pilot) -> None:
    """What ``take_svg_screenshot`` waits for before it exports the screen."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()


async def back_to_the_main_screen(pilot) -> None:
    from stockade.tui.screens.main import MainScreen

    for _ in range(5):
        if isinstance(pilot.app.screen, MainScreen):
            return
        await pilot.press("escape")
        await pilot.pause()
    raise AssertionError(f"escape did not close {pilot.app.screen!r}")
