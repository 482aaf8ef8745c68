"""What a seat may see of an Alager match (ALAGER.md §13): views, redaction, resampling."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.alager.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARD_SWAPPED,
    DEAL_ENDED,
    DEAL_STARTED,
    HAND_SWAPPED,
    MATCH_ENDED,
    MATCH_STARTED,
    STOCK_REPLENISHED,
    TABLE_REFRESHED,
)
from rules.alager.hands import MARIASH_NAMES, hand_value
from rules.alager.state import AlagerState
from rules.cards import Card
from rules.core import Event, Seat, permutation, relabel_events, strip_secrets


def seat_view(
    state: AlagerState,
    seat: Seat,
    *,
    to_act: tuple[int, ...],
    outcome: dict[str, Any] | None,
    konec_allowed: bool,
) -> dict[str, Any]:
    """Everything ``seat`` may see: its own hand, public facts, never the stock order."""
    rules = state.rules
    own = state.hands[seat] if seat is not None and 0 <= seat < state.players else ()
    view: dict[str, Any] = {
        "game": "alager",
        "players": state.players,
        "options": rules.as_options(),
        "seat": seat,
        "phase": state.phase,
        "to_act": list(to_act),
        "outcome": outcome,
        "deal": state.deal,
        "dealer": state.dealer,
        "eldest": state.order[0] if state.order else None,
        "order": list(state.order),
        "current": state.current,
        "hand": list(own) if own else None,
        "hand_value": hand_value(own) if len(own) == 3 else None,
        "hand_sizes": [len(h) for h in state.hands],
        "table": list(state.table),
        "discard_pile": list(state.discard),
        "stock_count": len(state.stock),
        "pass_streak": state.pass_streak,
        "knocker": state.knocker,
        "final_queue": list(state.final_queue),
        "turns_taken": state.turns_taken,
        "max_turns_per_deal": state.max_turns,
        "konec_allowed": konec_allowed,
        "penalties": list(state.penalties),
        "eliminated": [s for s, e in enumerate(state.eliminated_in) if e is not None],
        "last_deal": state.last_deal.to_json() if state.last_deal else None,
    }
    if rules.deck == 32:
        view["card_names"] = dict(MARIASH_NAMES)
    return view


def redact(event: Event, seat: Seat) -> Event:
    """The event as ``seat`` may see it (secrets stripped, hidden cards null)."""
    t = event.type
    p = event.payload
    if t == DEAL_STARTED:
        hands = [h if i == seat else None for i, h in enumerate(p["hands"])]
        return strip_secrets(event).with_payload(hands=hands)
    if t == CARD_DRAWN:
        return event if p["seat"] == seat else event.with_payload(card=None)
    if t == CARD_DISCARDED:
        if p["face_down"] and p["seat"] != seat:
            return event.with_payload(card=None)
        return event
    if t in (MATCH_STARTED, STOCK_REPLENISHED):
        return strip_secrets(event)
    return event


def resample_unseen(
    events: Sequence[Event], seat: Seat, rng: random.Random
) -> list[Event]:
    """Per deal, rename the cards ``seat`` never saw in that deal among themselves.

    What a seat sees is derived here from the rules (§13), independently of
    ``redact``, so that the no-leak test checks ``redact`` and ``view`` both.
    """
    out: list[Event] = []
    segment: list[Event] = []

    def flush() -> None:
        if not segment:
            return
        deck = segment[0].payload.get("deck")
        if segment[0].type != DEAL_STARTED or deck is None:
            out.extend(segment)
        else:
            unseen = set(deck) - seen_in_deal(segment, seat)
            out.extend(relabel_events(segment, permutation(unseen, rng)))
        segment.clear()

    for event in events:
        if event.type in (DEAL_STARTED, MATCH_ENDED):
            flush()
        segment.append(event)
    flush()
    return out


def seen_in_deal(segment: Sequence[Event], seat: Seat) -> set[Card]:
    """Every card ``seat`` is shown during one deal (ALAGER.md §13)."""
    seen: set[Card] = set()
    for event in segment:
        t, p = event.type, event.payload
        if t == DEAL_STARTED:
            seen.update(p["table"])
            if seat is not None and p["hands"][seat]:
                seen.update(p["hands"][seat])
        elif t == CARD_DISCARDED:
            if not p["face_down"] or p["seat"] == seat:
                seen.add(p["card"])
        elif t == CARD_DRAWN:
            if p["seat"] == seat:
                seen.add(p["card"])
        elif t == CARD_SWAPPED:
            seen.update((p["give"], p["take"]))
        elif t == HAND_SWAPPED:
            seen.update(p["gave"] + p["took"])
        elif t == TABLE_REFRESHED:
            seen.update(p["removed"] + p["table"])
        elif t == STOCK_REPLENISHED:
            seen.update(p["recycled"])
        elif t == DEAL_ENDED:
            for hand in p["hands"]:
                seen.update(hand or ())
    return seen
