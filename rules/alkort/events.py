"""Alkort's event types and the payloads that need the rules to build.

Types are stable strings (never Python paths), all at version 1. The payloads
are documented with JSON examples in ``docs/rules-api-alkort.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.alkort.state import Match
from rules.alkort.tables import DECK, reveal_card
from rules.core import Event

MATCH_STARTED = "alkort.match_started"
CARDS_DEALT = "alkort.cards_dealt"
EXCHANGE_PASSED = "alkort.exchange_passed"
STOCK_EXCHANGED = "alkort.stock_exchanged"
PARTNERS_REVEALED = "alkort.partners_revealed"
CARD_PLAYED = "alkort.card_played"
TRICK_WON = "alkort.trick_won"
DEAL_SCORED = "alkort.deal_scored"
MATCH_ENDED = "alkort.match_ended"

STOCK_SIZE = 8
HAND_SIZE = 9


def deal_from(deck: Sequence[str], players: int, forehand: int) -> list[list[str]]:
    """B3: three rounds of three cards each, from forehand clockwise."""
    hands: list[list[str]] = [[] for _ in range(players)]
    pos = 0
    for _round in range(3):
        for k in range(players):
            hands[(forehand + k) % players].extend(deck[pos : pos + 3])
            pos += 3
    return hands


def cards_dealt(match: Match, number: int, dealer: int) -> Event:
    """The deal event for deal ``number`` (1-based), with the next deck."""
    deck, k, _ = match.chance.next_deal(DECK)
    players = match.players
    forehand = (dealer + 1) % players
    dealt = HAND_SIZE * players
    payload: dict[str, Any] = {
        "deal": number,
        "dealer": dealer,
        "forehand": forehand,
        "hands": deal_from(deck, players, forehand),
        "stock": list(deck[dealt : dealt + STOCK_SIZE]),
        "dead": list(deck[dealt + STOCK_SIZE :]),
        "deck": list(deck),
        "shuffle": k,
    }
    return Event(CARDS_DEALT, 1, payload)


def partners_revealed(hands: Sequence[Sequence[str]]) -> Event:
    """B5: every player shows their partner one card (null for ``NONE``)."""
    players = len(hands)
    return Event(
        PARTNERS_REVEALED,
        1,
        {
            "reveals": [
                {"seat": s, "partner": (s + 2) % players, "card": reveal_card(hands[s])}
                for s in range(players)
            ]
        },
    )
