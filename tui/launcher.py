"""The ``stockade`` console script.

The headless subcommands (``stockade tally/check/run/...``) live in ``core.cli``; this
module only hands it a ``ui`` object that can open a screen. Importing this module does
not import Textual: the screens load only when one is wanted, so the headless commands
start fast.
"""

from __future__ import annotations

import gc
import sys

# typing costs ~2 ms to import; mypy reads a TYPE_CHECKING of our own the same way
TYPE_CHECKING = False

if TYPE_CHECKING:  # pathlib costs an installed program ~5 ms to import: not at start
    from pathlib import Path
    from typing import Any


class TerminalUI:
    """What ``core.cli.main`` calls when the player wants a screen."""

    def open_game(self, path: Path | None) -> int:
        from stockade.tui.opening import open_game_path

        try:
            game_path, notes = open_game_path(path)
        except OSError as exc:
            print(f"stockade: {exc}", file=sys.stderr)
            return 1
        from stockade.tui.app import run_app

        return run_app(game_path, notes)

    def serve(self, path: Path | None, **options: Any) -> int:
        """``stockade serve``: the app in a browser (tui/serve.py, textual-serve)."""
        from stockade.tui.serve import serve

        return serve(path, **options)

    def open_camp(self, path: Path | None, options: dict[str, Any] | None = None) -> int:
        from stockade.tui.camp import run_camp

        return run_camp(path, options)


# Commands whose every object lives until the process ends: one read or one write, then
# exit (not `run`, `watch` or a screen, which go on making and dropping objects).
ONE_SHOT = frozenset({"tally", "do"})


def main(argv: list[str] | None = None) -> int:
    """The console script. A one-shot command runs with the cyclic collector off, as the
    fold already does (``projection.gc_paused``): the imports, the fold and the output
    make objects that live until the process ends, so a collection finds nothing and
    only walks them. Run as the process's own command, it then freezes what is left
    (``gc.freeze``), so the full collections the interpreter makes as it exits skip it
    too (~5% of a folding tally's instructions, counted with valgrind). Called inside
    another process, the collector is put back as it was."""
    args = sys.argv[1:] if argv is None else argv
    one_shot = bool(args) and args[0] in ONE_SHOT
    was = gc.isenabled()
    if one_shot:
        gc.disable()
    try:
        code = _tally(args) if args and args[0] == "tally" else None
        if code is None:
            from stockade.core.cli import main as cli_main

            code = cli_main(args, ui=TerminalUI()) or 0
    finally:
        if one_shot and was:
            gc.enable()
    if one_shot and argv is None:  # the process's own command line: it ends with this code
        gc.freeze()
    return code


def _tally(args: list[str]) -> int | None:
    """``stockade tally``: from the log's derived store, else folded; None for a line
    only the command line proper reads."""
    # A tally already folded from these bytes by this code is rendered from the log's
    # derived store without loading the fold (core/cli/stored_tally.py).
    from stockade.core.cli import stored_tally

    code = stored_tally.answer(args)
    if code is None:
        # else folded, without the command line proper when tally's own reader takes
        # the line (core/cli/folded_tally.py)
        from stockade.core.cli import folded_tally

        code = folded_tally.answer(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
