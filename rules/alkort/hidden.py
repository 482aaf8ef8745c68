"""What an Alkort seat may not see: redacted events, and alternative histories.

``redact`` strips the secrets and the cards hidden from a seat (B11: nobody
sees another hand, the stock, the 2-player dead pile or the seed while the
match is in play). ``resample_unseen`` builds histories the seat cannot tell
apart, for the no-leak contract test.

Each deal is a fresh shuffle, so each deal is renamed separately: within a
deal, the cards the seat never saw are renamed among themselves by a
permutation drawn from :func:`rules.alkort.knowledge.sample`, which respects
everything the seat legitimately knows (its partner's reveal, forced seven
leads; see :mod:`rules.alkort.knowledge`). An exchanger's unknown kept card may
also trade places with another shown card. The renaming is applied with
:func:`rules.core.relabel_events` to the full events, secret keys included.
Reveals the seat did not see are then recomputed from the renamed hands, so the
alternative history obeys every rule, not only the seat's view of it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.alkort import events as ev
from rules.alkort.decide import partners_revealed
from rules.alkort.evolve import evolve
from rules.alkort.knowledge import Layout, knowledge_from, sample
from rules.alkort.state import State
from rules.alkort.tables import sort_hand
from rules.core import Event, Seat, relabel, relabel_events, strip_secrets


def resample_unseen(
    events: Sequence[Event], seat: Seat, rng: random.Random
) -> list[Event]:
    """An alternative history ``seat`` cannot tell from ``events``, deal by deal."""
    start = events[0]
    players = int(start.payload["players"])
    seven_rule = start.payload["options"]["seven_rule"]
    if seat is not None and not 0 <= seat < players:
        seat = None
    segments: list[list[Event]] = [[]]
    for event in events[1:]:
        if event.type == ev.CARDS_DEALT:
            segments.append([])
        segments[-1].append(event)
    state = evolve(None, start)
    out: list[Event] = []
    decks = list(start.payload.get("decks") or [])
    for index, segment in enumerate(segments[1:]):
        for event in segment:
            state = evolve(state, event)
        k = knowledge_from(
            [redact(e, seat) for e in segment], seat, players, seven_rule
        )
        mapping = _mapping(state, sample(k, rng), k.seen, k.keep is None)
        renamed = relabel_events(segment, mapping)
        out.extend(_tidy(renamed, seat))
        if index < len(decks):
            decks[index] = relabel(decks[index], mapping)
    if decks:
        start = start.with_payload(decks=decks)
    return [start, *out]


def _mapping(
    truth: State, world: Layout, seen: set[str], keep_unknown: bool
) -> dict[str, str]:
    """Rename the truth's unseen cards, place by place, into the sampled world's."""
    deal = truth.deal
    mapping: dict[str, str] = {}
    pairs: list[tuple[Sequence[str], Sequence[str]]] = [
        (deal.stock, world.stock),
        (deal.dead, world.dead),
    ]
    pairs.extend(zip(truth.hands, world.hands, strict=True))
    for real, alt in pairs:
        real_unseen = [c for c in real if c not in seen]
        alt_unseen = [c for c in alt if c not in seen]
        assert len(real_unseen) == len(alt_unseen), "sampled world does not fit"
        mapping.update(zip(real_unseen, alt_unseen, strict=True))
    if keep_unknown and deal.kept is not None and world.keep != deal.kept:
        assert world.keep is not None
        mapping[deal.kept] = world.keep
        mapping[world.keep] = deal.kept
    return mapping


def _tidy(segment: list[Event], seat: Seat) -> list[Event]:
    """Canonical order for renamed sets; reveals recomputed from renamed hands.

    The reveals the seat saw (its own and its partner's) cannot change.
    """
    out: list[Event] = []
    hands: list[list[str]] = []
    for event in segment:
        p = event.payload
        if event.type == ev.CARDS_DEALT:
            hands = [list(h) for h in p["hands"]]
        elif event.type == ev.STOCK_EXCHANGED:
            hands[p["seat"]] = [p["keep"], *p["taken"]]
            # A kept card that traded places leaves the shown hand out of order.
            event = event.with_payload(
                shown=list(sort_hand(p["shown"])),
                discards=list(sort_hand(p["discards"])),
            )
        elif event.type == ev.PARTNERS_REVEALED:
            fixed = partners_revealed(hands)
            for old, new in zip(p["reveals"], fixed.payload["reveals"], strict=True):
                if seat in (old["seat"], old["partner"]):
                    assert old == new, "a reveal the seat saw would change"
            event = fixed
        out.append(event)
    return out


def redact(event: Event, seat: Seat) -> Event:
    """The event as ``seat`` may see it (None: a spectator)."""
    kind = event.type
    if kind in _PUBLIC:
        return event
    if kind == ev.CARDS_DEALT:
        p = event.payload
        hands = p["hands"]
        payload = {k: v for k, v in p.items() if k not in _DEAL_SECRETS}
        payload["hands"] = [
            list(sort_hand(h)) if i == seat else None for i, h in enumerate(hands)
        ]
        return Event(kind, event.version, payload)
    if kind == ev.STOCK_EXCHANGED:
        p = event.payload
        if seat == p["seat"]:
            return event
        return Event(
            kind,
            event.version,
            {"seat": p["seat"], "shown": list(sort_hand(p["shown"]))},
        )
    if kind == ev.PARTNERS_REVEALED:
        reveals = [
            r
            if seat in (r["seat"], r["partner"])
            else {"seat": r["seat"], "partner": r["partner"]}
            for r in event.payload["reveals"]
        ]
        return Event(kind, event.version, {"reveals": reveals})
    return strip_secrets(event)


_PUBLIC = frozenset(
    {ev.EXCHANGE_PASSED, ev.CARD_PLAYED, ev.TRICK_WON, ev.DEAL_SCORED, ev.MATCH_ENDED}
)
_DEAL_SECRETS = frozenset({"deck", "stock", "dead", "hands"})


def inventory(state: State) -> list[str]:
    """Every card of the match, wherever it lies (for the conservation check)."""
    deal = state.deal
    cards: list[str] = [c for hand in state.hands for c in hand]
    cards.extend(deal.stock)
    cards.extend(deal.dead)
    cards.extend(deal.discards)
    cards.extend(state.trick)
    for trick in state.tally.done:
        cards.extend(trick.cards)
    return cards
