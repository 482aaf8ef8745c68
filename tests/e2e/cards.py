"""Cards as the page names them, for the browser tests' look-ups."""

from __future__ import annotations

RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine"}
RANKS |= {"8": "eight", "7": "seven", "6": "six", "5": "five", "4": "four"}
RANKS |= {"3": "three", "2": "two"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def spoken(card: str) -> str:
    """A card as a screen reader should hear it: "QH" → "queen of hearts"."""
    return f"{RANKS[card[0]]} of {SUITS[card[1]]}"


def shown(card: str) -> str:
    """A card as it is printed on it: "QH" → "Q♥", "TC" → "10♣"."""
    return f"{'10' if card[0] == 'T' else card[0]}{SYMBOLS[card[1]]}"


def card_name(card: str, does: str, czech: str | None = None) -> str:
    """A card button's name: what the card shows, the card in words (its
    Czech name first on the 32-card deck), then what pressing it does
    ("J♦, jack of diamonds: play")."""
    words = f"{czech} ({spoken(card)})" if czech else spoken(card)
    return f"{shown(card)}, {words}: {does}"
