"""Scoring an Allegra round and the match (§10 step 3, §12).

>>> round_scores(Rules(), [18, 32, 22], 2)
([18, 32, 44], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.allegra.options import Rules
from rules.allegra.state import AllegraState, RoundResult
from rules.core import outcome_from_scores


def outcome(state: AllegraState) -> dict[str, Any] | None:
    """None while playing; else the totals, places and winners (lowest total wins)."""
    if state.phase != "over":
        return None
    return outcome_for(state.rules, state.totals, state.results)


def round_scores(
    rules: Rules, raw: Sequence[int], trigger: int
) -> tuple[list[int], bool]:
    """§10 step 3: the trigger's raw score is doubled unless it is the lowest.

    >>> round_scores(Rules(), [18, 32, 22], 2)
    ([18, 32, 44], True)
    >>> round_scores(Rules(), [22, 32, 22], 2)
    ([22, 32, 22], False)
    """
    mine = raw[trigger]
    others = [r for q, r in enumerate(raw) if q != trigger]
    if rules.tie_counts_as_lowest:
        not_lowest = any(r < mine for r in others)
    else:
        not_lowest = any(r <= mine for r in others)
    doubled = not_lowest and (mine > 0 or not rules.double_only_positive)
    scores = list(raw)
    if doubled:
        scores[trigger] = 2 * mine
    return scores, doubled


def outcome_for(
    rules: Rules, totals: tuple[int, ...], results: tuple[RoundResult, ...]
) -> dict[str, Any]:
    """§12: lowest total wins; ties shared or split by later rounds first."""
    if rules.game_tie_break == "shared":
        return outcome_from_scores(totals, lower_is_better=True)
    keys = [
        (t, *(r.scores[s] for r in reversed(results))) for s, t in enumerate(totals)
    ]
    places = [1 + sum(1 for o in keys if o < k) for k in keys]
    return outcome_from_scores(totals, lower_is_better=True, places=places)
