"""Knocking (docs/rules/allegra.md §7.3-§7.4): who may knock, and the exchange's choices.

The exchange moves three cards: the knocker K puts the drawn card at ``k1`` in
Area(K) and takes the card O there into hand; the drawer A takes the card T at
``k2`` (another cell of Area(K)) and puts it at ``a1`` in Area(A), discarding
the card S there; O then fills ``k2``. ``k1`` is protected (the gift), holes are
never targets, and the areas may overlap, so each choice is offered only when
the rest of the exchange can still be completed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.allegra.geometry import Geometry


def _occupied(cards: Sequence[int | None], cells: Sequence[int]) -> list[int]:
    return [i for i in cells if cards[i] is not None]


def can_be_given(geo: Geometry, cards: Sequence[int | None], a: int, k: int) -> bool:
    """``canBeGiven(A, K)``: some k1 ≠ k2 in Area(K) and a1 ∉ {k1, k2} in Area(A)."""
    occ_k = _occupied(cards, geo.area[k])
    occ_a = _occupied(cards, geo.area[a])
    if len(occ_k) >= 2 and len(occ_a) >= 3:
        return True
    return bool(k1_choices(geo, cards, a, k))


def k1_choices(geo: Geometry, cards: Sequence[int | None], a: int, k: int) -> list[int]:
    """Cells where K may put the gift: those that admit a completion."""
    occ_k = _occupied(cards, geo.area[k])
    occ_a = _occupied(cards, geo.area[a])
    if len(occ_k) >= 2 and len(occ_a) >= 3:
        return occ_k
    return [
        k1
        for k1 in occ_k
        if any(k2 != k1 and _a1_exists(occ_a, k1, k2) for k2 in occ_k)
    ]


def k2_choices(
    geo: Geometry, cards: Sequence[int | None], a: int, k: int, k1: int
) -> list[int]:
    """Cells A may take from: occupied in Area(K), not the gift, with an a1 left."""
    occ_a = _occupied(cards, geo.area[a])
    return [
        k2
        for k2 in geo.area[k]
        if k2 != k1 and cards[k2] is not None and _a1_exists(occ_a, k1, k2)
    ]


def a1_choices(
    geo: Geometry, cards: Sequence[int | None], a: int, k1: int
) -> list[int]:
    """Cells where A may put T (k2 is a hole by now, so it is excluded)."""
    return [i for i in geo.area[a] if i != k1 and cards[i] is not None]


def _a1_exists(occ_a: list[int], k1: int, k2: int) -> bool:
    return any(i != k1 and i != k2 for i in occ_a)
