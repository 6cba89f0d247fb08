"""A headless command loads the code of its own subcommand and nothing else: the CLI's
table (core/cli/arguments.py ``SUBCOMMANDS``) names the group that makes each
subcommand, and a command line builds the parser of the one it names. What is counted
here is which modules a process imported, never how long it took (bench/cli_startup.py
measures that)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from stockade.core.cli import arguments, main
from stockade.core.cli.arguments import SUBCOMMANDS, build_parser, groups_for, subcommand_names

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_games" / "demo.jsonl"

# Runs ``stockade ARGV`` as the console script does and prints the modules it imported.
# (json only after the command: whether the command itself loads it is counted)
CHILD = (
    "import io, sys, contextlib\n"
    "from stockade.tui.launcher import main\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    code = main(sys.argv[1:])\n"
    "modules = sorted(sys.modules)\n"
    "import json\n"
    "print(json.dumps({'code': code, 'modules': modules}))\n"
)


def imported_by(*argv: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *argv], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    reply = json.loads(done.stdout)
    assert reply["code"] == 0, done.stderr
    return set(reply["modules"])


GROUP_MODULES = {
    "stockade.core.cli.game_commands",
    "stockade.core.cli.read_commands",
    "stockade.core.cli.log_commands",
    "stockade.core.cli.table_commands",
    "stockade.core.cli.rules_command",
    "stockade.core.camp.cli",
}


def test_tally_imports_its_own_subcommand_and_nothing_it_does_not_use():
    modules = imported_by("tally", str(DEMO))
    # folded by its own command (core/cli/folded_tally.py), without the command line
    # proper: no group of subcommands, its own included (tests/cli/test_folding_tally.py)
    assert "stockade.core.cli.folded_tally" in modules
    assert not modules & GROUP_MODULES, sorted(modules & GROUP_MODULES)
    # the command language, the history's sentences, the installed metadata (--version)
    for unused in ("stockade.core.commands", "stockade.core.book.describe", "importlib.metadata"):
        assert unused not in modules, unused
    assert not any(m == "textual" or m.startswith("textual.") for m in modules)


# What a folding tally has no use for: the threading module (the fold's locks are
# ``_thread``'s own, which threading only names), the ``--json`` envelope when no
# ``--json`` is asked, unicodedata (a refusal's words), bisect (a replay's), the upgrade
# of a record of an older schema (a log of today's has none), the snapshot cache and
# its unit rows (a game shorter than ``snap_sizes.MIN_EVENTS`` has no snapshot), the
# hash chain (an append's) and, with the store off, the json that reads and writes entries.
NOT_FOR_A_FOLD = {
    "threading",
    "stockade.core.log.chain",
    "stockade.core.log.snapcache",
    "stockade.core.log.snap_units",
    "stockade.core.cli.jsonout",
    "unicodedata",
    "bisect",
    "stockade.core.log.upgrade",
}
JSON = {"json", "json.decoder", "json.encoder", "json.scanner", "_json"}
# The stockade modules a folding tally imports: the fold's model, rules, log and book,
# and tally's own CLI modules (the launcher, tally_args, tally_report, ...). A new one
# here is a new cost on every tally that folds: docs/performance.md, "What a fold spends".
# (78: a short log's record decoder of the kinds it holds, ``core.model.record_decoder``:
# one module more, and msgspec reads the annotations of those kinds' classes, not all 32;
# 77: the width rows are laid out in, ``core.cli.width``, and the layout of a row,
# ``core.model.columns``, ~0.2 ms of imports, for a tally that fits the terminal;
# 77: the compact tables by seq, ``core.model.seq_tables``, ~130 bytes a unit less held;
# 78: the snapshot's unit rows, ``core.log.snap_units``, split out of ``snapcache``;
# 77: the snapshot cache and its rows load for a game long enough to have a snapshot,
# ``core.log.snap_sizes`` says how long; 75: the hash chain, and the plurals it words its
# findings with, load with an append or a check.)
FOLD_MODULES = 78


def test_a_folding_tally_imports_only_what_the_fold_needs(cache_off):
    modules = imported_by("tally", str(DEMO))
    assert "stockade.core.book.game_parts" in modules  # it folded
    assert not (NOT_FOR_A_FOLD | JSON) & modules, sorted((NOT_FOR_A_FOLD | JSON) & modules)
    ours = sorted(m for m in modules if m.startswith("stockade"))
    assert len(ours) <= FOLD_MODULES, ours


def test_a_tally_that_misses_the_store_folds_without_what_the_fold_does_not_use():
    modules = imported_by("tally", str(DEMO))  # a fresh store: a miss, it folds and keeps
    assert "stockade.core.book.game_parts" in modules and "json" in modules
    assert not NOT_FOR_A_FOLD & modules, sorted(NOT_FOR_A_FOLD & modules)
    # --json: the envelope, and json, load when asked for
    assert "stockade.core.cli.jsonout" in imported_by("tally", str(DEMO), "--json")


def test_a_kept_tally_imports_neither_msgspec_nor_the_model_nor_the_command_line():
    imported_by("tally", str(DEMO))  # folds, and keeps what it printed
    modules = imported_by("tally", str(DEMO))  # the same bytes, the same code: kept
    heavy = ("msgspec", "stockade.core.rules", "stockade.core.cli.entry")
    assert not [m for m in modules if m.startswith(heavy)]
    # of the model, only the escaping of what is printed (core/model/visible.py) and
    # the layout of its rows (core/model/columns.py)
    assert {m for m in modules if m.startswith("stockade.core.model")} <= {
        "stockade.core.model",
        "stockade.core.model.visible",
        "stockade.core.model.columns",
    }
    # of the book, only the tally's data and renderers (core/book/tally_sheet.py)
    assert {m for m in modules if m.startswith("stockade.core.book.")} == {
        "stockade.core.book.tally_sheet"
    }
    assert "stockade.core.cli.stored_tally" in modules
    # tally's own declarations (core/cli/tally_args.py) are read without argparse (nor
    # its gettext and locale); the HTML writer's entities only when it writes; not
    # typing, nor the OpenSSL that hashlib loads (the venv's site may import pathlib and
    # re for an editable install, so those are not counted here)
    assert "stockade.core.cli.tally_args" in modules
    taken_off = {"argparse", "gettext", "locale", "html", "html.entities"}
    assert not taken_off & modules, sorted(taken_off & modules)
    assert not {"hashlib", "_hashlib", "platformdirs", "typing", "dataclasses"} & modules


def test_version_imports_no_subcommand_and_no_log_code():
    modules = imported_by("--version")
    assert not modules & GROUP_MODULES, sorted(modules & GROUP_MODULES)
    assert "stockade.core.book.game" not in modules and "msgspec" not in modules


def test_the_table_names_every_subcommand_and_each_group_makes_its_own():
    made_by = {}
    for group in dict.fromkeys(SUBCOMMANDS.values()):
        sub = argparse.ArgumentParser().add_subparsers()
        group(sub)
        for name in sub.choices:
            made_by[name] = group
    assert made_by == SUBCOMMANDS
    assert subcommand_names(build_parser()) == set(SUBCOMMANDS)


@pytest.mark.parametrize(
    ("argv", "groups"),
    [
        (["tally", "g.jsonl", "--json"], [arguments.read_group]),
        (["do", "g.jsonl", "next"], [arguments.game_group]),
        (["camp", "--simulate", "3"], [arguments.camp_group]),
        (["--version"], []),
        (["--help"], None),
        (["no-such-command", "x"], None),
        ([], None),
    ],
)
def test_the_parser_is_built_from_the_groups_the_command_line_names(argv, groups):
    assert groups_for(argv) == groups


def test_an_unknown_subcommand_is_answered_with_the_whole_list(capsys):
    assert main(["no-such-command", "x"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'no-such-command'" in err
    assert all(f"'{name}'" in err for name in SUBCOMMANDS)


def test_the_help_lists_every_subcommand(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(f"    {name}" in out for name in SUBCOMMANDS)
