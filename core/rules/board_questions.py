"""What only the players can see: the A20.21 board questions and their verdict.

The core cannot see the map (adjacency, rout paths, Interdiction), so the surrender
walk-through asks the players; this module turns their answers into a verdict that
names the rule. The rest (broken, nationality, No Quarter, capacity) is checked by
``core.rules.surrender`` when the surrender is entered.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BoardQuestion:
    name: str
    text: str
    stop_answer: str  # the answer that means: no surrender this way
    why: str  # rule first
    reasons: tuple[str, ...]  # the surrender reasons it applies to


QUESTIONS: tuple[BoardQuestion, ...] = (
    BoardQuestion(
        "adjacent",
        "ADJACENT to (or, if Disrupted, in the Location of) a Known, Good Order, armed "
        "enemy Infantry/Cavalry unit?",
        "no",
        "A20.21: only a unit ADJACENT to a Known, Good Order, armed enemy Infantry/Cavalry "
        "unit surrenders this way; it routs (or fails to) as usual",
        ("rtph", "encircled", "disrupted", "hob"),
    ),
    BoardQuestion(
        "free_rout",
        "Can it rout away with no Interdiction and no Low Crawl (its whole current path)?",
        "yes",
        "A20.21: it can rout away free of Interdiction and without Low Crawl, so it routs "
        "instead of surrendering",
        # Disrupted, Encircled and HOB units surrender even with a clean rout path.
        ("rtph",),
    ),
)


def board_verdict(reason: str, answers: dict[str, str]) -> tuple[bool | None, str]:
    """(True: it surrenders, False: it does not, None: questions unanswered), and why."""
    asked = [q for q in QUESTIONS if reason in q.reasons]
    if not asked:
        return True, "no board questions for this kind of surrender"
    for question in asked:
        answer = answers.get(question.name, "")
        if not answer:
            return None, "answer the questions about the board"
        if answer == question.stop_answer:
            return False, question.why
    if reason in ("encircled", "disrupted", "hob"):
        return True, (
            "A20.21: a Disrupted, Encircled or HOB-surrendering unit surrenders "
            "even with a free rout path (the captor may refuse it: No Quarter, A20.3)"
        )
    return True, (
        "A20.21: it surrenders to that enemy unit (the captor may refuse it and "
        "invoke No Quarter, A20.3)"
    )
