"""What an Allegra seat may not see: redacted events, where every card is, and
histories a seat cannot tell apart (for the no-leak test).

``redact``: face-down cards are hidden from everyone, their owner included;
knock answers stay hidden until all are in, and the knocker's hand card O is
seen by the knocker alone unless it was face up before.

Cards are integers with duplicates, so the cards a seat has not seen cannot be
renamed; instead their *values* are reshuffled among the hidden places. In
Allegra a hidden card never moves while hidden: a face-down card stays in the
cell it was dealt to (cell ``i`` holds ``deck[i]`` of the round's deal), an
undrawn card stays at its place in the deal or reshuffle order, and the
knocker's hand card O, hidden from the others, came face down from ``k1``. So
permuting values among those deck positions and rewriting the deal and
reshuffle events (and a pending hidden O) gives a consistent alternative
history. Cards of a reshuffled pile are a known multiset (the discards), so
they are permuted only among themselves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.allegra import events as ev
from rules.allegra.evolve import evolve
from rules.allegra.state import AllegraState
from rules.core import Event, Seat, strip_secrets


def inventory(state: AllegraState) -> list[int]:
    """Every card of the match, wherever it lies (for the conservation check)."""
    cards = [c for c in state.cards if c is not None]
    cards.extend(state.draw)
    cards.extend(state.discard)
    cards.extend(state.out_of_play)
    if state.drawn is not None:
        cards.append(state.drawn)
    k = state.knock
    if k is not None:
        cards.extend(c for c in (k.hand, k.taken) if c is not None)
    return cards


def resample_unseen(
    events: Sequence[Event], seat: Seat, rng: random.Random
) -> list[Event]:
    """An alternative history ``seat`` cannot tell from ``events``."""
    alt = list(events)
    if not alt:
        return alt
    n = int(alt[0].payload["players"])
    size = 12 * n
    state: AllegraState | None = None
    deal_at = pile_at = -1
    drawn = 0
    base = 0
    groups: list[tuple[int, list[int]]] = []  # (event index, deck positions)
    given_decks = [list(d) for d in alt[0].payload.get("decks") or ()]

    def close_round() -> None:
        if pile_at >= 0:
            length = len(alt[pile_at].payload["deck"])
            groups.append((pile_at, list(range(base + drawn, length))))

    for i, event in enumerate(alt):
        state = evolve(state, event)
        kind = event.type
        if kind == ev.ROUND_DEALT:
            deal_at = pile_at = i
            base, drawn = size + 1, 0
        elif kind == ev.DECK_RESHUFFLED:
            pile_at, base, drawn = i, 0, 0
        elif kind == ev.CARD_DRAWN:
            drawn += 1
        elif kind == ev.ROUND_SCORED:
            close_round()
            pile_at = -1
    assert state is not None
    hand_event = -1
    k = state.knock
    if pile_at >= 0:  # the round in play: its face-down cells too
        hidden = [i for i in range(size) if state.down >> i & 1]
        if (
            k is not None
            and k.hand is not None
            and not k.hand_public
            and seat != k.knocker
            and k.k1 is not None
        ):
            hidden.append(k.k1)
            hand_event = max(
                i for i, e in enumerate(alt) if e.type == ev.KNOCKER_PLACED
            )
        if pile_at == deal_at:
            close_round()
            groups[-1][1].extend(hidden)
        else:
            groups.append((deal_at, hidden))
            close_round()
    decks: dict[int, list[Any]] = {}
    for at, positions in groups:
        deck = decks.setdefault(at, list(alt[at].payload["deck"]))
        values = [deck[j] for j in positions]
        rng.shuffle(values)
        for j, v in zip(positions, values, strict=True):
            deck[j] = v
    deal_index = -1
    for at in range(len(alt)):
        if alt[at].type == ev.ROUND_DEALT:
            deal_index += 1
        if at in decks:
            alt[at] = alt[at].with_payload(deck=decks[at])
            if alt[at].type == ev.ROUND_DEALT and deal_index < len(given_decks):
                given_decks[deal_index] = decks[at]
    if given_decks:
        alt[0] = alt[0].with_payload(decks=given_decks)
    if hand_event >= 0:
        assert k is not None and k.k1 is not None
        alt[hand_event] = alt[hand_event].with_payload(hand=decks[deal_at][k.k1])
    return alt


def redact(event: Event, seat: Seat) -> Event:
    """The event as ``seat`` may see it (None: a spectator)."""
    kind = event.type
    p = event.payload
    if kind == ev.MATCH_ENDED:
        return event  # the seed is revealed at the end, on purpose
    if kind == ev.KNOCK_ANSWERED and seat != p["seat"]:
        return Event(kind, event.version, {"seat": p["seat"]})
    if kind == ev.KNOCKER_PLACED and not p["hand_public"] and seat != p["seat"]:
        return Event(kind, event.version, {k: v for k, v in p.items() if k != "hand"})
    return strip_secrets(event)
