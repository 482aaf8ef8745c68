"""What an Alager seat may not see: redacted events, and alternative histories.

``redact`` strips the secrets and the cards hidden from a seat;
``resample_unseen`` renames, deal by deal, the cards a seat never saw, for the
no-leak contract test (docs/rules/alager.md, "What each player sees").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.alager import events as ev
from rules.alager.options import deck_for
from rules.alager.state import AlagerState
from rules.cards import Card
from rules.core import Event, Seat, permutation, relabel_events, strip_secrets


def redact(event: Event, seat: Seat) -> Event:
    """The event as ``seat`` may see it (secrets stripped, hidden cards null)."""
    t = event.type
    p = event.payload
    if t == ev.DEAL_STARTED:
        hands = [h if i == seat else None for i, h in enumerate(p["hands"])]
        return strip_secrets(event).with_payload(hands=hands)
    if t == ev.CARD_DRAWN:
        return event if p["seat"] == seat else event.with_payload(card=None)
    if t == ev.CARD_DISCARDED:
        if p["face_down"] and p["seat"] != seat:
            return event.with_payload(card=None)
        return event
    if t in (ev.MATCH_STARTED, ev.STOCK_REPLENISHED):
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
        if segment[0].type != ev.DEAL_STARTED or deck is None:
            out.extend(segment)
        else:
            unseen = set(deck) - seen_in_deal(segment, seat)
            out.extend(relabel_events(segment, permutation(unseen, rng)))
        segment.clear()

    for event in events:
        if event.type in (ev.DEAL_STARTED, ev.MATCH_ENDED):
            flush()
        segment.append(event)
    flush()
    return out


def seen_in_deal(segment: Sequence[Event], seat: Seat) -> set[Card]:
    """Every card ``seat`` is shown during one deal (§13)."""
    seen: set[Card] = set()
    for event in segment:
        t, p = event.type, event.payload
        if t == ev.DEAL_STARTED:
            seen.update(p["table"])
            if seat is not None and p["hands"][seat]:
                seen.update(p["hands"][seat])
        elif t == ev.CARD_DISCARDED:
            if not p["face_down"] or p["seat"] == seat:
                seen.add(p["card"])
        elif t == ev.CARD_DRAWN:
            if p["seat"] == seat:
                seen.add(p["card"])
        elif t == ev.CARD_SWAPPED:
            seen.update((p["give"], p["take"]))
        elif t == ev.HAND_SWAPPED:
            seen.update(p["gave"] + p["took"])
        elif t == ev.TABLE_REFRESHED:
            seen.update(p["removed"] + p["table"])
        elif t == ev.STOCK_REPLENISHED:
            seen.update(p["recycled"])
        elif t == ev.DEAL_ENDED:
            for hand in p["hands"]:
                seen.update(hand or ())
    return seen


def inventory(state: AlagerState) -> list[Card]:
    """Every card of the match, wherever it lies (for the conservation check)."""
    if not state.deal:  # before the first deal the whole deck is still unshuffled
        return deck_for(state.rules.deck)
    cards = [c for h in state.hands for c in h]
    return cards + [*state.table, *state.stock, *state.discard]
