"""The marks and short words the screens show, each with what it means: one
declaration that the help screen's legend, the ``help`` verb (``help US#``, ``help ⑂``)
and the history's marks all read, so a player can learn a sign where it is shown.

The panel's numbers are worded from the rules that make them: a Guard's capacity is
``core.rules.guarding.capacity`` (5 x its US#, A20.51), each kind's US# is
``core.model.units.US_NUMBER``.
"""

from __future__ import annotations

import msgspec

from stockade.core.model.units import UNARMED_COUNTER, US_NUMBER


class Sign(msgspec.Struct, frozen=True):
    """One mark or short word, as shown (``mark``), and what it says (``means``).

    ``word`` is the word a history line adds in brackets beside the mark
    (``[superseded]``), "" where none is; ``spellings`` are what ``help`` takes for it besides
    the mark itself (``us``, ``fork``)."""

    mark: str
    means: str
    word: str = ""
    spellings: tuple[str, ...] = ()


def _sizes() -> str:
    """``squad 3, HS or crew 2, leader or hero 1``: each kind's US#, from the table."""
    return (
        f"squad {US_NUMBER['squad']}, HS or crew {US_NUMBER['hs']}, "
        f"leader or hero {US_NUMBER['leader']}"
    )


# The usage a Guard's line shows (``GuardView.usage``) and its meaning; the key is the
# meaning in one line of a side panel at 80x24 (35 columns), for a key under "Guards".
GUARD_USAGE = Sign(
    "US# 6/15",
    "a Guard's prisoners' unit size (US#) / the most it may guard: 5 x its own US# "
    f"(A20.51); US# is {_sizes()}",
    spellings=("us#", "us", "usage", "unit size"),
)
GUARD_USAGE_KEY = "US# held/most: 5 x its own (A20.51)"

# An unarmed counter as the roster, the panels and the tally show it; the brackets are
# Stockade's notation (core/data/rulings.toml, "Unarmed counters").
UNARMED_SIGN = Sign(
    UNARMED_COUNTER,
    "an unarmed unit's white counter, as ASL prints it: FP (1), only in CC vs "
    "Personnel (A20.5); range 0, no fire on the IFT; morale 6, yet it never breaks: a "
    "failed MC Casualty-Reduces it (A20.54). Squad or HS size, as its kind says. "
    "[was 4-6-7 squad]: what it was before its capture, kept for VP though A20.51 "
    "takes its identity (a crew stays worth 2, A20.5): Stockade's notation, help rulings",
    spellings=("unarmed", "unarmed counter", "was", "[was]", "1-0-6"),
)

# Each part of the screen, with the signs it shows, in the order a player reads it.
PANEL_SIGNS: tuple[Sign, ...] = (
    Sign(
        "CVP",
        "Casualty Victory Points: banked now, and what they would be if the game ended "
        "now (prisoners still guarded count double, A20.1)",
    ),
    Sign("⚑", "the side's flags: its ELR, No Quarter, its nationality's A20 rules"),
    Sign("◆", "one of the side's Guards, with its prisoners under it", spellings=("guard",)),
    GUARD_USAGE,
    Sign(
        "⚠ OVER",
        "the Guard holds more US# than it may: free or exchange the excess (A20.51)",
        spellings=("over",),
    ),
    Sign("└", "a prisoner under its Guard, with its own US#"),
    Sign("·", "a limit on the Guard or the unit above (its rule named)"),
    Sign("⛓", "one of the side's units held by the enemy, and by which Guard"),
    Sign("○", "an unarmed unit of the side (escaped, freed or abandoned)"),
    UNARMED_SIGN,
    Sign("✓ / ✗", "may / may not now (escape, rearm), with the rule that says so"),
    Sign("✝", "eliminated"),
    Sign("⇥", "escorted off the map (A20.53), or exited for Exit VP"),
)

HISTORY_SIGNS: tuple[Sign, ...] = (
    Sign("↶", "undone: out of the game; redo puts it back", "undone", ("undone",)),
    # not "abandoned": that is A20's word for prisoners set free (A20.5, A20.53)
    Sign(
        "⑂",
        "superseded: undone, then a new entry was made in its place, so redo can no "
        "longer put it back (it stays in the file)",
        "superseded",
        ("superseded", "fork", "branch", "abandoned branch"),
    ),
    Sign("✗", "struck: taken out by a strike (unstrike puts it back)", "struck", ("struck",)),
    Sign(
        "⚠",
        "CONFLICT: the entry no longer holds after an earlier change; strike or fix it",
        "CONFLICT",
        ("conflict",),
    ),
    Sign("──", "a phase began (a heading between the entries)"),
)

# the history's mark for each status an entry may have (``core.log.game_timeline``)
ENTRY_SIGNS: dict[str, Sign] = {
    "undone": HISTORY_SIGNS[0],
    "abandoned": HISTORY_SIGNS[1],
    "struck": HISTORY_SIGNS[2],
    "conflict": HISTORY_SIGNS[3],
}

LEGEND: tuple[tuple[str, tuple[Sign, ...]], ...] = (
    ("side panels", PANEL_SIGNS),
    ("history", HISTORY_SIGNS),
)


def signs_named(text: str) -> list[Sign]:
    """The signs ``text`` is (a mark as shown, a word of it, or a spelling): ``⚠`` is
    both a Guard over its capacity and an entry in conflict."""
    said = " ".join(text.lower().split())
    if not said:
        return []
    return [
        sign
        for _, signs in LEGEND
        for sign in signs
        if said == sign.mark.lower()
        or said in sign.spellings
        or (said != "/" and said in sign.mark.lower().split())
    ]
