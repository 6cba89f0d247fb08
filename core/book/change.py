"""What one write did to the book: the ``Change`` every write (and preview) returns.

``Game.submit``, ``undo``, ``redo``, ``undo_to``, ``strike`` and ``unstrike`` (and
the previews, which write nothing) each return one ``Change``: the records appended,
the history entries added / undone / struck / restored, the **later entries whose
outcome differs** (compared entry by entry between the fold before and the fold
after), the units whose status, Guard, Location, counter or Melee changed, and each side's
CVP delta, banked and "if the game ended now". It is a frozen msgspec Struct, so the
CLI's ``--json`` encodes it as it is.

``consequences(change, totals)`` words it for the player:
"entry 12 now frees g1 (a1 held it); American if-ended CVP 12 -> 8".

The deltas are exact but cheap to make (O(what the change touched), so an undo stays
flat at any depth); the totals a sentence quotes are the caller's, from the tally it
already has (``totals_of``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import msgspec

from stockade.core.model.plural import entries


class UnitChange(msgspec.Struct, frozen=True):
    """One field of one unit that is different after the change ("" = none / gone)."""

    handle: str
    field: str  # status / guard / location / counter / melee ("Melee" or "")
    before: str
    after: str


class CvpDelta(msgspec.Struct, frozen=True):
    """A side's CVP change: banked, and "if the game ended now" (banked + projection)."""

    side: str
    banked: int
    if_ended: int


class LaterEntry(msgspec.Struct, frozen=True):
    """A later entry that stays in the history but now does something else."""

    seq: int
    sentence: str  # the entry as the history shows it (after the change)
    differences: list[str]  # one phrase per difference: "now frees g1 (a1 held it)"
    conflict: str = ""  # why it no longer holds, when it now conflicts
    in_part: str = ""  # what part of it no longer holds, when the rest still does


class VerdictShift(msgspec.Struct, frozen=True):
    """The verdict on the Victory Conditions before and after the change ("German
    win", "draw", "Russian win (immediately)"; "" = no Victory Conditions)."""

    before: str
    after: str
    headline: str  # the verdict's line after the change (a preview: what it would be)


class Freed(msgspec.Struct, frozen=True):
    """A prisoner the change set free because of what befell its Guard (captured,
    surrendered, eliminated with none to take over, split or reduced), or whose capture
    A20.221 voided. The player is told each one: a prisoner never goes free silently."""

    handle: str
    guard: str  # the Guard that held it
    how: str  # "escaped (unarmed)", "escaped", "given back, armed"
    why: str  # what befell the Guard: "its Guard g2 is now a prisoner"
    rule: str  # the rule applied, or the nearest one when the rules are silent
    ruling: str = ""  # the topic of Stockade's ruling (docs/rulings.md) when it is a choice


class Handed(msgspec.Struct, frozen=True):
    """A prisoner the change passed from one Guard to another without the player naming
    it (a transfer names its own): a Guard split by a capture or deployed, eliminated
    with another taking over, or a squad standing whole again."""

    handle: str
    guard: str  # the Guard that held it
    to: str  # the Guard that holds it now
    why: str  # what befell the Guard: "its Guard a1 was split by a capture"
    rule: str


class Change(msgspec.Struct, frozen=True, kw_only=True):
    action: str  # submit / undo / redo / undo_to / strike / unstrike / amend
    preview: bool = False  # True: nothing was written; this is what the write would do
    target: int = 0  # the entry (strike, unstrike, undo_to) or group (undo, redo) acted on
    appended: list[int] = []  # seqs of the records written
    added: list[int] = []  # domain entries new in the effective history
    undone: list[int] = []  # entries newly undone
    struck: list[int] = []  # entries newly struck
    restored: list[int] = []  # entries back in the effective history (redo, unstrike)
    amended: list[int] = []  # entries whose event is another now (amend, and its undo/redo)
    abandoned: list[int] = []  # undone entries a new entry left behind (no redo now)
    later: list[LaterEntry] = []  # later entries whose outcome differs
    units: list[UnitChange] = []
    cvp: list[CvpDelta] = []  # sides whose CVP changed
    new_conflicts: list[int] = []  # entries that conflict now and did not before
    resolved_conflicts: list[int] = []  # entries that conflicted and no longer do
    conflicts: int = 0  # how many entries conflict after the change
    verdict: VerdictShift | None = None  # set when the change turns the verdict
    freed: list[Freed] = []  # prisoners freed by what befell their Guard
    handed: list[Handed] = []  # prisoners passed to another Guard by what befell theirs

    @property
    def leaves_conflicts(self) -> bool:
        return self.conflicts > 0


