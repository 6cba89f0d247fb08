"""The camp's one exception: a sentence for the player, never a traceback."""

from __future__ import annotations


class CampError(Exception):
    """Something the camp cannot accept: a bad roll, a move out of turn, a bad log."""
