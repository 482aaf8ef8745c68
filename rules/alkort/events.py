"""Alkort's event types: stable names, version 1, JSON-safe payloads.

Every event type of the game is a constant here and nowhere else;
docs/rules-api-alkort.md documents each payload with a JSON example.
"""

from __future__ import annotations

MATCH_STARTED = "alkort.match_started"
CARDS_DEALT = "alkort.cards_dealt"
EXCHANGE_PASSED = "alkort.exchange_passed"
STOCK_EXCHANGED = "alkort.stock_exchanged"
PARTNERS_REVEALED = "alkort.partners_revealed"
CARD_PLAYED = "alkort.card_played"
TRICK_WON = "alkort.trick_won"
DEAL_SCORED = "alkort.deal_scored"
MATCH_ENDED = "alkort.match_ended"

#: Every event type, in the order a match meets them.
EVENT_TYPES = (
    MATCH_STARTED,
    CARDS_DEALT,
    EXCHANGE_PASSED,
    STOCK_EXCHANGED,
    PARTNERS_REVEALED,
    CARD_PLAYED,
    TRICK_WON,
    DEAL_SCORED,
    MATCH_ENDED,
)
