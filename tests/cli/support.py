"""Helpers for the tests of the ``stockade`` command line (not a test module itself)."""

from __future__ import annotations

from stockade.core.cli import main

# ``stockade ARGV`` in a fresh interpreter: python -c CLI_CHILD ARGV...
CLI_CHILD = "import sys; from stockade.core.cli import main; sys.exit(main(sys.argv[1:]))"


def cli(capsys, *argv, ui=None) -> tuple[int, str, str]:
    """``stockade ARGV`` in this process: the exit code, stdout and stderr."""
    code = main([str(a) for a in argv], ui=ui)
    out, err = capsys.readouterr()
    return int(code), out, err
