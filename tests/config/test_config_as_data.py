"""config.toml and theme files are checked against msgspec Structs (issue 9): a bad
setting is named with its file, line, key and value; the app falls back and says so.
This also covers issue 13's "bad config" item."""

from __future__ import annotations

from stockade.core.config import tomlstruct
from stockade.themes import ThemeFile, load_themes
from stockade.tui.app import StockadeApp
from stockade.tui.config import ConfigFile, load_config
from tests.tui.support import new_game, sync


def _config(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path, *load_config(path)


def test_the_structs_forbid_unknown_fields():
    for schema in (ConfigFile, ThemeFile):
        assert schema.__struct_config__.forbid_unknown_fields


def test_malformed_config_uses_the_defaults_and_says_where(tmp_path):
    path, config, problems = _config(tmp_path, 'theme = "stockade-light"\n[keys\n')
    assert config.theme == "stockade-dark" and config.keys == {}
    assert len(problems) == 1
    assert str(path) in problems[0] and "not valid TOML" in problems[0]
    assert "line 2" in problems[0] and "using the defaults" in problems[0]


def test_a_wrong_type_is_named_with_line_key_and_value(tmp_path):
    text = 'theme = 7\n[keys]\n"stockade.undo" = "z"\n"stockade.redo" = 3\n'
    path, config, problems = _config(tmp_path, text)
    assert config.theme == "stockade-dark"  # its default
    assert config.keys == {"stockade.undo": "z"}  # the good entry is kept
    assert problems == [
        f"{path}, line 1: theme = 7: expected `str`, got `int`; using 'stockade-dark'",
        f'{path}, line 4: keys."stockade.redo" = 3: expected `str | array`, got `int`; ignored',
    ]


def test_an_unknown_key_is_named_and_the_rest_kept(tmp_path):
    text = '# mine\ntheme = "stockade-light"\nthem = "stockade-dark"\n'
    path, config, problems = _config(tmp_path, text)
    assert config.theme == "stockade-light"
    assert problems == [f"{path}, line 3: them = 'stockade-dark': unknown setting; ignored"]


def test_an_unknown_table_is_named(tmp_path):
    path, config, problems = _config(tmp_path, '[colours]\nprimary = "#fff"\n')
    assert problems == [
        f"{path}, line 1: colours = {{'primary': '#fff'}}: unknown setting; ignored"
    ]


def test_a_blank_theme_or_key_falls_back(tmp_path):
    path, config, problems = _config(tmp_path, 'theme = "  "\n[keys]\n"stockade.undo" = ""\n')
    assert config.theme == "stockade-dark" and config.keys == {}
    assert len(problems) == 2 and "a theme name is needed" in problems[0]
    assert 'keys."stockade.undo"' in problems[1] and "no key given" in problems[1]


def test_bad_theme_files_name_line_key_and_value_and_are_skipped(tmp_path):
    (tmp_path / "typo.toml").write_text(
        'name = "typo"\nprimary = "#123456"\nsecondry = "#abcdef"\n', encoding="utf-8"
    )
    (tmp_path / "types.toml").write_text(
        'name = "types"\nprimary = "#123456"\ndark = "yes"\n[nations]\nGerman = "mud"\n',
        encoding="utf-8",
    )
    (tmp_path / "good.toml").write_text('name = "good"\nprimary = "#123456"\n')
    themes, problems = load_themes(tmp_path)
    assert [t.name for t in themes] == ["good"]
    assert sorted(problems) == [
        "theme types.toml, line 3: dark = 'yes': expected `bool`, got `str`; using True; "
        "theme types.toml, line 5: nations.German = 'mud' is not a colour; skipped",
        "theme typo.toml, line 3: secondry = '#abcdef': unknown setting; ignored; skipped",
    ]


def test_line_of_finds_keys_in_their_table():
    text = 'a = 1\n[t]\n"x.y" = 2\n[u]\nx = 3\n'
    assert tomlstruct.line_of(text, "a") == 1
    assert tomlstruct.line_of(text, "x.y", table="t") == 3
    assert tomlstruct.line_of(text, "x", table="u") == 5
    assert tomlstruct.line_of(text, "nope") is None


@sync
async def test_the_app_falls_back_and_says_so(tmp_path):
    config = tmp_path / "config"
    (config / "themes").mkdir(parents=True)
    (config / "config.toml").write_text('theme = "mine"\nfont = "big"\n', encoding="utf-8")
    (config / "themes" / "mine.toml").write_text('name = "mine"\nprimary = 5\n')
    game = new_game(tmp_path, "Cfg", [("German", "German", 3), ("American", "American", 4)])
    app = StockadeApp(game, remember=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "stockade-dark"
        said = [n.message for n in app._notifications]
        assert any("line 2: font = 'big': unknown setting; ignored" in m for m in said), said
        assert any("mine.toml, line 2: primary = 5" in m and "skipped" in m for m in said)
        assert any("no theme 'mine'" in m and "stockade-dark" in m for m in said)
    game.close()
