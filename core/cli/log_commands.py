"""Subcommands about log files and the program rather than one game's play: check,
repair, locate, rulings, completion. The log modules are imported by the handlers that
read logs, so ``locate``, ``rulings`` and ``completion`` start without them."""

from __future__ import annotations

import argparse
import json
import os
import sys
from argparse import Namespace
from collections.abc import Callable, Sequence
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stockade.core.book.conflicts import conflict_row
from stockade.core.cli import jsonout
from stockade.core.cli.errors import CliError, Exit
from stockade.core.cli.parsing import add_command, add_file, add_json
from stockade.core.cli.types import SubParsers
from stockade.core.cli.width import WIDTH, chosen
from stockade.core.log import chain
from stockade.core.log.control_check import control_problems
from stockade.core.log.files import atomic_write
from stockade.core.log.game_log import load
from stockade.core.log.log_lines import iter_lines
from stockade.core.log.reader import lines_of
from stockade.core.log.salvage import SHOWN_DROPS, Salvage, salvage
from stockade.core.model.columns import laid_out
from stockade.core.model.errors import Refusal
from stockade.core.model.plural import agree, counted, no_longer_hold

if TYPE_CHECKING:
    from stockade.core.book.game import Game
    from stockade.core.model import events as ev


def register(sub: SubParsers[argparse.ArgumentParser]) -> None:
    """Add ``check``, ``repair``, ``locate``, ``rulings`` and ``completion``."""
    check = add_command(
        sub,
        "check",
        "validate a log without writing to it (exit 0 when sound)",
        ["stockade check game.jsonl", "stockade check game.jsonl --json"],
        cmd_check,
    )
    add_file(check)
    add_json(check)
    WIDTH.add_to(check)

    repair = add_command(
        sub,
        "repair",
        "write a repaired copy of a damaged log; the original is kept",
        "stockade repair game.jsonl -o fixed.jsonl",
        cmd_repair,
    )
    add_file(repair)
    repair.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="OUT",
        help="where to write it (default FILE.repaired.jsonl)",
    )
    repair.add_argument(
        "--force",
        action="store_true",
        help="replace OUT (and OUT.dropped) if they exist; a link is replaced, never followed",
    )
    add_json(repair)

    locate = add_command(
        sub,
        "locate",
        "print the config dir, data dir, cache dir and last game",
        "stockade locate",
        cmd_locate,
    )
    add_json(locate)
    ruled = add_command(
        sub,
        "rulings",
        "Stockade's rulings where the rules are silent",
        "stockade rulings --json",
        cmd_rulings,
    )
    add_json(ruled)
    WIDTH.add_to(ruled)

    completion = add_command(
        sub,
        "completion",
        "print the shell completion script for bash, zsh or fish",
        [
            'eval "$(stockade completion bash)"   # in ~/.bashrc',
            "stockade completion fish > ~/.config/fish/completions/stockade.fish",
        ],
        cmd_completion,
    )
    completion.add_argument("shell", choices=("bash", "zsh", "fish"))


def cmd_check(args: Namespace, ui: object) -> int:
    """Exit 0 when the log is sound; else name the first bad line (exit 3) or the
    entries that no longer hold (exit 4). Only ever reads."""
    from stockade.core.book.game import Game
    from stockade.core.log.game_log import load
    from stockade.core.log.store import LogStore

    path: Path = args.file
    report: dict[str, Any] = {"file": str(path), "sound": False, "problem": None, "conflicts": []}
    sound = LogStore.read_sound(path)  # a long sound log, read a piece at a time
    if sound is not None:
        return _check_records(args, path, report, sound.records, lambda: Game.from_store(sound))
    loaded = load(path)
    if loaded.problem:
        report["problem"] = {"line": loaded.problem.line, "message": loaded.problem.message}
        return _check_failed(args, report, f"{path}: {loaded.problem}", Exit.DAMAGED)
    if loaded.torn_tail is not None:
        line = len(loaded.records) + 1
        report["problem"] = {"line": line, "message": "the last entry is unfinished or damaged"}
        return _check_failed(
            args,
            report,
            f"{path}: line {line}: the last entry is unfinished "
            "or damaged (a crash while writing?); opening the game sets it aside, "
            "or 'stockade repair' writes a copy without it",
            Exit.DAMAGED,
        )
    records = loaded.records
    del loaded  # the bytes read
    return _check_records(args, path, report, records, lambda: Game.load(records))


