"""Alager hand valuation, special hands and the mariáš (32-card) display names.

A hand is three French cards (``"QH"``). Its value is the highest total of card
values in any one suit (docs/rules/alager.md §2, D-21): 2–9 count their face value,
T J Q K count 10 and the ace 11.

>>> hand_value(("AC", "3D", "2D"))      # V6: the lone ace beats the pair
11
>>> special_kind(("QH", "KH", "AH"), hori_enabled=False)
'alager'
>>> special_kind(("AC", "AD", "AS"), hori_enabled=True)
'hori'
>>> mariash_name("QS")
'zelený svršek'
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import RANKS, SUITS, Card

RANK_VALUES: dict[str, int] = {r: min(int(r), 10) if r.isdigit() else 10 for r in RANKS}
RANK_VALUES["A"] = 11

#: Value of every card, for the hot path (hand_value is called on every turn).
CARD_VALUES: dict[Card, int] = {r + s: RANK_VALUES[r] for s in SUITS for r in RANKS}

ALAGERS: frozenset[frozenset[Card]] = frozenset(
    frozenset({"Q" + s, "K" + s, "A" + s}) for s in SUITS
)

SPECIAL_KINDS = ("alager", "hori")


def hand_value(hand: Sequence[Card]) -> int:
    """The highest single-suit total of a three-card hand (D-21).

    >>> [hand_value(h) for h in (("QH", "KH", "AH"), ("7C", "9C", "8D"), ("2H", "5S", "9D"))]
    [31, 16, 9]
    """
    a, b, c = hand
    va, vb, vc = CARD_VALUES[a], CARD_VALUES[b], CARD_VALUES[c]
    sa, sb, sc = a[1], b[1], c[1]
    if sa == sb:
        if sb == sc:
            return va + vb + vc
        return max(va + vb, vc)
    if sa == sc:
        return max(va + vc, vb)
    if sb == sc:
        return max(vb + vc, va)
    return max(va, vb, vc)


def is_hori(hand: Sequence[Card]) -> bool:
    """Three aces (meaningful only when the Hoří variant is on)."""
    return len(hand) == 3 and all(c[0] == "A" for c in hand)


def special_kind(hand: Sequence[Card], *, hori_enabled: bool) -> str | None:
    """``"alager"``, ``"hori"`` (only with the variant) or None for an ordinary hand."""
    if frozenset(hand) in ALAGERS:
        return "alager"
    if hori_enabled and is_hori(hand):
        return "hori"
    return None


# ---------------------------------------------------------------- mariáš names
#
# D-1: the engine speaks French notation; a UI may show the Czech names of the
# German-suited mariáš deck. The suit adjective agrees with the rank's gender.

MARIASH_RANKS: dict[str, tuple[str, str]] = {
    "7": ("sedma", "f"),
    "8": ("osma", "f"),
    "9": ("devítka", "f"),
    "T": ("desítka", "f"),
    "J": ("spodek", "m"),
    "Q": ("svršek", "m"),
    "K": ("král", "m"),
    "A": ("eso", "n"),
}
MARIASH_SUITS: dict[str, str] = {"H": "srdce", "D": "kule", "C": "žaludy", "S": "listy"}
_SUIT_ADJECTIVES: dict[str, dict[str, str]] = {
    "H": {"f": "srdcová", "m": "srdcový", "n": "srdcové"},
    "D": {"f": "kulová", "m": "kulový", "n": "kulové"},
    "C": {"f": "žaludská", "m": "žaludský", "n": "žaludské"},
    "S": {"f": "zelená", "m": "zelený", "n": "zelené"},
}


def mariash_name(card: Card) -> str:
    """Czech name of a 32-card-deck card: ``"AH"`` → ``"srdcové eso"``.

    Raises KeyError for a card the mariáš deck does not have (2–6).
    """
    rank, gender = MARIASH_RANKS[card[0]]
    return f"{_SUIT_ADJECTIVES[card[1]][gender]} {rank}"


#: Every card of the 32-card deck with its mariáš name, for views and UIs.
MARIASH_NAMES: dict[Card, str] = {
    r + s: mariash_name(r + s) for s in SUITS for r in MARIASH_RANKS
}
