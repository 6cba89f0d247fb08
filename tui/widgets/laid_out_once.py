"""A widget whose virtual size is only what the layout that places it gave it.

Textual sets a widget's virtual size in the layout that places it, and a virtual size
is a layout reactive: a new one asks for a layout of the whole screen again and a
repaint of the widget. The first layout of a screen gives every widget its first
virtual size, so every new screen was laid out twice and its widgets painted twice.

For a widget whose content does not scroll (its virtual size is its size), or one that
settles its scrollbar inside the layout itself (the side panels' ``arrange``), the
virtual size is an outcome of that layout and nothing it lays out or draws reads it:
the layout it asks for is the same layout again, and the repaint the same lines (the
layout that resized it marked it to be painted already). That one refresh is left out;
every other one (a scrollbar shown or hidden, new text, a style) goes through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from textual.geometry import Region, Size

if TYPE_CHECKING:
    from textual.widget import Widget

    _Base = Widget
else:
    _Base = object  # a mixin: not a DOM class of its own (no CSS rank of its own)


class LaidOutOnce(_Base):
    """Mixed in before the widget's Textual class (``class Bar(LaidOutOnce, Static)``)."""

    _virtual_size_set = False  # the refresh that follows is the virtual size's own

    def watch_virtual_size(self, size: Size) -> None:
        self._virtual_size_set = True

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if self._virtual_size_set:
            self._virtual_size_set = False
            if layout and not regions and not recompose:
                return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
