"""The headless simulator, the `camp` CLI, the rule table and typed dice."""

from __future__ import annotations

import argparse

import pytest

from stockade.core.camp import cli
from stockade.core.camp.dice import SeededDice, parse_outcome, parse_typed_dice
from stockade.core.camp.errors import CampError
from stockade.core.camp.simulate import format_table, simulate, strategy_named
from stockade.core.camp.table import HOUSE_RULES_PATH, load_table


def parse(argv):
    parser = argparse.ArgumentParser(prog="stockade")
    cli.register(parser.add_subparsers())
    return parser.parse_args(argv)


# ------------------------------------------------------------------ simulation
def test_ten_thousand_games_two_seeds_agree_within_one_point():
    a = simulate(10_000, "gather-to-3", seed=1)
    b = simulate(10_000, "gather-to-3", seed=2)
    for ending in ("escaped", "liberated", "dead"):
        assert abs(a.rate(ending) - b.rate(ending)) < 1.0, ending
    assert a.escaped + a.liberated + a.died == 10_000


def test_strategies_shape_the_outcomes():
    loiter = simulate(1500, "loiter", seed=3)
    malinger = simulate(1500, "malinger", seed=3)
    escaper = simulate(1500, "gather-escape", seed=3)
    assert loiter.escaped == malinger.escaped == 0  # they never gather kit
    assert malinger.rate("dead") < loiter.rate("dead")  # malingering mends Health
    assert escaper.rate("escaped") > 25
    assert escaper.mean_months < loiter.mean_months


def test_same_seed_same_numbers():
    assert simulate(300, "gather-to-4", seed="x") == simulate(300, "gather-to-4", seed="x")


def test_unknown_strategy_is_named():
    with pytest.raises(CampError, match="unknown strategy 'bold'"):
        strategy_named("bold")
    with pytest.raises(CampError):
        strategy_named("gather-to-0")


def test_outcome_table_format():
    text = format_table([simulate(200, "loiter", seed=1)])
    header, row = text.splitlines()
    assert header.split() == ["strategy", "games", "escaped", "liberated", "died", "months"]
    assert row.startswith("loiter") and "200" in row


# ------------------------------------------------------------------ CLI
def test_cli_simulate_prints_the_outcome_table(capsys):
    args = parse(["camp", "--simulate", "200", "--strategy", "gather-to-2", "--seed", "9"])
    assert args.func(args, None) == 0
    out, err = capsys.readouterr()
    assert "gather-to-2" in out and "escaped" in out and "seed 9" in out
    assert err == ""  # no progress bar when stderr is not a terminal


def test_cli_simulate_all_standard_strategies(capsys):
    args = parse(["camp", "--simulate", "50"])
    assert args.func(args, None) == 0
    out = capsys.readouterr().out
    for name in ("loiter", "malinger", "gather-escape", "gather-to-3", "gather-to-5"):
        assert name in out


def test_cli_errors_are_one_line(capsys):
    args = parse(["camp", "--simulate", "10", "--strategy", "nope"])
    assert args.func(args, None) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("stockade camp: unknown strategy")
    args = parse(["camp", "--simulate", "0"])
    assert args.func(args, None) == 1
    args = parse(["camp", "--simulate", "10", "--rules", "source"])
    assert args.func(args, None) == 1
    assert "need a player" in capsys.readouterr().err


def test_cli_without_ui_says_so(capsys):
    args = parse(["camp", "game.jsonl"])
    assert args.func(args, None) == 2
    assert "no terminal UI" in capsys.readouterr().err


def test_cli_passes_path_and_options_to_the_ui(tmp_path):
    seen = {}

    class FakeUI:
        def open_camp(self, path, options):
            seen.update(path=path, options=options)
            return 0

    args = parse(["camp", str(tmp_path / "c.jsonl"), "--dice", "physical", "--month-die", "2d6"])
    assert args.func(args, FakeUI()) == 0
    assert seen == {
        "path": tmp_path / "c.jsonl",
        "options": {"dice": "physical", "month_die": "2d6"},
    }


# ------------------------------------------------------------------ table and dice
def test_house_table_is_labelled_and_complete():
    table = load_table()
    assert table.meta.label == "HOUSE RULE"
    assert "HOUSE RULE" in HOUSE_RULES_PATH.read_text()
    assert set(table.actions) == {"loiter", "malinger", "gather"}


def test_a_table_with_a_hole_is_refused(tmp_path):
    bad = tmp_path / "rules.toml"
    bad.write_text(HOUSE_RULES_PATH.read_text().replace('faces = "2-5"', 'faces = "2-4"'))
    with pytest.raises(CampError, match="loiter rows must cover faces 1-6 exactly once"):
        load_table(bad)
    bad.write_text("[meta\n")
    with pytest.raises(CampError, match="not valid TOML"):
        load_table(bad)


def test_typed_dice_are_validated():
    assert parse_typed_dice("3 11", (6, 12)) == (3, 11)
    assert parse_typed_dice("361", (6, 6, 6)) == (3, 6, 1)
    with pytest.raises(CampError, match="d6 shows 1 to 6, not 7"):
        parse_typed_dice("7", (6,))
    with pytest.raises(CampError, match="d3 shows 1 to 3, not 0"):
        parse_typed_dice("0", (3,))
    with pytest.raises(CampError, match="2 number"):
        parse_typed_dice("3", (6, 12))
    with pytest.raises(CampError, match="not a number"):
        parse_typed_dice("x", (6,))
    assert parse_outcome("-1 +2") == (-1, 2)
    with pytest.raises(CampError):
        parse_outcome("-1")


def test_seeded_dice_depend_on_seed_and_position_only():
    dice = SeededDice("s")
    assert dice.roll((6, 12), 5) == SeededDice("s").roll((6, 12), 5)
    rolls = {dice.roll((6,) * 4, n) for n in range(20)}
    assert len(rolls) > 10
