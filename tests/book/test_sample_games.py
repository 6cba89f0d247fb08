"""The sample games: each script, run onto a new game, reproduces its stored log and the
tally worked out by hand (sample_games/README.md); the logs survive damage as promised.

The expected figures live in ``sample_games/NAME.expected.json`` and were written from
the rules and the article, with the arithmetic in each script's header comments; they
were never copied from the program's output.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from stockade.sample_games import catalog

# One worker runs this module's tests (pyproject.toml: --dist loadgroup), so the sample games
# are built once.
pytestmark = pytest.mark.xdist_group("test_sample_games")

NAMES = catalog.names()
EXAMPLES = ("ex05", "ex09", "ex10", "ex11", "ex13", "ex15", "ex16", "ex17", "ex19", "a20_55")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """Every game's script run onto a new game, once per test module."""
    out = tmp_path_factory.mktemp("games")
    games = {}
    for name in NAMES:
        games[name] = out / f"{name}.jsonl"
        catalog.build(name, games[name])
    return games


def _state(path: Path):
    return catalog.open_state(path)


# ----------------------------------------------------------------- the catalogue
def test_every_worked_example_and_a_whole_game_are_there():
    for prefix in EXAMPLES:
        assert any(n.startswith(prefix) for n in NAMES), f"no sample game for {prefix}"
    assert any(n.startswith("scenario_") for n in NAMES)
    assert "demo" in NAMES
    assert len(NAMES) >= 10


@pytest.mark.parametrize("name", NAMES)
def test_each_game_has_its_files_and_header(name):
    script = catalog.script_path(name).read_text(encoding="utf-8").splitlines()
    assert script[0].startswith("#"), "the script opens with comments"
    opening = []
    for line in script:
        if not line.startswith("#"):
            break
        opening.append(line)
    text = "\n".join(opening)
    assert "# new:" in text
    assert "CVP" in text, "the opening comments give the CVP worked out by hand"
    assert catalog.log_path(name).exists(), "run sample_games/regenerate.py"
    assert set(catalog.expected(name)["sides"]) == {s[0] for s in catalog.header(name)[1]}


def test_readme_lists_every_game():
    readme = (catalog.HERE / "README.md").read_text(encoding="utf-8")
    for name in NAMES:
        assert f"`{name}`" in readme, f"{name} missing from sample_games/README.md"


# ------------------------------------------------------ script == stored log
@pytest.mark.parametrize("name", NAMES)
def test_script_reproduces_the_stored_log(name, built):
    assert catalog.canonical(_state(built[name])) == catalog.canonical(
        _state(catalog.log_path(name))
    )
    assert catalog.records_without_at(built[name]) == catalog.records_without_at(
        catalog.log_path(name)
    )


@pytest.mark.parametrize("name", NAMES)
def test_stored_log_is_sound(name):
    """Every stored record folds without a conflict and the log loads without warning."""
    from stockade.core.book.game import Game

    game = Game.open(catalog.log_path(name), read_only=True)
    try:
        assert not game.warnings
        assert game.problem is None
        assert not game.conflicts
    finally:
        game.close()


# ------------------------------------------------------------------- the tally
@pytest.mark.parametrize("name", NAMES)
def test_tally_gives_the_hand_counted_cvp(name, built):
    expected = catalog.expected(name)
    got = catalog.tally_json(built[name])
    for side, want in expected["sides"].items():
        have = got["sides"][side]
        assert (have["cvp"], have["cvp_if_ended"]) == (want["cvp"], want["cvp_if_ended"]), side
        # every point is explained line by line
        assert sum(line["points"] for line in have["lines"]) == have["cvp_if_ended"]
    for side, turns in expected.get("by_turn", {}).items():
        assert got["sides"][side]["by_turn"] == turns, side
    assert got["ended"] == expected["ended"]


VERDICT_GAMES = [name for name in NAMES if "verdict" in catalog.expected(name)]


def test_a_sample_game_has_victory_conditions():
    assert VERDICT_GAMES


@pytest.mark.parametrize("name", VERDICT_GAMES)
@pytest.mark.parametrize("source", ["built", "stored"])
def test_the_verdict_in_tally_json_is_the_hand_judged_one(name, source, built):
    want = catalog.expected(name)["verdict"]
    path = built[name] if source == "built" else catalog.log_path(name)
    got = catalog.tally_json(path)["verdict"]
    for key in ("result", "winner", "ended", "immediate", "because", "exit_vp", "control"):
        assert got[key] == want[key], key
    assert len(got["clauses"]) == len(want["clauses"])
    for have, clause in zip(got["clauses"], want["clauses"], strict=True):
        assert (have["winner"], have["when"], have["met"]) == (
            clause["winner"],
            clause["when"],
            clause["met"],
        )
        assert [[t["value"] for t in group] for group in have["any_of"]] == clause["values"]


@pytest.mark.parametrize("name", NAMES)
def test_stored_log_tallies_the_same(name):
    expected = catalog.expected(name)
    got = catalog.tally_json(catalog.log_path(name))
    for side, want in expected["sides"].items():
        assert got["sides"][side]["cvp"] == want["cvp"]
        assert got["sides"][side]["cvp_if_ended"] == want["cvp_if_ended"]


# ------------------------------------------------------------- the state facts
@pytest.mark.parametrize("name", NAMES)
def test_state_facts(name, built):
    expected = catalog.expected(name)
    state = _state(built[name])
    assert state.ended == expected["ended"]
    for handle, facts in expected.get("units", {}).items():
        assert handle in state.units, handle
        unit = state.units[handle]
        for field, value in facts.items():
            assert getattr(unit, field) == value, f"{handle}.{field}"
    for side, facts in expected.get("side_state", {}).items():
        for field, value in facts.items():
            assert getattr(state.sides[side], field) == value, f"{side}.{field}"
    for guard, load in expected.get("prisoner_load", {}).items():
        assert state.prisoner_load(guard) == load, guard
    for field, value in expected.get("clock", {}).items():
        assert getattr(state, field) == value, field


