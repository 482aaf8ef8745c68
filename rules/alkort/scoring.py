"""End of a deal and its score (docs/rules/alkort.md B9).

Only the side that reaches five tricks scores: the run of tricks its side won
from trick 1 when that run is five or more (múkur 5, an n-card stroke n),
otherwise 1. The deal stops as soon as no further trick can change that.

>>> deal_over([0, 0, 0, 0, 0, 1], play_out=False)
True
>>> score([0, 0, 0, 0, 0, 0, 0, 1])
(0, 7, 'stroke', 7)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.alkort.state import Kind, State, side_of
from rules.core import outcome_from_scores

TRICKS_PER_DEAL = 9


def deal_over(sides: Sequence[int], *, play_out: bool) -> bool:
    """After the tricks won by ``sides`` (in order), is the deal over?"""
    played = len(sides)
    if played == TRICKS_PER_DEAL:
        return True
    if play_out:
        return False
    b = sum(sides)
    a = played - b
    return (a >= 5 and b >= 1) or (b >= 5 and a >= 1)


def score(sides: Sequence[int]) -> tuple[int, int, Kind, int]:
    """``(side, points, kind, run)`` for a finished deal's trick winners."""
    b = sum(sides)
    winner = 1 if b >= 5 else 0
    first = sides[0]
    run = 0
    for side in sides:
        if side != first:
            break
        run += 1
    if winner == first and run >= 5:
        return winner, run, ("muk" if run == 5 else "stroke"), run
    return winner, 1, "simple", run


def outcome(state: State) -> dict[str, Any] | None:
    """None while playing; else each seat's side score, places and winners."""
    match = state.match
    if not match.ended:
        return None
    return outcome_from_scores(
        [match.scores[side_of(s)] for s in range(match.players)],
        lower_is_better=False,
    )
