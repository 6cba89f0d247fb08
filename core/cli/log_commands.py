"""Subcommands about log files rather than games: check, repair, locate."""

from __future__ import annotations

import os
from pathlib import Path

from stockade.core.cli.errors import CliError
from stockade.core.game import Game
from stockade.core.journal import atomic_write, read_lines
from stockade.core.logfile import load


def cmd_check(args, ui) -> int:
    """Exit 0 when the log is sound; else name the first bad line. Only ever reads."""
    path: Path = args.file
    loaded = load(path)
    if loaded.problem:
        raise CliError(f"{path}: {loaded.problem}")
    if loaded.torn_tail is not None:
        raise CliError(
            f"{path}: line {len(loaded.records) + 1}: the last entry is unfinished "
            "or damaged (a crash while writing?); opening the game sets it aside, "
            "or 'stockade repair' writes a copy without it"
        )
    game = Game(loaded.records)
    if game.conflicts:
        for seq, refusal in sorted(game.conflicts.items()):
            print(f"entry {seq} no longer holds: {refusal}")
        raise CliError(
            f"{path}: {len(game.conflicts)} entries no longer hold; "
            "strike or fix them (stockade history shows them with '!')"
        )
    state = game.state
    print(
        f"{path}: sound: {len(loaded.records)} records, {len(state.units)} units, "
        f"Turn {state.turn} {state.attacker} {state.phase}"
        + (", game ended" if state.ended else "")
    )
    return 0


def default_output(path: Path) -> Path:
    return path.with_name(f"{path.stem}.repaired{path.suffix or '.jsonl'}")


def cmd_repair(args, ui) -> int:
    """Write the good prefix to a new file; save the dropped lines beside it.

    Records are never renumbered: everything from the first bad line on is dropped
    (a later good line would break the gap-free sequence) and kept in OUT.dropped.
    The original is left untouched.
    """
    path: Path = args.file
    raw = read_lines(path)
    loaded = load(path)
    if loaded.problem is None and loaded.torn_tail is None:
        print(f"{path}: sound; nothing to repair")
        return 0
    if not loaded.records:
        raise CliError(f"{path}: {loaded.problem}; nothing in it can be kept")
    out: Path = args.output or default_output(path)
    dropped_path = out.with_name(out.name + ".dropped")
    if out.resolve() == path.resolve():
        raise CliError("the repaired copy must go to another file; the original is kept as it is")
    for target in (out, dropped_path):
        # lexists: a dangling link "does not exist" for Path.exists, yet is there.
        if os.path.lexists(target) and not args.force:
            kind = "a link" if target.is_symlink() else "a file"
            raise CliError(
                f"{target}: already exists ({kind}); not overwriting it "
                "(--force replaces it; a link is replaced, never written through)"
            )
    kept = len(loaded.records)
    good = b"".join(line.data + b"\n" for line in raw.lines[:kept])
    dropped = b"".join(line.data + b"\n" for line in raw.lines[kept:]) + (raw.torn_tail or b"")
    try:
        atomic_write(out, good, replace=args.force)
        atomic_write(dropped_path, dropped, replace=args.force)
    except FileExistsError as exc:  # appeared since the check above
        raise CliError(f"{exc.filename}: already exists; not overwriting it") from None
    first_bad = loaded.problem.line if loaded.problem else kept + 1
    print(
        f"wrote {out}: {kept} good records kept; from line {first_bad} on "
        f"({len(dropped)} bytes) saved to {dropped_path}; {path} is unchanged"
    )
    return 0


def cmd_locate(args, ui) -> int:
    from platformdirs import user_config_dir, user_data_dir

    config, data = Path(user_config_dir("stockade")), Path(user_data_dir("stockade"))
    last_file = data / "last_game"
    try:
        last = last_file.read_text(encoding="utf-8").strip() if last_file.is_file() else ""
    except (OSError, UnicodeDecodeError):
        last = ""
    print(f"config dir: {config}")
    print(f"data dir:   {data}")
    print(f"last game:  {last or '(none)'}")
    from stockade.core.snapcache import cache_dir

    cache = cache_dir()
    print(f"cache dir:  {cache if cache else '(off)'}  (snapshots of big games; safe to delete)")
    return 0


def cmd_rulings(args, ui) -> int:
    from stockade.core.rulings import rulings_text

    print(rulings_text())
    return 0
