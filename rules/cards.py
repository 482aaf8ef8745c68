"""French playing cards in two-character notation.

A card is a plain string: rank then suit, ``"QH"`` (queen of hearts), ``"TC"``
(ten of clubs). Ranks are ``2 3 4 5 6 7 8 9 T J Q K A`` and suits ``C D H S``.
Keeping cards as strings makes events and views JSON-safe without conversion,
and the helpers here give them structure where a game needs it.

>>> parse_card("qh")
'QH'
>>> rank_of("TC"), suit_of("TC")
('T', 'C')
>>> deck52()[:3]
['2C', '3C', '4C']
>>> len(deck32())
32
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.core import MalformedAction

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}

Card = str

_ALL = frozenset(r + s for s in SUITS for r in RANKS)


def is_card(text: object) -> bool:
    """True for a well-formed card string in canonical (upper-case) form."""
    return isinstance(text, str) and text in _ALL


def parse_card(text: object) -> Card:
    """Return the canonical form of ``text`` or raise :class:`MalformedAction`.

    Accepts lower case and ``10`` for the ten (``"10h"`` → ``"TH"``), so that a
    person typing a card is understood; everything the engine emits is canonical.
    """
    if not isinstance(text, str):
        raise MalformedAction(f"A card must be a string like 'QH', not {text!r}")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if t not in _ALL:
        raise MalformedAction(
            f"{text!r} is not a card: write rank then suit, e.g. 'QH' or 'TC' "
            f"(ranks {' '.join(RANKS)}, suits {' '.join(SUITS)})"
        )
    return t


def rank_of(card: Card) -> str:
    return card[0]


def suit_of(card: Card) -> str:
    return card[1]


def card_name(card: Card) -> str:
    """English name: ``"QH"`` → ``"queen of hearts"``."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def deck_of(ranks: str) -> list[Card]:
    """Unshuffled deck: suits in ``C D H S`` order, ranks ascending in each suit."""
    return [r + s for s in SUITS for r in ranks]


def deck52() -> list[Card]:
    """The 52-card deck in its unshuffled order (2C … AC, 2D … AS)."""
    return deck_of(RANKS)


def deck32() -> list[Card]:
    """The 32-card piquet deck (7 to ace in each suit), unshuffled."""
    return deck_of("789TJQKA")


def sort_cards(cards: Iterable[Card], ranks: str = RANKS) -> list[Card]:
    """Cards sorted by suit then rank, for stable display and comparison."""
    return sorted(cards, key=lambda c: (SUITS.index(c[1]), ranks.index(c[0])))
