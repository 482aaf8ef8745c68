"""Applying one Alager event to a state (the fold). Pure; never raises for events
that ``decide`` produced.

Each function trusts its event (``decide`` checked everything) and builds
exactly one new state, through the fast ``replace_state`` copy. Payloads are
documented in docs/rules-api-alager.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.alager import events as ev
from rules.alager.state import AlagerState, DealResult, Rules, replace_state
from rules.cards import Card
from rules.core import Event, InvalidOptions
from rules.dealing import Chance


def evolve(state: AlagerState | None, event: Event) -> AlagerState:
    """Apply ``event``; ``state`` is None only for ``alager.match_started``."""
    apply = EVOLVERS.get(event.type)
    if apply is None:
        raise InvalidOptions(f"Unknown Alager event type {event.type!r}")
    if (state is None) != (event.type == ev.MATCH_STARTED):
        raise InvalidOptions(f"An Alager history starts with {ev.MATCH_STARTED}, once")
    return apply(state, event.payload)


def _match_started(_: None, p: dict[str, Any]) -> AlagerState:
    n = p["players"]
    rules = Rules.from_options(p["options"])
    decks = tuple(tuple(d) for d in p.get("decks") or ())
    return AlagerState(
        players=n,
        rules=rules,
        chance=Chance(seed=p["seed"], decks=decks),
        penalties=(0,) * n,
        eliminated_in=(None,) * n,
        deal=0,
        dealer=rules.first_dealer,
        order=(),
        hands=((),) * n,
        table=(),
        stock=(),
        discard=(),
        phase="setup",
        current=None,
        pass_streak=0,
        knocker=None,
        final_queue=(),
        turns_taken=0,
        max_turns=0,
        last_deal=None,
    )


def _turn_over(state: AlagerState) -> tuple[int | None, int, tuple[int, ...]]:
    """Who moves after the current turn: ``(current, turns_taken, final_queue)``."""
    if state.phase == "normal":
        order = state.order
        current = order[(order.index(state.current) + 1) % len(order)]
        return current, state.turns_taken + 1, ()
    queue = state.final_queue[1:]
    return (queue[0] if queue else None), state.turns_taken, queue


def _set_hand(
    state: AlagerState, seat: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    hands = list(state.hands)
    hands[seat] = hand
    return tuple(hands)


def _deal_started(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    order = tuple(p["order"])
    m = len(order)
    deck = p["deck"]
    limit = state.rules.max_turns_per_deal
    return replace_state(
        state,
        chance=state.chance.after(p),
        deal=p["deal"],
        dealer=p["dealer"],
        order=order,
        hands=tuple(tuple(h) if h else () for h in p["hands"]),
        table=tuple(p["table"]),
        stock=tuple(deck[3 * m + 3 :]),
        discard=(),
        phase="normal",
        current=order[0],
        pass_streak=0,
        knocker=None,
        final_queue=(),
        turns_taken=0,
        max_turns=50 * m if limit is None else limit,
    )


def _card_discarded(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    seat, slot, card = p["seat"], p["slot"], p["card"]
    hand = state.hands[seat]
    hands = _set_hand(state, seat, hand[:slot] + hand[slot + 1 :])
    if p["face_down"]:
        return replace_state(state, hands=hands, stock=state.stock + (card,))
    return replace_state(state, hands=hands, discard=state.discard + (card,))


def _stock_replenished(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    if p.get("reshuffle"):
        return replace_state(
            state,
            stock=state.stock + tuple(p["deck"]),
            discard=(),
            chance=state.chance.after(p),
        )
    return replace_state(state, stock=state.stock + tuple(p["recycled"]), discard=())


def _card_drawn(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    seat, slot = p["seat"], p["slot"]
    hand = state.hands[seat]
    hands = _set_hand(state, seat, hand[:slot] + (state.stock[0],) + hand[slot:])
    current, turns, queue = _turn_over(state)
    return replace_state(
        state,
        hands=hands,
        stock=state.stock[1:],
        pass_streak=0,
        current=current,
        turns_taken=turns,
        final_queue=queue,
    )


def _card_swapped(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    seat, give, take, slot = p["seat"], p["give"], p["take"], p["slot"]
    hand = state.hands[seat]
    i = hand.index(give)
    hands = _set_hand(state, seat, hand[:i] + (take,) + hand[i + 1 :])
    table = state.table[:slot] + (give,) + state.table[slot + 1 :]
    current, turns, queue = _turn_over(state)
    return replace_state(
        state,
        hands=hands,
        table=table,
        pass_streak=0,
        current=current,
        turns_taken=turns,
        final_queue=queue,
    )


def _hand_swapped(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    hands = _set_hand(state, p["seat"], tuple(p["took"]))
    current, turns, queue = _turn_over(state)
    return replace_state(
        state,
        hands=hands,
        table=tuple(p["gave"]),
        pass_streak=0,
        current=current,
        turns_taken=turns,
        final_queue=queue,
    )


def _passed(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    current, turns, queue = _turn_over(state)
    return replace_state(
        state,
        pass_streak=p["pass_streak"],
        current=current,
        turns_taken=turns,
        final_queue=queue,
    )


def _table_refreshed(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    stock = state.stock + tuple(p["removed"])
    return replace_state(state, table=stock[:3], stock=stock[3:], pass_streak=0)


def _konec_called(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    queue = tuple(p["final_queue"])
    turns = state.turns_taken if p["after_exchange"] else state.turns_taken + 1
    return replace_state(
        state,
        phase="final",
        knocker=p["seat"],
        final_queue=queue,
        current=queue[0],
        pass_streak=0,
        turns_taken=turns,
    )


def _final_queue_advanced(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    # The turn's own event already moved the queue on; this records it for
    # everyone (§13) and folds to the same queue and seat to act.
    queue = tuple(p["queue"])
    return replace_state(state, final_queue=queue, current=queue[0])


def _special_announced(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    return state


def _deal_ended(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    result = DealResult.from_json(p)
    eliminated = list(state.eliminated_in)
    for seat in result.eliminated:
        eliminated[seat] = result.deal
    return replace_state(
        state,
        phase="scoring",
        current=None,
        final_queue=(),
        penalties=result.penalties,
        eliminated_in=tuple(eliminated),
        last_deal=result,
    )


def _match_ended(state: AlagerState, p: dict[str, Any]) -> AlagerState:
    return replace_state(state, phase="over", current=None)


#: The fold: one function per event type, ``(state, payload) -> state``.
EVOLVERS: dict[str, Callable[[Any, dict[str, Any]], AlagerState]] = {
    ev.MATCH_STARTED: _match_started,
    ev.DEAL_STARTED: _deal_started,
    ev.CARD_DISCARDED: _card_discarded,
    ev.STOCK_REPLENISHED: _stock_replenished,
    ev.CARD_DRAWN: _card_drawn,
    ev.CARD_SWAPPED: _card_swapped,
    ev.HAND_SWAPPED: _hand_swapped,
    ev.PASSED: _passed,
    ev.TABLE_REFRESHED: _table_refreshed,
    ev.KONEC_CALLED: _konec_called,
    ev.FINAL_QUEUE_ADVANCED: _final_queue_advanced,
    ev.SPECIAL_ANNOUNCED: _special_announced,
    ev.DEAL_ENDED: _deal_ended,
    ev.MATCH_ENDED: _match_ended,
}