def test_no_guard_holds_more_than_its_capacity(built):
    for name, path in built.items():
        state = _state(path)
        for guard in state.guards():
            assert state.prisoner_load(guard.handle) <= 5 * guard.us, (name, guard.handle)


# --------------------------------------------- refusals and acceptances in play
MARKERS = [(name, m) for name in NAMES for m in catalog.markers(name)]


@pytest.mark.parametrize("name,marker", MARKERS, ids=[f"{n}:{m.line}" for n, m in MARKERS])
def test_marker(name, marker, tmp_path):
    """``#! refuse RULE: CMD``: refused naming RULE, log untouched; ``#! accept``: allowed."""
    path = tmp_path / f"{name}.jsonl"
    catalog.build(name, path, marker.before)
    before = path.read_bytes()
    if marker.kind == "refuse":
        code, _out, err = catalog.cli("do", str(path), marker.command)
        assert code != 0, f"{marker.command!r} was accepted"
        assert marker.rule in err, err
        assert "Traceback" not in err
    else:
        from stockade.core.book.game import Game
        from stockade.core.commands.parser import plan
        from stockade.core.model.errors import Refusal

        game = Game.open(path, read_only=True)
        try:
            parsed = plan(marker.command, game.state)
            if marker.kind == "refuse":
                with pytest.raises(Refusal) as caught:
                    game.check(parsed.events)
                assert caught.value.rule == marker.rule, str(caught.value)
            else:
                game.check(parsed.events)
        finally:
            game.close()
    assert path.read_bytes() == before


# ------------------------------------------------------------------ determinism
def test_regenerate_is_deterministic_and_matches_the_stored_logs(tmp_path):
    from stockade.sample_games.regenerate import regenerate

    first = regenerate(out=tmp_path / "a")
    second = regenerate(out=tmp_path / "b")
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes()
        stored = catalog.HERE / a.name
        assert a.read_bytes() == stored.read_bytes(), f"{a.name}: run sample_games/regenerate.py"


# ------------------------------------------------- damaged logs (the CLI promises)
def test_history_of_a_log_with_a_torn_last_line_loads_with_a_warning(tmp_path):
    path = tmp_path / "torn.jsonl"
    shutil.copy(catalog.log_path("scenario_tractor_works"), path)
    data = path.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    n_lines = data.count(b"\n")
    path.write_bytes(data[: last_start + 25])  # half the last line, no newline
    code, out, err = catalog.cli("history", str(path))
    assert code == 0, err
    assert "Traceback" not in out + err
    assert f"warning: line {n_lines}: unfinished last entry" in err, err
    assert f"\n   {n_lines - 1}   " in out and f"\n   {n_lines}   " not in out, out


def test_check_of_a_log_with_a_corrupt_middle_line_names_it_and_touches_nothing(tmp_path):
    path = tmp_path / "corrupt.jsonl"
    shutil.copy(catalog.log_path("scenario_tractor_works"), path)
    lines = path.read_bytes().splitlines(keepends=True)
    middle = len(lines) // 2
    lines[middle] = b'{"kind":"surrender","units":["r1"' + b"\n"  # cut short: not JSON
    path.write_bytes(b"".join(lines))
    before = path.read_bytes()
    code, out, err = catalog.cli("check", str(path))
    assert code != 0
    assert f"line {middle + 1}" in out + err
    assert "Traceback" not in out + err
    assert path.read_bytes() == before
    assert not list(tmp_path.glob("corrupt.jsonl.*"))  # nothing set aside either


def test_check_of_a_sound_sample_log_exits_zero():
    code, out, err = catalog.cli("check", str(catalog.log_path("demo")))
    assert code == 0, out + err


# ------------------------------------------- where the sources disagree
def test_example19_rph_scrounge_is_rolled_in_the_mph_per_a20_552(tmp_path):
    """Example 19 rolls the wreck Scrounge in the RPh; A20.552 (seed 004, which wins)
    says the end of the MPh. docs/rulings.md records the choice: typed in the RPh, the
    entry moves the clock on to the MPh and says so, citing A20.552; once the MPh is
    behind, it is refused, citing it."""
    lines = catalog.script_path("ex19_scrounge_wreck").read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if line.startswith("phase MPh"))
    path = tmp_path / "ex19_rph.jsonl"
    catalog.build("ex19_scrounge_wreck", path, lines[:cut] + ["phase RPh 1 German"])
    code, out, err = catalog.cli("do", str(path), "scrounge g1 2 wreck")
    assert code == 0, err
    assert "RPh -> MPh" in out and "A20.552" in out
    late = tmp_path / "ex19_dfph.jsonl"
    catalog.build("ex19_scrounge_wreck", late, lines[:cut] + ["phase DFPh 1 German"])
    before = late.read_bytes()
    code, _out, err = catalog.cli("do", str(late), "scrounge g1 2 wreck")
    assert code != 0
    assert "A20.552" in err
    assert late.read_bytes() == before


def test_reducing_an_abandoned_hs_by_its_abandoner_is_a_massacre(tmp_path):
    lines = catalog.script_path("ex19_scrounge_wreck").read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if line.startswith("move a1 Y2"))
    path = tmp_path / "cr.jsonl"
    catalog.build(
        "ex19_scrounge_wreck",
        path,
        lines[: cut + 1] + ["phase DFPh 1 German", "reduce g1 by American"],
    )
    state = _state(path)
    assert state.units["g1"].status == "eliminated"
    assert state.sides["American"].massacred
    assert state.sides["German"].elr == 4
