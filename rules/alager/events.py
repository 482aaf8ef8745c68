"""Alager's event types: stable names, version 1, JSON-safe payloads.

Every event type of the game is a constant here and nowhere else;
docs/rules-api-alager.md documents each payload.
"""

from __future__ import annotations

MATCH_STARTED = "alager.match_started"
DEAL_STARTED = "alager.deal_started"
CARD_DISCARDED = "alager.card_discarded"
STOCK_REPLENISHED = "alager.stock_replenished"
CARD_DRAWN = "alager.card_drawn"
CARD_SWAPPED = "alager.card_swapped"
HAND_SWAPPED = "alager.hand_swapped"
PASSED = "alager.passed"
TABLE_REFRESHED = "alager.table_refreshed"
KONEC_CALLED = "alager.konec_called"
FINAL_QUEUE_ADVANCED = "alager.final_queue_advanced"
SPECIAL_ANNOUNCED = "alager.special_announced"
DEAL_ENDED = "alager.deal_ended"
MATCH_ENDED = "alager.match_ended"

#: Every event type, in the order a match meets them.
EVENT_TYPES = (
    MATCH_STARTED,
    DEAL_STARTED,
    CARD_DISCARDED,
    STOCK_REPLENISHED,
    CARD_DRAWN,
    CARD_SWAPPED,
    HAND_SWAPPED,
    PASSED,
    TABLE_REFRESHED,
    KONEC_CALLED,
    FINAL_QUEUE_ADVANCED,
    SPECIAL_ANNOUNCED,
    DEAL_ENDED,
    MATCH_ENDED,
)
