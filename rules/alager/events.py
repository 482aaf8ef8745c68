"""Alager's events: their stable type names, and how each one changes the state.

``evolve`` is a fold over these functions. They trust the event (``decide``
checked everything) and build exactly one new state each, through the fast
``with_`` copy. Payloads are documented in docs/rules-api-alager.md.
"""

from __future__ import annotations

from typing import Any

from rules.alager.state import AlagerState, DealResult, setter, with_
from rules.cards import Card
from rules.core import Event

_new = object.__new__
_set_type = vars(Event)["type"].__set__
_set_version = vars(Event)["version"].__set__
_set_payload = vars(Event)["payload"].__set__


def make_event(type_: str, payload: dict[str, Any]) -> Event:
    """``Event(type_, 1, payload)``, built without the frozen ``__init__`` (hot path)."""
    e = _new(Event)
    _set_type(e, type_)
    _set_version(e, 1)
    _set_payload(e, payload)
    return e


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
SPECIAL_ANNOUNCED = "alager.special_announced"
DEAL_ENDED = "alager.deal_ended"
MATCH_ENDED = "alager.match_ended"


def _turn_over(s: AlagerState) -> tuple[int | None, int, tuple[int, ...]]:
    """Who moves after the current turn: ``(current, turns_taken, final_queue)``."""
    if s.phase == "normal":
        order = s.order
        return order[(order.index(s.current) + 1) % len(order)], s.turns_taken + 1, ()
    queue = s.final_queue[1:]
    return (queue[0] if queue else None), s.turns_taken, queue


def _set_hand(
    s: AlagerState, seat: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    hands = list(s.hands)
    hands[seat] = hand
    return tuple(hands)


def _deal_started(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    order = tuple(p["order"])
    m = len(order)
    deck = p["deck"]
    limit = s.rules.max_turns_per_deal
    return with_(
        s,
        chance=s.chance.after(p),
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


_hands_stock = setter("hands", "stock")
_hands_discard = setter("hands", "discard")
_after_draw = setter(
    "hands", "stock", "pass_streak", "current", "turns_taken", "final_queue"
)
_after_swap = setter(
    "hands", "table", "pass_streak", "current", "turns_taken", "final_queue"
)
_after_pass = setter("pass_streak", "current", "turns_taken", "final_queue")


def _card_discarded(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    seat, slot, card = p["seat"], p["slot"], p["card"]
    hand = s.hands[seat]
    hands = _set_hand(s, seat, hand[:slot] + hand[slot + 1 :])
    if p["face_down"]:
        return _hands_stock(s, hands, s.stock + (card,))
    return _hands_discard(s, hands, s.discard + (card,))


def _stock_replenished(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    if p.get("reshuffle"):
        return with_(
            s, stock=s.stock + tuple(p["deck"]), discard=(), chance=s.chance.after(p)
        )
    return with_(s, stock=s.stock + tuple(p["recycled"]), discard=())


def _card_drawn(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    seat, slot = p["seat"], p["slot"]
    hand = s.hands[seat]
    hands = _set_hand(s, seat, hand[:slot] + (s.stock[0],) + hand[slot:])
    current, turns, queue = _turn_over(s)
    return _after_draw(s, hands, s.stock[1:], 0, current, turns, queue)


def _card_swapped(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    seat, give, take, slot = p["seat"], p["give"], p["take"], p["slot"]
    hand = s.hands[seat]
    i = hand.index(give)
    hands = _set_hand(s, seat, hand[:i] + (take,) + hand[i + 1 :])
    table = s.table[:slot] + (give,) + s.table[slot + 1 :]
    current, turns, queue = _turn_over(s)
    return _after_swap(s, hands, table, 0, current, turns, queue)


def _hand_swapped(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    seat = p["seat"]
    hands = _set_hand(s, seat, tuple(p["took"]))
    current, turns, queue = _turn_over(s)
    return _after_swap(s, hands, tuple(p["gave"]), 0, current, turns, queue)


def _passed(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    current, turns, queue = _turn_over(s)
    return _after_pass(s, p["pass_streak"], current, turns, queue)


def _table_refreshed(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    stock = s.stock + tuple(p["removed"])
    return with_(s, table=stock[:3], stock=stock[3:], pass_streak=0)


def _konec_called(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    queue = tuple(p["final_queue"])
    turns = s.turns_taken if p["after_exchange"] else s.turns_taken + 1
    return with_(
        s,
        phase="final",
        knocker=p["seat"],
        final_queue=queue,
        current=queue[0],
        pass_streak=0,
        turns_taken=turns,
    )


def _special_announced(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    return s


def _deal_ended(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    result = DealResult.from_json(p)
    eliminated = list(s.eliminated_in)
    for seat in result.eliminated:
        eliminated[seat] = result.deal
    return with_(
        s,
        phase="scoring",
        current=None,
        final_queue=(),
        penalties=result.penalties,
        eliminated_in=tuple(eliminated),
        last_deal=result,
    )


def _match_ended(s: AlagerState, p: dict[str, Any]) -> AlagerState:
    return with_(s, phase="over", current=None)


EVOLVERS = {
    DEAL_STARTED: _deal_started,
    CARD_DISCARDED: _card_discarded,
    STOCK_REPLENISHED: _stock_replenished,
    CARD_DRAWN: _card_drawn,
    CARD_SWAPPED: _card_swapped,
    HAND_SWAPPED: _hand_swapped,
    PASSED: _passed,
    TABLE_REFRESHED: _table_refreshed,
    KONEC_CALLED: _konec_called,
    SPECIAL_ANNOUNCED: _special_announced,
    DEAL_ENDED: _deal_ended,
    MATCH_ENDED: _match_ended,
}