def _check_records(
    args: Namespace,
    path: Path,
    report: dict[str, Any],
    records: Sequence[ev.Record],
    game_of: Callable[[], Game],
) -> int:
    """``check`` of a log whose every line is whole and sound: its chain, its control
    records, then its fold (``game_of``)."""
    link = chain.walk(islice(iter_lines(path), len(records)))
    report["chain"] = {"intact": link.intact, "summary": link.summary()}
    if not link.intact:
        report["problem"] = {"line": link.broken_at, "message": link.why}
        return _check_failed(
            args,
            report,
            f"{path}: line {link.broken_at}: {link.why} (the hash chain; see docs/verify.md)",
            Exit.DAMAGED,
        )
    problems = control_problems(records)
    if problems:
        report["problem"] = {"line": problems[0].line, "message": problems[0].message}
        report["control"] = [
            {"line": p.line, "verb": p.verb, "target": p.target, "message": p.reason}
            for p in problems
        ]
        if not args.json and len(problems) > 1:
            for problem in problems:
                print(problem)
        where = "in 'control'" if args.json else "above"
        more = f" (and {len(problems) - 1} more, {where})" if len(problems) > 1 else ""
        return _check_failed(args, report, f"{path}: {problems[0]}{more}", Exit.DAMAGED)
    game = game_of()
    state = game.state
    report.update(
        records=len(records),
        units=len(state.units),
        turn=state.turn,
        attacker=state.attacker,
        phase=state.phase,
        ended=state.ended,
    )
    if game.conflicts:
        report["conflicts"] = [
            {"seq": seq, "rule": refusal.rule, "message": refusal.text}
            for seq, refusal in sorted(game.conflicts.items())
        ]
        if not args.json:
            for seq in sorted(game.conflicts):
                for line in laid_out(*conflict_row(game, seq), chosen(args)):
                    print(line)
        n = len(game.conflicts)
        return _check_failed(
            args,
            report,
            f"{path}: {no_longer_hold(n)}; strike or fix "
            f"{agree(n, 'it', 'them')} (stockade history shows them with '!')",
            Exit.CONFLICTS,
        )
    report["sound"] = True
    if args.json:
        jsonout.emit("check", **report)
        return 0
    said = (
        f"sound: {counted(len(records), 'record')}, {counted(len(state.units), 'unit')}, "
        f"Turn {state.turn} {state.attacker} {state.phase}"
        + (", game ended" if state.ended else "")
        + f"; {link.summary()}"
    )
    for line in laid_out(f"{path}: ", said, chosen(args)):
        print(line)
    return 0


def _check_failed(args: Namespace, report: dict[str, Any], message: str, code: int) -> int:
    """A log that is not sound: with --json the whole report on stdout (``ok`` false,
    as for any non-zero exit); the one line on stderr either way."""
    if args.json:
        error = {"exit": int(code), "message": message, "rule": None}
        print(json.dumps(jsonout.envelope("check", ok=False, error=error, **report), indent=2))
        print(f"stockade: {message}", file=sys.stderr)
        return code
    raise CliError(message, code)


def default_output(path: Path) -> Path:
    return path.with_name(f"{path.stem}.repaired{path.suffix or '.jsonl'}")


def cmd_repair(args: Namespace, ui: object) -> int:
    """Write a repaired copy: every sound line kept in place, each bad one dropped to
    OUT.dropped (core/log/salvage.py); a log with only an unfinished last entry loses
    just that entry (and the lines written with it). The original is left untouched.
    """

    from stockade.core.log.game_log import GAME
    from stockade.core.log.streamed_read import stream

    path: Path = args.file
    # a sound log, read a piece at a time and nothing of it held, needs no repair
    sound = stream(path, GAME, keep=lambda record: False)
    if sound is not None:
        sound.records.close()
    loaded = load(path) if sound is None else None
    if loaded is None or loaded.problem is None and loaded.torn_tail is None:
        if args.json:
            jsonout.emit("repair", file=str(path), repaired=False, output=None)
        else:
            print(f"{path}: sound; nothing to repair")
        return 0
    if not loaded.records:  # an empty file, or no game header on line 1
        raise CliError(f"{path}: {loaded.problem}; nothing in it can be kept", Exit.DAMAGED)
    if loaded.problem is None:  # only a torn tail: the reader already set it aside
        kept = loaded.records
        found = Salvage(kept=len(kept), dropped_bytes=bytearray(loaded.torn_tail or b""))
        found.lines = list(lines_of(loaded.data[: loaded.good_bytes]))
    else:
        found = salvage(loaded.data)
        if found.header_problem:
            raise CliError(
                f"{path}: line 1: {found.header_problem}; nothing in it can be kept", Exit.DAMAGED
            )
    del loaded
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
    good = found.blob()
    try:
        atomic_write(out, good, replace=args.force)
        atomic_write(dropped_path, bytes(found.dropped_bytes), replace=args.force)
    except FileExistsError as exc:  # appeared since the check above
        raise CliError(f"{exc.filename}: already exists; not overwriting it") from None
    except OSError as exc:  # a full disk, a read-only folder: named, the original kept
        raise CliError(
            f"{exc.filename or out}: cannot write the repaired copy ({exc.strerror or exc}); "
            f"{path} is unchanged"
        ) from None
    from stockade.core.book.game import Game

    conflicts = sorted(Game.load(load(out).records).conflicts.items())
    if args.json:
        jsonout.emit(
            "repair",
            file=str(path),
            repaired=True,
            output=str(out),
            kept_records=found.kept,
            dropped_lines=found.dropped_count,
            dropped=[{"line": d.line, "why": d.why} for d in found.dropped_shown],
            stand_ins=found.stand_ins[:SHOWN_DROPS],
            relinked_from=found.relinked_from or None,
            conflicts=[{"seq": seq, "rule": r.rule, "message": r.text} for seq, r in conflicts],
            dropped_bytes=len(found.dropped_bytes),
            dropped_file=str(dropped_path),
        )
        return 0
    for line in _repair_report(path, out, dropped_path, found, conflicts):
        print(line)
    return 0


