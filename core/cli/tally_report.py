"""What ``stockade tally`` answers, as data, and how it is printed: one ``render`` for
the tally that folds and the tally read back from the log's derived store
(core/log/derived.py), so the two print the same thing by construction.

A report is the tally (core/book/tally_sheet.py), the warnings the read-only open of
the log gave, and the entries that no longer hold (seqs). It is kept in the store as
data (typed rows, JSON), keyed by the content it was folded from; the text is made
from it on every run. Each entry is for one FILE as given (warnings name it) and one
``--at``; the format and ``--json`` only choose how the data is printed.

Import-light: the answer from the store imports this before msgspec or the model; json
and the ``--json`` envelope load only when a store entry is read or written or
``--json`` is asked (a folding tally with the store off imports neither).
"""

from __future__ import annotations

from stockade.core.book.tally_sheet import Tally, to_html, to_json, to_markdown, to_text
from stockade.core.cli.width import chosen
from stockade.core.log import derived

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from argparse import Namespace

    from stockade.core.cli import argspec

KIND = "tally"  # its kind in the derived store
VERSION = 1  # of the payload below
MAX_ENTRIES = 16  # (FILE as given, --at) pairs kept per log


class TallyReport:
    """The data ``stockade tally`` prints: the tally, the read's warnings, and the seqs
    of the entries that no longer hold."""

    __slots__ = ("conflicts", "tally", "warnings")

    def __init__(self, tally: Tally, warnings: list[str], conflicts: list[int]) -> None:
        self.tally, self.warnings, self.conflicts = tally, warnings, conflicts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TallyReport) and (
            (self.tally, self.warnings, self.conflicts)
            == (other.tally, other.warnings, other.conflicts)
        )

    __hash__ = None  # type: ignore[assignment]


def warning_line(message: str) -> str:
    return f"stockade: warning: {message}\n"


def conflicts_warning(seqs: list[int]) -> str:
    """What ``tally`` and ``history`` say on stderr of entries that no longer hold."""
    # here, not at the top: a kept tally prints with no module of the model loaded
    from stockade.core.model.plural import agree, no_longer_hold

    n = len(seqs)
    shown = ", ".join(str(s) for s in sorted(seqs)[:10])
    return (
        f"{no_longer_hold(n)} ({shown}{', ...' if n > 10 else ''}): "
        f"{agree(n, 'it is', 'they are')} skipped until struck or fixed "
        "(stockade check lists them)"
    )


def warnings_text(warnings: list[str], conflicts: list[int]) -> str:
    """The read's warnings, then the entries that no longer hold, as printed."""
    said = [warning_line(m) for m in warnings]
    if conflicts:
        said.append(warning_line(conflicts_warning(conflicts)))
    return "".join(said)


def tally_text(result: Tally, fmt: str, width: int | None = None) -> str:
    """What ``stockade tally --format FMT`` prints on stdout for ``result``; the text's
    rows laid out in ``width`` columns (None: each on one line; the other formats are
    for other programs, never wrapped)."""
    if fmt == "text":
        return to_text(result, width).rstrip("\n") + "\n"
    if fmt == "md":
        render = to_markdown
    elif fmt == "html":
        render = to_html
    else:
        from stockade.core.reads import tally_formats

        render = {"bbcode": tally_formats.to_bbcode, "csv": tally_formats.to_csv}[fmt]
    return render(result).rstrip("\n") + "\n"


def render(report: TallyReport, args: Namespace | argspec.Namespace) -> tuple[str, str]:
    """What ``stockade tally`` with ``args`` prints for ``report``: (stderr, stdout),
    before ``visible`` (the caller prints through it)."""
    err = warnings_text(report.warnings, report.conflicts)
    if args.json:
        from stockade.core.cli import jsonout

        return err, jsonout.reply_text("tally", at=args.at, **to_json(report.tally)) + "\n"
    return err, tally_text(report.tally, args.format, chosen(args))


# ------------------------------------------------------------------- the store
Key = tuple[str, "int | None"]  # (FILE as given, --at)


def _entries(payload: bytes | None) -> dict[Key, list[object]]:
    """The rows a tally entry holds, by key ({} for none, or one not as written)."""
    if payload is None:
        return {}
    import json

    try:
        held = json.loads(payload)
        if held.get("v") != VERSION:
            return {}
        return {(row[0], row[1]): row for row in held["entries"]}
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return {}


def lookup(
    resolved: str, file: str, at: int | None, content: tuple[int, str]
) -> TallyReport | None:
    """The report kept for ``tally FILE [--at N]`` on the log at ``resolved`` whose
    bytes are ``content`` (their length and digest), or None."""
    row = _entries(derived.read_entry(resolved, KIND, content)).get((file, at))
    if row is None:
        return None
    try:
        _, _, warnings, conflicts, tally = row
        if not (
            isinstance(warnings, list)
            and all(isinstance(w, str) for w in warnings)
            and isinstance(conflicts, list)
            and all(type(s) is int for s in conflicts)
            and isinstance(tally, list)
        ):
            return None
        return TallyReport(Tally.from_row(tally), warnings, conflicts)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None


def keep(
    resolved: str, file: str, at: int | None, content: tuple[int, str], report: TallyReport
) -> bool:
    """Keep ``report`` for ``tally FILE [--at N]`` on the log at ``resolved``, folded
    from bytes whose length and digest are ``content`` (read or written by this
    process). Best effort."""
    entries = _entries(derived.read_entry(resolved, KIND, content))
    entries.pop((file, at), None)
    while len(entries) >= MAX_ENTRIES:
        del entries[next(iter(entries))]
    entries[(file, at)] = [file, at, report.warnings, report.conflicts, report.tally.row()]
    import json

    payload = json.dumps({"v": VERSION, "entries": list(entries.values())})
    return derived.write_entry(resolved, KIND, content, payload.encode("ascii"))


__all__ = [
    "TallyReport",
    "conflicts_warning",
    "keep",
    "lookup",
    "render",
    "tally_text",
    "warning_line",
    "warnings_text",
]
