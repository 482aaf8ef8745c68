"""Simulated matches for the statistics tests."""

from __future__ import annotations

from stats.simulate import Match


def outcome_forced(
    match: Match, places: list[int], scores: list[int] | None = None
) -> Match:
    """The same match with a chosen final outcome (the statistics read only
    that): ``places``, and ``scores`` (by default the places themselves)."""
    winners = [s for s, p in enumerate(places) if p == 1]
    outcome = {
        "scores": list(places) if scores is None else scores,
        "places": places,
        "winners": winners,
    }
    last = match.events[-1]
    events = [
        *match.events[:-1],
        type(last)(last.type, last.version, {**last.payload, "outcome": outcome}),
    ]
    return Match(
        match.game,
        match.players,
        match.options,
        match.seed,
        events,
        match.seats,
        outcome,
    )