def _repair_report(
    path: Path,
    out: Path,
    dropped_path: Path,
    found: Salvage,
    conflicts: list[tuple[int, Refusal]],
) -> list[str]:
    """What ``repair`` did: one line (kept, dropped and why, re-linked), then one line
    for each entry that no longer holds without the dropped lines."""
    said = [f"wrote {out}: {found.kept} sound records kept"]
    shown = "; ".join(f"line {d.line} ({d.why})" for d in found.dropped_shown)
    if shown:
        more = found.dropped_count - len(found.dropped_shown)
        said.append(f"dropped {shown}" + (f" and {more} more lines" if more > 0 else ""))
    if found.dropped_count == 0 and found.dropped_bytes:
        said.append(f"the unfinished last entry (line {found.kept + 1} on) left out")
    if found.dropped_bytes:
        said.append(f"{len(found.dropped_bytes)} bytes saved to {dropped_path}")
    if found.stand_ins:
        said.append(
            f"{len(found.stand_ins)} dropped line(s) stand in as strike records, so "
            "later entries keep their numbers"
        )
    if found.relinked_from:
        said.append(f"hash chain re-linked from line {found.relinked_from}")
    lines = ["; ".join(said) + f"; {path} is unchanged"]
    for seq, refusal in conflicts[:SHOWN_DROPS]:
        lines.append(f"entry {seq} no longer holds without the dropped lines: {refusal}")
    if len(conflicts) > SHOWN_DROPS:
        lines.append(f"... and {no_longer_hold(len(conflicts) - SHOWN_DROPS)} more")
    if conflicts:
        lines.append("strike or fix them (stockade history shows them with '!')")
    return lines


def cmd_locate(args: Namespace, ui: object) -> int:
    from stockade.core.config.dirs import config_dir, data_dir
    from stockade.core.log.derived import cache_dir

    config, data = config_dir(), data_dir()
    last_file = data / "last_game"
    try:
        last = last_file.read_text(encoding="utf-8").strip() if last_file.is_file() else ""
    except (OSError, UnicodeDecodeError):
        last = ""
    cache = cache_dir()
    if args.json:
        jsonout.emit(
            "locate",
            config_dir=str(config),
            data_dir=str(data),
            cache_dir=str(cache) if cache else None,
            last_game=last or None,
        )
        return 0
    print(f"config dir: {config}")
    print(f"data dir:   {data}")
    print(f"last game:  {last or '(none)'}")
    print(f"cache dir:  {cache if cache else '(off)'}  (snapshots of big games; safe to delete)")
    return 0


def cmd_rulings(args: Namespace, ui: object) -> int:
    from stockade.core.reads.rulings import rulings, rulings_text

    if args.json:
        found = [
            {"topic": r.topic, "rule": r.rule, "ruling": r.ruling, "source": r.source}
            for r in rulings()
        ]
        jsonout.emit("rulings", rulings=found)
        return 0
    print(rulings_text(chosen(args)))
    return 0


def cmd_completion(args: Namespace, ui: object) -> int:
    """The shell's completion script, from argcomplete (docs/commands.md)."""
    from argcomplete.shell_integration import shellcode  # where argcomplete defines it

    sys.stdout.write(shellcode(["stockade"], shell=args.shell))
    return 0
