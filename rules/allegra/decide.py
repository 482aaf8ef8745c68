"""What actions cause (ALLEGRA.md §5-§7): ``decide`` and the turn's own actions.

``decide`` checks an action strictly and answers with events; it never changes
the state. The knock window and exchange live in :mod:`.exchange`, the legal
actions in :mod:`.legal`, ``to_act`` in :mod:`.state`. Each turn-ending action hands the table as it now stands to
:func:`rules.allegra.rounds.end_of_turn`, which adds the triples, the trigger,
the next player or the round's scoring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.allegra import exchange, knock
from rules.allegra.checks import cell_in
from rules.allegra.geometry import Geometry, geometry
from rules.allegra.legal import legal_actions
from rules.allegra.rounds import end_of_turn, triples_event
from rules.allegra.state import AllegraState, knock_of, to_act
from rules.allegra.triples import find_triples
from rules.core import (
    Event,
    IllegalAction,
    NotYourTurn,
    check_turn,
    require_keys,
    require_type,
)

ACTION_TYPES = (
    "reveal",
    "take_discard",
    "draw",
    "swap",
    "discard",
    "knock",
    "pass",
    "give",
    "place",
    "take",
    "put",
)

PHASE_ACTIONS: dict[str, tuple[str, ...]] = {
    "initial_reveal": ("reveal",),
    "turn_start": ("take_discard", "draw", "pass"),
    "knock_window": ("knock", "pass"),
    "decide_deck_card": ("swap", "discard", "give"),
    "knocker_place": ("place",),
    "drawer_take": ("take",),
    "drawer_place": ("put",),
}


def decide(st: AllegraState, seat: int, action: Mapping[str, Any]) -> list[Event]:
    acting = to_act(st)
    if seat not in acting:
        _not_your_turn(st, acting, seat, action)
    kind = require_type(action, ACTION_TYPES)
    if kind not in PHASE_ACTIONS[st.phase]:
        raise IllegalAction(_wrong_phase(st, kind))
    return _HANDLERS[kind](st, seat, action, geometry(st.players))


def _not_your_turn(
    st: AllegraState, acting: tuple[int, ...], seat: int, action: object
) -> None:
    kind = action.get("type") if isinstance(action, Mapping) else None
    who = ", ".join(map(str, acting))
    if acting and kind == "knock":
        if st.phase == "knock_window" and seat == st.active:
            raise NotYourTurn("You cannot knock on your own draw")
        if st.phase == "knock_window" and seat in knock_of(st).eligible:
            raise NotYourTurn("You have already answered in this knock window")
        if st.phase == "knock_window":
            raise NotYourTurn(
                "You cannot knock on this card: no exchange with you could be completed"
            )
        raise NotYourTurn(
            "You can knock only on a card just drawn from the deck; "
            f"seat {who} is to act"
        )
    if st.phase == "initial_reveal" and kind == "reveal" and _has_revealed(st, seat):
        raise NotYourTurn(
            f"You have already revealed your two cards; seat {who} is revealing now"
        )
    check_turn(acting, seat)


def _has_revealed(st: AllegraState, seat: int) -> bool:
    n = st.players
    return (seat - st.start_seat) % n < (st.active - st.start_seat) % n


def _wrong_phase(st: AllegraState, kind: str) -> str:
    phase = st.phase
    if kind == "reveal":
        return "The initial reveal is over: each player reveals exactly two cards"
    if phase == "initial_reveal":
        return "First reveal two face-down cards of your area (action 'reveal')"
    if phase == "turn_start":
        return "Take the top discard or draw a card first"
    if phase == "knock_window":
        return "Answer the knock window first: 'knock' or 'pass'"
    if phase == "decide_deck_card":
        return (
            f"You have drawn {st.drawn}: swap it into your area, discard it "
            "(flipping a face-down card) or give it to a knocker"
        )
    if phase == "knocker_place":
        return "Place the card you were given in your area (action 'place')"
    if phase == "drawer_take":
        return f"Take a card from seat {knock_of(st).knocker}'s area (action 'take')"
    taken = knock_of(st).taken
    return f"Put the card you took ({taken}) into your area (action 'put')"


def _reveal(
    st: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    require_keys(action, ("cell",))
    i = cell_in(st, geo, action, "cell", seat)
    if not st.down >> i & 1:
        raise IllegalAction(
            f"The card at {geo.describe(i)} is already face up; reveal a face-down card"
        )
    events = [
        Event(
            "allegra.card_revealed",
            1,
            {"seat": seat, "cell": geo.cell(i), "card": st.cards[i]},
        )
    ]
    if st.reveals == 1 and geo.left[seat] == st.start_seat:
        down = st.down & ~(1 << i)
        shown = [j for j in range(geo.size) if not down >> j & 1]
        removed = find_triples(
            geo,
            st.cards,
            down,
            shown,
            leftmost3=st.rules.long_run_rule == "leftmost3",
        )
        if removed:
            events.append(triples_event(geo, st.rules, list(st.cards), removed))
    return events


def _take_discard(
    st: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    require_keys(action, ("cell",))
    if not st.discard:
        raise IllegalAction("The discard pile is empty: draw a card instead")
    i = cell_in(st, geo, action, "cell", seat)
    card = st.discard[-1]
    events = [
        Event(
            "allegra.discard_taken",
            1,
            {"seat": seat, "cell": geo.cell(i), "card": card, "replaced": st.cards[i]},
        )
    ]
    cards = list(st.cards)
    cards[i] = card
    return events + end_of_turn(st, cards, st.down & ~(1 << i), (i,))


def _draw(
    st: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    require_keys(action, ())
    events: list[Event] = []
    pile = st.draw
    if not pile:
        gathered = list(st.discard[:-1])
        if not gathered:
            raise IllegalAction(
                "The draw pile is empty and there are no discards to reshuffle"
            )
        deck, k, _ = st.chance.reshuffle(gathered)
        events.append(
            Event(
                "allegra.deck_reshuffled",
                1,
                {
                    "reshuffle": True,
                    "shuffle": k,
                    "deck": deck,
                    "shuffled_from": gathered,
                    "draw_pile": len(deck),
                },
            )
        )
        pile = tuple(deck)
    eligible: list[int] = []
    if st.players >= st.rules.knock_min_players:
        eligible = [
            k
            for k in geo.turn_order[seat][1:]
            if knock.can_be_given(geo, st.cards, seat, k)
        ]
        eligible.sort()
    events.append(
        Event(
            "allegra.card_drawn",
            1,
            {"seat": seat, "card": pile[0], "knock_window": eligible},
        )
    )
    return events


def _pass(
    st: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    if st.phase == "knock_window":
        return exchange.answer(st, seat, action, False)
    require_keys(action, ())
    if legal_actions(st, seat) != [{"type": "pass"}]:
        raise IllegalAction(
            "You cannot pass: take the top discard or draw a card "
            "(a turn passes only when no move is possible)"
        )
    events = [Event("allegra.turn_passed", 1, {"seat": seat})]
    return events + end_of_turn(st, list(st.cards), st.down, ())


def _swap(
    st: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    require_keys(action, ("cell",))
    i = cell_in(st, geo, action, "cell", seat)
    events = [
        Event(
            "allegra.drawn_card_swapped",
            1,
            {
                "seat": seat,
                "cell": geo.cell(i),
                "card": st.drawn,
                "replaced": st.cards[i],
            },
        )
    ]
    cards = list(st.cards)
    cards[i] = st.drawn
    return events + end_of_turn(st, cards, st.down & ~(1 << i), (i,))


def _discard(
    st: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    require_keys(action, (), optional=("flip",))
    if "flip" in action:
        i = cell_in(st, geo, action, "flip", seat)
        if not st.down >> i & 1:
            raise IllegalAction(
                f"The card at {geo.describe(i)} is already face up; "
                "flip a face-down card"
            )
        payload = {
            "seat": seat,
            "card": st.drawn,
            "flip": geo.cell(i),
            "flipped": st.cards[i],
        }
        down = st.down & ~(1 << i)
        changed: tuple[int, ...] = (i,)
    else:
        if st.down & geo.area_mask[seat]:
            raise IllegalAction(
                "When you discard the drawn card you must flip a face-down card "
                'of your area: add "flip" with its cell'
            )
        payload = {"seat": seat, "card": st.drawn, "flip": None, "flipped": None}
        down = st.down
        changed = ()
    events = [Event("allegra.drawn_card_discarded", 1, payload)]
    return events + end_of_turn(st, list(st.cards), down, changed)


Handler = Callable[[AllegraState, int, Mapping[str, Any], Geometry], list[Event]]

_HANDLERS: dict[str, Handler] = {
    "reveal": _reveal,
    "take_discard": _take_discard,
    "draw": _draw,
    "swap": _swap,
    "discard": _discard,
    "knock": exchange.knock_answer,
    "pass": _pass,
    "give": exchange.give,
    "place": exchange.place,
    "take": exchange.take,
    "put": exchange.put,
}


__all__ = ["decide", "legal_actions", "to_act"]
