"""Allegra's event types: stable names, version 1, JSON-safe payloads.

Every event type of the game is a constant here and nowhere else;
docs/rules-api-allegra.md documents each payload.
"""

from __future__ import annotations

MATCH_STARTED = "allegra.match_started"
ROUND_DEALT = "allegra.round_dealt"
CARD_REVEALED = "allegra.card_revealed"
TRIPLES_REMOVED = "allegra.triples_removed"
DISCARD_TAKEN = "allegra.discard_taken"
DECK_RESHUFFLED = "allegra.deck_reshuffled"
CARD_DRAWN = "allegra.card_drawn"
KNOCK_ANSWERED = "allegra.knock_answered"
KNOCKS_REVEALED = "allegra.knocks_revealed"
DRAWN_CARD_SWAPPED = "allegra.drawn_card_swapped"
DRAWN_CARD_DISCARDED = "allegra.drawn_card_discarded"
CARD_GIVEN = "allegra.card_given"
KNOCKER_PLACED = "allegra.knocker_placed"
CARD_TAKEN = "allegra.card_taken"
CARD_PUT = "allegra.card_put"
KNOCK_HOLE_FILLED = "allegra.knock_hole_filled"
ROUND_END_TRIGGERED = "allegra.round_end_triggered"
TURN_ENDED = "allegra.turn_ended"
TURN_PASSED = "allegra.turn_passed"
ROUND_REVEALED = "allegra.round_revealed"
ROUND_SCORED = "allegra.round_scored"
MATCH_ENDED = "allegra.match_ended"

#: Every event type, in the order a match meets them.
EVENT_TYPES = (
    MATCH_STARTED,
    ROUND_DEALT,
    CARD_REVEALED,
    TRIPLES_REMOVED,
    DISCARD_TAKEN,
    DECK_RESHUFFLED,
    CARD_DRAWN,
    KNOCK_ANSWERED,
    KNOCKS_REVEALED,
    DRAWN_CARD_SWAPPED,
    DRAWN_CARD_DISCARDED,
    CARD_GIVEN,
    KNOCKER_PLACED,
    CARD_TAKEN,
    CARD_PUT,
    KNOCK_HOLE_FILLED,
    ROUND_END_TRIGGERED,
    TURN_ENDED,
    TURN_PASSED,
    ROUND_REVEALED,
    ROUND_SCORED,
    MATCH_ENDED,
)
