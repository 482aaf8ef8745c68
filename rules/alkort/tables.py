"""Alkort's pack and the static card tables of docs/rules/alkort.md B2, B4, B5 and B6.

Cards are the shared two-character strings (:mod:`rules.cards`). Alkort strips
the fives and tens, leaving 44 cards; everything here is computed once at import
so that the hot paths only do dictionary and set lookups.

>>> len(DECK), DECK[:4], DECK[-1]
(44, ('2C', '3C', '4C', '6C'), 'AS')
>>> STRENGTH["KD"], STRENGTH["8C"], STRENGTH["QH"]
(10, 1, 0)
>>> sorted(HIGH) == sorted(c for c, s in STRENGTH.items() if s >= 2)
True
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.cards import deck_of

#: Cards in each hand, and in the stock (B3); the rest of the pack is dead.
HAND_SIZE = 9
STOCK_SIZE = 8

#: Ranks in the unshuffled order of B2 (no 5, no 10).
RANKS = "2346789JQKA"
#: The unshuffled deck: suit by suit (C, D, H, S), each from 2 up to the ace.
DECK: tuple[str, ...] = tuple(deck_of(RANKS))
#: Position of each card in :data:`DECK`: the canonical sort order of hands.
ORDER: dict[str, int] = {c: i for i, c in enumerate(DECK)}
SUIT_ORDER = {"C": 0, "D": 1, "H": 2, "S": 3}

# Power classes of B6 for one card in one trick. Ranked cards use their
# strength 1..10; these sentinels sit outside that range.
SUPREME = 100
RUBBISH = 0
DEAD = -1

_RANKED: dict[str, int] = {"KD": 10, "2H": 9, "4C": 8, "8S": 7, "9H": 6, "9D": 5}
for _suit in "CDHS":
    _RANKED["A" + _suit] = 4
    _RANKED["J" + _suit] = 3
    _RANKED["6" + _suit] = 2
for _suit in "CDH":
    _RANKED["8" + _suit] = 1

#: Static strength of every card that is not a seven: 1..10 ranked, 0 rubbish.
STRENGTH: dict[str, int] = {c: _RANKED.get(c, RUBBISH) for c in DECK if c[0] != "7"}
RANKED: frozenset[str] = frozenset(_RANKED)
RUBBISH_CARDS: frozenset[str] = frozenset(c for c, s in STRENGTH.items() if s == 0)
SEVENS: frozenset[str] = frozenset(c for c in DECK if c[0] == "7")
#: The 18 cards that beat a led low eight (B4): holding none makes a hand eligible.
HIGH: frozenset[str] = frozenset(c for c, s in STRENGTH.items() if s >= 2)
#: Rubbish twos and threes, and the rubbish cards they capture (B6).
CAPTURES: dict[str, frozenset[str]] = {
    "2": frozenset({"KC", "KH", "KS", "QC", "QD", "QH", "QS"}),
    "3": frozenset({"QC", "QD", "QH", "QS"}),
}

assert len(RANKED) == 21 and len(RUBBISH_CARDS) == 19 and len(HIGH) == 18


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in the canonical order of :data:`DECK`."""
    return tuple(sorted(cards, key=ORDER.__getitem__))


def is_eligible(hand: Iterable[str]) -> bool:
    """B4: the hand may exchange with the stock when it holds no HIGH card."""
    return HIGH.isdisjoint(hand)


def high_cards(hand: Iterable[str]) -> list[str]:
    """The HIGH cards of a hand, in canonical order (why it may not exchange)."""
    return [c for c in sort_hand(hand) if c in HIGH]


def reveal_card(hand: Iterable[str]) -> str | None:
    """B5: the card a player shows their partner, or None for ``NONE``.

    The first card (suit order C, D, H, S) of the highest ranked class in the
    hand; None when the hand holds no ranked card.

    >>> reveal_card(["AS", "JC", "AD", "7H"]), reveal_card(["QH", "7C"])
    ('AD', None)
    """
    best: str | None = None
    best_key = (0, 0)
    for card in hand:
        strength = _RANKED.get(card, 0)
        if strength:
            key = (strength, -SUIT_ORDER[card[1]])
            if key > best_key:
                best, best_key = card, key
    return best


def reveal_forbidden(card: str | None) -> frozenset[str]:
    """Cards the revealer cannot hold, knowing they showed ``card`` (None: NONE).

    A higher ranked class, or the same class in an earlier suit, would have been
    shown instead. The partner may use this; nobody else sees the reveal.

    >>> sorted(reveal_forbidden("8D"))[:3], len(reveal_forbidden(None))
    (['2H', '4C', '6C'], 21)
    """
    if card is None:
        return RANKED
    strength = _RANKED[card]
    suit = SUIT_ORDER[card[1]]
    return frozenset(
        c
        for c, s in _RANKED.items()
        if s > strength or (s == strength and SUIT_ORDER[c[1]] < suit)
    )
