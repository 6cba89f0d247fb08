"""Look-alike and invisible characters are refused in what is written now (issue 24):
a Cyrillic 'а1' beside 'a1', a full-width handle, a zero-width space or a tag
character in a name. A log written before still reads as it did."""

from __future__ import annotations

import pytest

from stockade.core.book.game import Game
from stockade.core.log.game_log import load
from stockade.core.model import events as ev
from stockade.core.model.errors import Refusal


def sides() -> list[ev.SideSpec]:
    return [ev.SideSpec("American", "American", 4), ev.SideSpec("German", "German", 3)]


def unit(handle: str, location: str = "Q4") -> ev.UnitEntered:
    return ev.UnitEntered(
        handle=handle, side="American", unit_kind="squad", counter="6-6-7", location=location
    )


@pytest.mark.parametrize(
    ("handle", "said"),
    [
        ("\u0430" + "1", "U+0430 CYRILLIC SMALL LETTER A"),
        ("\uff41" + "2", "(write it 'a2')"),
        ("a\u200b3", "a handle is one word"),  # refused before too
        ("\u0391" + "4", "U+0391 GREEK CAPITAL LETTER ALPHA"),
    ],
)
def test_a_look_alike_handle_is_refused_with_the_character_named(handle, said):
    game = Game.in_memory("T", sides())
    game.submit([unit("a1")])
    with pytest.raises(Refusal) as refused:
        game.submit([unit(handle)])
    assert said in str(refused.value)
    assert [u for u in game.state.units] == ["a1"]  # nothing else recorded


@pytest.mark.parametrize(
    "hidden", ["\u200b", "\u200d", "\u2060", "\ufeff", "\U000e0041", "\u00ad", "\ufe0f"]
)
def test_an_invisible_character_in_a_name_is_refused(hidden):
    game = Game.in_memory("T", sides())
    with pytest.raises(Refusal, match="invisible character"):
        game.submit([unit("a1", location=f"Q{hidden}4")])
    with pytest.raises(Refusal, match="invisible character"):
        Game.in_memory(f"The Orchard{hidden}", sides())


def test_plain_unicode_names_are_still_welcome():
    game = Game.in_memory("Sturm auf Bréville: Straße 7", sides())
    game.submit([unit("a1", location="Żabiniec")])
    assert game.state.units["a1"].location == "Żabiniec"


def test_a_log_written_before_with_such_a_handle_still_reads(tmp_path):
    game = Game.in_memory("T", sides())
    game.submit([unit("a1")])
    lines = [ev.encode(r) for r in game.records]
    lines.append(
        ev.encode(
            ev.UnitEntered(
                handle="\u0430" + "1",
                side="American",
                unit_kind="squad",
                counter="6-6-7",
                location="Q4",
                seq=3,
                grp=3,
                v=1,
            )
        )
    )
    path = tmp_path / "old.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    loaded = load(path)
    assert loaded.problem is None and len(loaded.records) == 3
