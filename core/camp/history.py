"""Undo and redo in a campaign log: the shared ``core.log.timeline`` with the camp's rules.

Nothing is ever deleted from a log. An ``Undo`` takes the latest group in effect out,
a ``Redo`` puts back the group most recently undone, and any new input forgets what
could have been redone. The camp's own rules: the header's group (the header and the
set-up rolls made with it) is never undone, the header itself is not in the timeline
(its group starts empty), every group is written one after the other (a record joins
only the latest group in effect), and a refusal is a ``CampError``.
"""

from __future__ import annotations

from array import array

from stockade.core.camp.errors import CampError
from stockade.core.camp.events import Record, Redo, Undo
from stockade.core.log.timeline import HEADER_GROUP, Controls, Timeline
from stockade.core.model.seq_tables import Groups

__all__ = ["HEADER_GROUP", "CONTROLS", "new_timeline"]


class TimelineRefused(CampError):
    """An undo, redo or group the campaign's timeline cannot take."""

    def __init__(self, verb: str, text: str):
        super().__init__(text)
        self.verb = verb


CONTROLS = Controls(
    actions={Undo: "undo", Redo: "redo"},
    error=TimelineRefused,
    refused=TimelineRefused,
    check_groups=True,
)


def new_timeline() -> Timeline[Record]:
    """A campaign's timeline before any record after the header."""
    return Timeline(CONTROLS, groups=Groups({HEADER_GROUP: []}), active=array("q", [HEADER_GROUP]))
