"""The sample games: finding them, reading their headers, and replaying their scripts.

Each game ``NAME`` is kept as

* ``NAME.stockade``: the command script. Its first lines are ``#`` comments (which
  example, what it shows, the expected outcome and the CVP worked out by hand); one of
  them is the ``# new: --scenario "..." --side NAME:NATIONALITY[:ELR] ...`` line, the
  arguments of ``stockade new``. Two kinds of marker comments are read by the tests
  and ignored by ``stockade run`` (they are comments):

  - ``#! refuse RULE: COMMAND``: at this point of the game, COMMAND must be refused,
    citing RULE, and leave the log untouched;
  - ``#! accept: COMMAND``: at this point COMMAND would be accepted (it is checked,
    never recorded).

* ``NAME.jsonl``: its log, made by ``regenerate.py`` (running the script onto a new game);
* ``NAME.expected.json``: the expected tally and state facts, written by hand.

Nothing here decides a rule: the game is made by the CLI (``stockade new`` and
``stockade run``) when it is installed, else by the same core calls the CLI makes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import shlex
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXED_AT = "2024-01-01T00:00:00+00:00"  # the `at` stamp regenerate.py writes


@dataclass
class Marker:
    kind: str  # "refuse" or "accept"
    command: str
    rule: str  # for "refuse": the rule the refusal must name
    line: int  # 1-based line number of the marker in the script
    before: list[str]  # the script's lines before the marker


def names() -> list[str]:
    return sorted(p.name[: -len(".stockade")] for p in HERE.glob("*.stockade"))


def script_path(name: str) -> Path:
    return HERE / f"{name}.stockade"


def log_path(name: str) -> Path:
    return HERE / f"{name}.jsonl"


def expected(name: str) -> dict:
    return json.loads((HERE / f"{name}.expected.json").read_text(encoding="utf-8"))


def new_args(name: str) -> list[str]:
    """The ``stockade new`` arguments from the script's ``# new:`` line."""
    for line in script_path(name).read_text(encoding="utf-8").splitlines():
        if line.startswith("# new:"):
            return shlex.split(line[len("# new:") :])
    raise ValueError(f"{name}.stockade has no '# new:' line")


def header(name: str) -> tuple[str, list[tuple[str, str, int | None]]]:
    """(scenario, [(side name, nationality, ELR or None)]) from the ``# new:`` line."""
    args = new_args(name)
    scenario, sides = "", []
    i = 0
    while i < len(args):
        if args[i] == "--scenario":
            scenario = args[i + 1]
        elif args[i] == "--side":
            parts = args[i + 1].split(":")
            sides.append((parts[0], parts[1], int(parts[2]) if len(parts) > 2 else None))
        elif args[i] == "--strict":  # a flag: see ``strict``
            i += 1
            continue
        else:
            raise ValueError(f"{name}: unexpected '{args[i]}' in the '# new:' line")
        i += 2
    return scenario, sides


def strict(name: str) -> bool:
    """Whether the game is made ``--strict`` (the players record every board fact)."""
    return "--strict" in new_args(name)


def markers(name: str) -> list[Marker]:
    lines = script_path(name).read_text(encoding="utf-8").splitlines()
    out = []
    for index, line in enumerate(lines):
        text = line.strip()
        if text.startswith("#! refuse"):
            rule, _, command = text[len("#! refuse") :].partition(":")
            out.append(Marker("refuse", command.strip(), rule.strip(), index + 1, lines[:index]))
        elif text.startswith("#! accept:"):
            out.append(
                Marker("accept", text[len("#! accept:") :].strip(), "", index + 1, lines[:index])
            )
    return out


# ------------------------------------------------------------------- the CLI
def cli(*argv: str) -> tuple[int, str, str]:
    """Run ``stockade ARGV...`` in-process: (exit code, stdout, stderr)."""
    from stockade.core.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse exits this way
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return int(code or 0), out.getvalue(), err.getvalue()


# ------------------------------------------------------------------- building
def build(name: str, target: Path, lines: list[str] | None = None) -> None:
    """Make ``target``: a new game from the ``# new:`` line, then the script run onto it.

    ``lines`` (default: the whole script) lets the tests stop at a marker.
    """
    target = Path(target)
    if target.exists():
        target.unlink()
    script_lines = (
        lines if lines is not None else script_path(name).read_text(encoding="utf-8").splitlines()
    )
    code, _out, err = cli("new", str(target), *new_args(name))
    if code != 0:
        raise RuntimeError(f"stockade new for {name} failed: {err.strip()}")
    script = target.with_suffix(".script")
    script.write_text("\n".join(script_lines) + "\n", encoding="utf-8")
    try:
        code, _out, err = cli("run", str(target), str(script))
    finally:
        script.unlink()
    if code != 0:
        raise RuntimeError(f"stockade run of {name} failed: {err.strip()}")


def open_state(path: Path):
    """The state folded from a stored log (opened read-only: the file is not touched)."""
    from stockade.core.book.game import Game

    game = Game.open(Path(path), read_only=True)
    try:
        return game.state
    finally:
        game.close()


def canonical(state) -> dict:
    """A comparable dump of a state: units, sides, casualties, clock (no timestamps:
    the state holds none)."""

    def plain(value):
        if dataclasses.is_dataclass(value):
            return {k: plain(v) for k, v in dataclasses.asdict(value).items()}
        if isinstance(value, dict):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if isinstance(value, (set, frozenset)):
            return sorted(plain(v) for v in value)
        return value

    return {
        "scenario": state.scenario,
        "turn": state.turn,
        "attacker": state.attacker,
        "phase": state.phase,
        "ended": state.ended,
        "sides": plain(state.sides),
        "units": plain(state.units),
        "casualties": plain(state.casualties),
    }


def records_without_at(path: Path) -> list[dict]:
    """The log's records as dicts, each without its wall-clock ``at`` and without its
    hash-chain link ``prev`` (a hash over the line before, ``at`` included)."""
    out = []
    for line in Path(path).read_bytes().splitlines():
        record = json.loads(line)
        record.pop("at", None)
        record.pop("prev", None)
        out.append(record)
    return out


def tally_json(path: Path) -> dict:
    """``stockade tally FILE --json``."""
    code, out, err = cli("tally", str(path), "--json")
    if code != 0:
        raise RuntimeError(f"stockade tally failed: {err.strip()}")
    return json.loads(out)
