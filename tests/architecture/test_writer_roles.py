"""The writer's roles each live in a module of their own (core/book): writing records
in ``writer``, undo and redo in ``undoing``, strikes in ``striking``, following another
writer in ``absorbing``, amendments in ``amending``, recovery in ``write_recovery``."""

from __future__ import annotations

import pytest

from stockade.core.book.writer import Writer

ROLES = {
    "submit": "writer",
    "one_write": "writer",
    "undo": "undoing",
    "undo_to": "undoing",
    "preview_undo_to": "undoing",
    "redo": "undoing",
    "strike": "striking",
    "unstrike": "striking",
    "preview_strike": "striking",
    "preview_unstrike": "striking",
    "struck_together": "striking",
    "absorb": "absorbing",
    "amend": "amending",
    "recover": "write_recovery",
}


@pytest.mark.parametrize("method", sorted(ROLES))
def test_each_write_is_defined_in_its_roles_module(method: str) -> None:
    owner = next(cls for cls in Writer.__mro__ if method in vars(cls))
    defined = owner.__module__
    assert defined == f"stockade.core.book.{ROLES[method]}", method
