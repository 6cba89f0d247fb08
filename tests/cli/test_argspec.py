"""The strict reader of a plain command line (core/cli/argspec.py) against argparse,
given the same declarations: wherever the reader answers, argparse answers the same;
where argparse refuses a line or answers it with help, the reader says None. What the
reader leaves to argparse (None) is always safe: the command line proper reads it."""

from __future__ import annotations

import argparse

from hypothesis import given, settings
from hypothesis import strategies as st

from stockade.core.cli import argspec, tally_args
from stockade.core.cli.parsing import HelpFormatter


class _Refused(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _Refused(message)

    def exit(self, status=0, message=None):
        raise _Refused(message)


def argparse_reads(argv: list[str]) -> argparse.Namespace | None:
    """``tally``'s line as the command line proper reads it (None: refused or help)."""
    parser = _Parser(prog="stockade tally", formatter_class=HelpFormatter)
    tally_args.add_arguments(parser)
    try:
        return parser.parse_args(argv)
    except _Refused:
        return None


TOKENS = st.sampled_from(
    [
        "g.jsonl", "./g.jsonl", "a//b.jsonl", "", "-", "--", "-h", "--help", "-3", "- x",
        "--json", "--js", "--j", "--json=1", "--at", "--a", "--at=4", "--at=", "--at=-1",
        "4", "04", "-4", "+4", " 4", "4_0", "\uff14", "x", "--format", "--form", "--f",
        "--fo=md", "--format=pdf", "md", "html", "bbcode", "csv", "text", "pdf", "--=x",
        "--jsonx", "--formatx=md", "-j", "--at 4",
    ]
)  # fmt: skip


# 1,000 lines: each reader bug planted (a flag taking =value, an Option at the end of the
# line with no value, a choice not checked) failed on every seed tried.
@settings(max_examples=1000, deadline=None)
@given(st.lists(TOKENS | st.text(max_size=6), max_size=6))
def test_the_reader_answers_only_as_argparse_does(argv):
    mine = tally_args.parse(argv)
    if mine is not None:
        assert vars(mine) == vars(argparse_reads(argv)), argv


def test_the_plain_lines_are_answered_by_the_reader(tmp_path):
    """What a player types is read without argparse (else the answer from the store
    would load it): the reader must not say None to these."""
    log = str(tmp_path / "g.jsonl")
    for argv in (
        [log],
        [log, "--json"],
        ["--json", log],
        [log, "--at", "40"],
        [log, "--at=40", "--format", "bbcode"],
        [log, "--form", "md", "--at=4"],
        [log, "--format", "html", "--json"],
    ):
        mine = tally_args.parse(argv)
        assert mine is not None, argv
        assert vars(mine) == vars(argparse_reads(argv)), argv


def test_what_the_reader_leaves_to_argparse():
    for argv in (
        [],
        ["g", "g"],
        ["g", "--at", "x"],
        ["g", "--format", "pdf"],
        ["g", "-h"],
        ["g", "--at"],
        ["g", "--json=1"],
        ["--", "g"],
        ["g", "--at", "-1"],  # argparse reads it as -1; the reader leaves it
        ["g", "--at", "\uff14"],  # int() reads a full-width 4; the reader leaves it
        ["-g"],
    ):
        assert tally_args.parse(argv) is None, argv


def test_the_declarations_are_what_argparse_is_given():
    parser = argparse.ArgumentParser()
    tally_args.add_arguments(parser)
    by_dest = {action.dest: action for action in parser._actions}
    for argument in tally_args.ARGUMENTS:
        action = by_dest[argument.dest]
        assert action.help == argument.help
        if isinstance(argument, argspec.Option):
            assert (action.default, action.choices) == (argument.default, argument.choices)
