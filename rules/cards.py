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

from rules.core import MalformedAction

RANKS = "23456789TJQKA"
SUITS = "CDHS"

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
    """The rank of a card: ``"QH"`` → ``"Q"``."""
    return card[0]


def suit_of(card: Card) -> str:
    """The suit of a card: ``"QH"`` → ``"H"``."""
    return card[1]


def deck_of(ranks: str) -> list[Card]:
    """Unshuffled deck: suits in ``C D H S`` order, ranks ascending in each suit."""
    return [r + s for s in SUITS for r in ranks]


def deck52() -> list[Card]:
    """The 52-card deck in its unshuffled order (2C … AC, 2D … AS)."""
    return deck_of(RANKS)


def deck32() -> list[Card]:
    """The 32-card piquet deck (7 to ace in each suit), unshuffled."""
    return deck_of("789TJQKA")