def prisoner_sentences(change: Change, told: Collection[str] = ()) -> list[str]:
    """One line per prisoner the change freed or passed to another Guard: who, how,
    why, and the rule (and the ruling, when the rules are silent and the choice is
    Stockade's); none for a freed prisoner in ``told``, whose entry's own lines say
    what became of it."""
    out = []
    for f in change.freed:
        if f.handle in told:
            continue
        cite = f"{f.rule}; Stockade's ruling '{f.ruling}': help rulings" if f.ruling else f.rule
        verb = "would go free" if change.preview else "goes free"
        out.append(f"{f.handle} {verb}, {f.how}: {f.why} [{cite}]")
    for h in change.handed:
        verb = "would be held" if change.preview else "is held"
        out.append(f"{h.handle} {verb} by {h.to} now: {h.why} [{h.rule}]")
    return out


def totals_of(tally: Any) -> dict[str, tuple[int, int]]:
    """(banked, if ended) per side, from a ``core.book.tally.Tally``."""
    return {name: (s.cvp, s.cvp_if_ended) for name, s in tally.sides.items()}


def cvp_sentences(change: Change, totals: dict[str, tuple[int, int]]) -> list[str]:
    """The CVP deltas with their totals. ``totals`` are the tally's as it stands: after
    a write, the totals after it; for a preview, the totals before it."""
    out = []
    for delta in change.cvp:
        banked, if_ended = totals.get(delta.side, (0, 0))
        if change.preview:
            pairs = ((banked, banked + delta.banked), (if_ended, if_ended + delta.if_ended))
        else:
            pairs = ((banked - delta.banked, banked), (if_ended - delta.if_ended, if_ended))
        said = []
        if delta.banked:
            said.append(f"banked CVP {pairs[0][0]} -> {pairs[0][1]}")
        if delta.if_ended:
            said.append(f"if-ended CVP {pairs[1][0]} -> {pairs[1][1]}")
        if said:
            out.append(f"{delta.side} " + ", ".join(said))
    return out


def consequences(change: Change, totals: dict[str, tuple[int, int]] | None = None) -> list[str]:
    """The change's consequences as sentences for the player, most important first:
    later entries whose outcome differs, new and resolved conflicts, CVP."""
    would = change.preview
    out: list[str] = []
    # a strike's: an entry and the board facts it implied, one entry to the player (a
    # redo's reply names its whole entry already: a clock move is no implied fact)
    together = [s for s in (*change.struck, *change.restored) if s != change.target]
    if together and change.action in ("strike", "unstrike"):
        strike = change.action == "strike"
        verb = (
            ("would also strike" if strike else "would also bring back")
            if would
            else ("also struck" if strike else "also brought back")
        )
        out.append(
            f"{verb} entr{'y' if len(together) == 1 else 'ies'} "
            f"{', '.join(map(str, together))}: an entry and the board facts it implied "
            "stand or fall together, as one undo takes them"
        )
    shift = change.verdict
    if shift is not None:
        before, after = shift.before or "no Victory Conditions", shift.after or "none"
        if would:
            out.append(f"would turn the verdict from {before} to {after}: {shift.headline}")
        else:
            out.append(f"verdict: {before} -> {after}: {shift.headline}")
    for entry in change.later:
        if entry.conflict:  # what else it would do matters less than that it fails
            verb = "would no longer hold" if would else "no longer holds"
            out.append(f"entry {entry.seq} ({entry.sentence}) {verb}: {entry.conflict}")
            continue
        out.append(
            f"entry {entry.seq} ({entry.sentence}){' would change' if would else ''}: "
            + "; ".join(entry.differences)
        )
    listed = {entry.seq for entry in change.later}
    for seq in change.new_conflicts:
        if seq not in listed:
            out.append(f"entry {seq} {'would no longer hold' if would else 'no longer holds'}")
    for seq in change.resolved_conflicts:
        if seq not in listed:
            out.append(f"entry {seq} {'would hold' if would else 'holds'} again")
    out += cvp_sentences(change, totals or {})
    if change.conflicts and not would:
        n = change.conflicts
        out.append(
            f"{entries(n)} in conflict: strike or fix "
            f"{'it' if n == 1 else 'them'} (stockade history marks them with '!')"
        )
    return out
