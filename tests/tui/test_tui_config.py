"""Themes as data, the config file, the launcher's import weight."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from stockade.themes import load_themes, nation_colour
from stockade.tui.config import check_keymap, load_config, save_theme
from stockade.tui.opening import open_game_path

ROOT = Path(__file__).resolve().parents[2]


def test_packaged_themes_load_with_nation_accents():
    themes, problems = load_themes()
    assert problems == []
    names = {t.name for t in themes}
    assert {"stockade-dark", "stockade-light", "stockade-okabe-ito"} <= names
    okabe = next(t for t in themes if t.name == "stockade-okabe-ito")
    assert nation_colour(okabe, "German") == "#56B4E9"
    assert nation_colour(okabe, "Martian") == okabe.primary


def test_broken_theme_files_are_skipped_with_a_reason(tmp_path):
    (tmp_path / "a.toml").write_text("name = 'x'\nprimary = 'not-a-colour'\n")
    (tmp_path / "b.toml").write_text("name = [unclosed\n")
    (tmp_path / "c.toml").write_text("primary = '#fff'\n")
    (tmp_path / "d.toml").write_text("name = 'fine'\nprimary = '#123456'\n[nations]\nSS = '#000'\n")
    themes, problems = load_themes(tmp_path)
    assert [t.name for t in themes] == ["fine"]
    assert len(problems) == 3
    assert any("a.toml" in p and "not a colour" in p for p in problems)
    assert any("b.toml" in p and "not valid TOML" in p for p in problems)
    assert any("c.toml" in p and "name: required, and missing" in p for p in problems)


def test_broken_config_falls_back_to_defaults(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("theme = \n")
    config, problems = load_config(path)
    assert config.theme == "stockade-dark" and config.keys == {}
    assert problems and "not valid TOML" in problems[0]


def test_config_keys_and_unknown_ids(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        'theme = "stockade-light"\n[keys]\n"stockade.next_phase" = "space"\n"stockade.nope" = "x"\n'
    )
    config, problems = load_config(path)
    assert problems == []
    keys, unknown = check_keymap(config.keys, {"stockade.next_phase"})
    assert keys == {"stockade.next_phase": "space"}
    assert unknown and "stockade.nope" in unknown[0]


def test_save_theme_keeps_the_rest_of_the_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('# mine\ntheme = "stockade-dark"\n[keys]\n"stockade.undo" = "z"\n')
    assert save_theme("stockade-light", path) is None
    config, problems = load_config(path)
    assert config.theme == "stockade-light" and config.keys == {"stockade.undo": "z"}
    assert path.read_text().startswith("# mine\n")


def test_first_run_makes_the_demo_in_the_data_dir(stockade_dirs):
    path, notes = open_game_path(None)
    assert path == stockade_dirs.data / "demo.jsonl" and path.is_file()
    assert notes and not isinstance(notes[0], str) and "demo" in notes[0].worded("^n")
    assert not (ROOT / "tui" / "demo.jsonl").exists()


def test_importing_the_launcher_does_not_import_textual():
    code = "import sys, stockade.tui.launcher; print('textual' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_demo_script_builds_a_game_without_refusal(tmp_path):
    from stockade.core.book.game import Game
    from stockade.tui.demo import build_demo

    path = build_demo(tmp_path / "demo.jsonl")
    game = Game.open(path)
    try:
        assert game.state.prisoner_load("h1") == 5 and game.conflicts == {}
    finally:
        game.close()


def test_config_strict_makes_new_games_strict(tmp_path):
    path = tmp_path / "config.toml"
    assert load_config(path)[0].strict is False
    path.write_text('strict = true\ntheme = "stockade-dark"\n', encoding="utf-8")
    config, problems = load_config(path)
    assert (config.strict, problems) == (True, [])
