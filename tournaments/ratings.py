"""Seed ratings: the one place tournaments read ratings from the stats app.

``rating_get`` answers None until ``stats.selectors.rating_get(user, game)``
exists; then it returns that rating's ``display`` value (μ − 3σ, the figure
the stats API shows), so switching over is this one function.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User


def rating_get(*, user: User, game: str) -> float | None:
    """The player's displayed rating in ``game``, or None if they have none."""
    try:
        from stats.selectors import rating_get as stats_rating_get  # type: ignore[attr-defined]
    except ImportError:
        return None
    rating: Any = stats_rating_get(user, game)
    if rating is None:
        return None
    display = (
        rating.get("display")
        if isinstance(rating, dict)
        else getattr(rating, "display", None)
    )
    return float(display) if display is not None else None
