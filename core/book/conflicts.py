"""What a player reads of the entries that no longer hold (a log written by an older
version whose rules were looser, or a strike that pulled an entry's ground away): each
named with its rule, and what to do about it. The game stays usable meanwhile: the fold
skips each until it is amended or struck."""

from __future__ import annotations

from stockade.core.book.describe import sentence_for
from stockade.core.book.game import Game
from stockade.core.model.errors import Refusal
from stockade.core.model.plural import no_longer_hold

FIX = "amend {seq} with what the board showed, or strike {seq}"


def ruled(refusal: Refusal) -> str:
    """``A11: text``, or the text alone when the refusal cites no rule."""
    return f"{refusal.rule}: {refusal.text}" if refusal.rule else refusal.text


def conflict_row(game: Game, seq: int) -> tuple[str, str]:
    """``conflict_line`` as a row: ``entry 5 ``, then the words (a narrow terminal
    wraps them under themselves)."""
    refusal = game.conflicts[seq]
    entry = sentence_for(game.timeline.standing(game.records[seq - 1]), game)
    return (
        f"entry {seq} ",
        f"({entry}) no longer holds: {ruled(refusal)}; to fix it: {FIX.format(seq=seq)}",
    )


def conflict_line(game: Game, seq: int) -> str:
    """``entry 5 (T1 PFPh: g1 in Melee) no longer holds: A11: ...; to fix it: amend 5
    with what the board showed, or strike 5``."""
    return "".join(conflict_row(game, seq))


def conflicts_notice(game: Game) -> str:
    """One line for a game opened with entries in conflict, "" when none: how many,
    the first with its rule, and that the game goes on without them."""
    seqs = sorted(game.conflicts)
    if not seqs:
        return ""
    first = game.conflicts[seqs[0]]
    n = len(seqs)
    which = ", ".join(map(str, seqs[:6])) + (" ..." if n > 6 else "")
    return (
        f"{no_longer_hold(n)} "
        f"({which}; entry {seqs[0]}: {ruled(first)}) and "
        f"{'is' if n == 1 else 'are'} skipped; the game goes on. To fix "
        f"{'it' if n == 1 else 'each'}: {FIX.format(seq=seqs[0])} "
        "(history: a amends, x strikes)"
    )
