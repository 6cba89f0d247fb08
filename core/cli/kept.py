"""``stockade tally`` answered from the kept tally (core/log/kept_tally.py), before the
command line proper is imported: the console script (tui/launcher.py) asks ``answer``
first, and runs ``stockade.core.cli.main`` only when it says None.

It recognises only the plainest tally command lines: ``tally FILE`` with at most one
each of ``--json``, ``--format F`` (or ``--format=F``) and ``--at N`` (or ``--at=N``).
Anything else (an abbreviated option, ``--help``, a file named like an option, a
repeated option, a path that argparse's ``Path`` would spell differently) goes to the
normal path, which parses it with argparse and folds. A format or ``--at`` that argparse
would refuse is never kept, so it is a miss here too. Imports only the light modules
core/log/kept_tally.py imports.
"""

from __future__ import annotations

import os
import sys

from stockade.core.log import kept_tally

# the code of ``stockade`` when a reader goes away (``| head``): core/cli/errors.py Exit.REFUSED
BROKEN_PIPE = 1


def key_of(argv: list[str]) -> kept_tally.Key | None:
    """The kept tally's key for the command line ``argv`` (``["tally", ...]``), or None
    when it is not one ``answer`` recognises."""
    if not argv or argv[0] != "tally" or os.name != "posix":
        return None
    file: str | None = None
    as_json = False
    options: dict[str, str] = {}
    rest = iter(argv[1:])
    for token in rest:
        if token == "--json":
            if as_json:
                return None
            as_json = True
        elif token in ("--format", "--at") or token.startswith(("--format=", "--at=")):
            name, eq, value = token.partition("=")
            if not eq:
                value = next(rest, "")
            if name in options or not value or value.startswith("-"):
                return None
            options[name] = value
        elif token.startswith("-") or file is not None or not _plain_path(token):
            return None
        else:
            file = token
    if file is None:
        return None
    at: int | None = None
    if "--at" in options:
        try:
            at = int(options["--at"])  # as argparse's type=int reads it
        except ValueError:
            return None
    return (file, os.path.realpath(file), as_json, options.get("--format", "text"), at)


def _plain_path(token: str) -> bool:
    """Is ``token`` spelled as ``str(Path(token))`` spells it (POSIX)? Then the file
    as given is the same string on both paths (the tally's warnings may name it)."""
    if not token or token == "." or "\0" in token:
        return token == "."
    parts = token.split("/")
    if token.startswith("/"):
        parts = parts[1:]  # one leading slash is kept; two (or an empty part) are not
    return all(part not in ("", ".") for part in parts)


def answer(argv: list[str]) -> int | None:
    """Print the kept tally for ``argv`` and return its exit code, or None (nothing
    printed) when the tally must be folded."""
    if "_ARGCOMPLETE" in os.environ:  # the shell asking for completions
        return None
    key = key_of(argv)
    if key is None:
        return None
    kept = kept_tally.lookup(key)
    if kept is None:
        return None
    out, err = kept
    for stream, text in ((sys.stderr, err), (sys.stdout, out)):
        try:  # a terminal that cannot show the text: the normal path says so
            text.encode(stream.encoding or "utf-8", stream.errors or "strict")
        except (UnicodeError, LookupError):
            return None
    try:
        if err:
            sys.stderr.write(err)
            sys.stderr.flush()
        sys.stdout.write(out)
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        return BROKEN_PIPE
    return 0


def _quiet_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's last flush
    does not complain about the reader that went away."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


__all__ = ["answer", "key_of"]
