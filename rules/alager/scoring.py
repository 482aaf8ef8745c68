"""The end of an Alager deal: penalties (§11), eliminations and the next dealer (§12)."""

from __future__ import annotations

from typing import Any

from rules.alager.hands import hand_value
from rules.alager.options import MAX_DEALS_PER_MATCH
from rules.alager.state import AlagerState, DealResult
from rules.core import outcome_from_scores


def outcome(state: AlagerState) -> dict[str, Any] | None:
    """None while playing; the match's scores, places and winners once it is over.

    Fewer penalty points is better; in elimination mode the survivor comes
    first, then later eliminations, and within a deal fewer points (E-5).
    """
    if state.phase != "over":
        return None
    scores = list(state.penalties)
    if state.rules.end_mode != "elimination":
        return outcome_from_scores(scores, lower_is_better=True)
    never = state.deal + 1
    keys = [
        (-(never if e is None else e), p)
        for e, p in zip(state.eliminated_in, scores, strict=True)
    ]
    places = [1 + sum(1 for o in keys if o < k) for k in keys]
    return outcome_from_scores(scores, lower_is_better=True, places=places)


def score_deal(
    state: AlagerState, reason: str, specials: tuple[tuple[int, str], ...]
) -> DealResult:
    """Score the deal in play (§11) and decide what comes next (§12)."""
    rules = state.rules
    n = state.players
    penalties = list(state.penalties)
    special_seats = {s for s, _ in specials}
    for s in special_seats:  # the owner strikes off one point (D-17, D-18)
        penalties[s] -= 1
        if not rules.allow_negative_penalties:
            penalties[s] = max(0, penalties[s])
    values: list[int | None] = [None] * n
    for s in state.order:
        values[s] = hand_value(state.hands[s])
    others = [s for s in state.order if s not in special_seats]
    penalised: list[int] = []
    if others:
        low = min(values[s] for s in others)  # type: ignore[type-var]
        penalised = sorted(s for s in others if values[s] == low)
        if rules.tie_rule == "none" and len(penalised) > 1:
            penalised = []
    knocker = state.knocker if reason == "konec" else None
    for s in penalised:
        penalties[s] += rules.knocker_lowest_penalty if s == knocker else 1
    changes = [p - q for p, q in zip(penalties, state.penalties, strict=True)]
    eliminated: list[int] = []
    active = list(state.order)
    limit = rules.penalty_limit
    if rules.end_mode == "elimination":
        eliminated = sorted(s for s in active if penalties[s] >= limit)
        active = [s for s in active if s not in eliminated]
        over = len(active) <= 1
    elif rules.end_mode == "first_to_limit":
        over = any(p >= limit for p in penalties)
    else:
        over = state.deal >= rules.num_deals
    over = over or state.deal >= MAX_DEALS_PER_MATCH
    next_dealer = None if over else next_dealer_after(state, penalised, set(active))
    return DealResult(
        deal=state.deal,
        reason=reason,
        knocker=state.knocker if reason == "konec" else None,
        specials=specials,
        hands=tuple(state.hands[s] if s in state.order else () for s in range(n)),
        values=tuple(values),
        penalised=tuple(penalised),
        changes=tuple(changes),
        penalties=tuple(penalties),
        eliminated=tuple(eliminated),
        next_dealer=next_dealer,
    )


def next_dealer_after(
    state: AlagerState, penalised: list[int], active: set[int]
) -> int:
    """D-19: rotation, or the (first clockwise) loser with ``loser_deals``."""
    n = state.players
    clockwise = [(state.dealer + i) % n for i in range(1, n + 1)]
    if state.rules.dealer_rule == "loser_deals":
        for s in clockwise:
            if s in penalised and s in active:
                return s
    return next(s for s in clockwise if s in active)
