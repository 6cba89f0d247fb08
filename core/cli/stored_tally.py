"""``stockade tally`` answered from the log's derived store (core/log/derived.py),
before the command line proper is imported: the console script (tui/launcher.py) asks
``answer`` first, and runs ``stockade.core.cli.main`` only when it says None.

It reads ``tally``'s arguments with ``tally``'s own definition (core/cli/tally_args.py),
opens and reads the log with the reader's checks (core/log/log_file.py: a regular file
within the size bound, judged on the open file before a byte is read), hashes the bytes
it read, and prints the report kept for exactly those bytes, this code and this runtime,
rendered by the code that renders a folded tally (core/cli/tally_report.py). Anything
else (a command line the full parser would refuse or answer with help, a log it refuses,
an unfinished group beside the log, no entry, an entry that does not verify, the store
off) is None: the tally folds, and says what is wrong, as it always did.
"""

from __future__ import annotations

import os
import sys

from stockade.core.log import derived

# the code of ``stockade`` when a reader goes away (``| head``): core/cli/errors.py Exit.REFUSED
BROKEN_PIPE = 1


def answer(argv: list[str]) -> int | None:
    """Print the kept tally for ``argv`` (``["tally", ...]``) and return its exit
    code, or None (nothing printed) when the tally must be folded."""
    if not argv or argv[0] != "tally" or "_ARGCOMPLETE" in os.environ:
        return None
    if derived.cache_dir() is None:
        return None
    derived.code_fingerprint()  # first: the code and data as they are before any is read
    from stockade.core.cli import tally_args
    from stockade.core.log.log_file import LogFileRefused, read_log_bytes

    args = tally_args.parse(argv[1:])
    if args is None:
        return None
    file = str(args.file)
    try:
        data = read_log_bytes(file)
    except LogFileRefused:
        return None  # the full path refuses it, in its own words
    head, name = os.path.split(file)
    if os.path.lexists(os.path.join(head, f".{name}.writing")):
        return None  # an unfinished group beside the log: a reader hides it (after the read)
    content = derived.Content(data).key()
    del data
    from stockade.core.cli import tally_report

    report = tally_report.lookup(os.path.realpath(file), file, args.at, content)
    if report is None:
        return None
    from stockade.core.model.visible import visible

    err, out = (visible(text) for text in tally_report.render(report, args))
    for stream, text in ((sys.stderr, err), (sys.stdout, out)):
        try:  # a terminal that cannot show the text: the full path says so
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


__all__ = ["answer"]
