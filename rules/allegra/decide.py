"""What actions cause (docs/rules/allegra.md §5-§7): ``decide`` and the turn's own actions.

``decide`` checks an action strictly and answers with events; it never changes
the state. The knock window and exchange live in :mod:`.exchange`, the legal
actions in :mod:`.legal`, ``to_act`` in :mod:`.state`. Each turn-ending action hands the table as it now stands to
:func:`rules.allegra.rounds.end_of_turn`, which adds the triples, the trigger,
the next player or the round's scoring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.allegra import events as ev
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


__all__ = ["decide", "legal_actions", "to_act"]


def decide(state: AllegraState, seat: int, action: Mapping[str, Any]) -> list[Event]:
    """The events ``action`` by ``seat`` causes; raises IllegalAction."""
    acting = to_act(state)
    if seat not in acting:
        _not_your_turn(state, acting, seat, action)
    kind = require_type(action, ACTION_TYPES)
    if kind not in PHASE_ACTIONS[state.phase]:
        raise IllegalAction(_wrong_phase(state, kind))
    return _HANDLERS[kind](state, seat, action, geometry(state.players))


def _not_your_turn(
    state: AllegraState, acting: tuple[int, ...], seat: int, action: object
) -> None:
    kind = action.get("type") if isinstance(action, Mapping) else None
    who = ", ".join(map(str, acting))
    if acting and kind == "knock":
        if state.phase == "knock_window" and seat == state.active:
            raise NotYourTurn("You cannot knock on your own draw")
        if state.phase == "knock_window" and seat in knock_of(state).eligible:
            raise NotYourTurn("You have already answered in this knock window")
        if state.phase == "knock_window":
            raise NotYourTurn(
                "You cannot knock on this card: no exchange with you could be completed"
            )
        raise NotYourTurn(
            "You can knock only on a card just drawn from the deck; "
            f"seat {who} is to act"
        )
    if (
        state.phase == "initial_reveal"
        and kind == "reveal"
        and _has_revealed(state, seat)
    ):
        raise NotYourTurn(
            f"You have already revealed your two cards; seat {who} is revealing now"
        )
    check_turn(acting, seat)


def _has_revealed(state: AllegraState, seat: int) -> bool:
    n = state.players
    return (seat - state.start_seat) % n < (state.active - state.start_seat) % n


def _wrong_phase(state: AllegraState, kind: str) -> str:
    phase = state.phase
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
            f"You have drawn {state.drawn}: swap it into your area, discard it "
            "(flipping a face-down card) or give it to a knocker"
        )
    if phase == "knocker_place":
        return "Place the card you were given in your area (action 'place')"
    if phase == "drawer_take":
        return f"Take a card from seat {knock_of(state).knocker}'s area (action 'take')"
    taken = knock_of(state).taken
    return f"Put the card you took ({taken}) into your area (action 'put')"


def _reveal(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    require_keys(action, ("cell",))
    i = cell_in(state, geo, action, "cell", seat)
    if not state.down >> i & 1:
        raise IllegalAction(
            f"The card at {geo.describe(i)} is already face up; reveal a face-down card"
        )
    events = [
        Event(
            ev.CARD_REVEALED,
            1,
            {"seat": seat, "cell": geo.cell(i), "card": state.cards[i]},
        )
    ]
    if state.reveals == 1 and geo.left[seat] == state.start_seat:
        down = state.down & ~(1 << i)
        shown = [j for j in range(geo.size) if not down >> j & 1]
        removed = find_triples(
            geo,
            state.cards,
            down,
            shown,
            leftmost3=state.rules.long_run_rule == "leftmost3",
        )
        if removed:
            events.append(triples_event(geo, state.rules, list(state.cards), removed))
    return events


def _take_discard(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    require_keys(action, ("cell",))
    if not state.discard:
        raise IllegalAction("The discard pile is empty: draw a card instead")
    i = cell_in(state, geo, action, "cell", seat)
    card = state.discard[-1]
    events = [
        Event(
            ev.DISCARD_TAKEN,
            1,
            {
                "seat": seat,
                "cell": geo.cell(i),
                "card": card,
                "replaced": state.cards[i],
            },
        )
    ]
    cards = list(state.cards)
    cards[i] = card
    return events + end_of_turn(state, cards, state.down & ~(1 << i), (i,))


def _draw(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    require_keys(action, ())
    events: list[Event] = []
    pile = state.draw
    if not pile:
        gathered = list(state.discard[:-1])
        if not gathered:
            raise IllegalAction(
                "The draw pile is empty and there are no discards to reshuffle"
            )
        # §11: the match's next reshuffle, key "r<m>" (never a deal's key).
        deck, k, _ = state.chance.reshuffle(gathered)
        events.append(
            Event(
                ev.DECK_RESHUFFLED,
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
    if state.players >= state.rules.knock_min_players:
        eligible = [
            k
            for k in geo.turn_order[seat][1:]
            if knock.can_be_given(geo, state.cards, seat, k)
        ]
        eligible.sort()
    events.append(
        Event(
            ev.CARD_DRAWN,
            1,
            {"seat": seat, "card": pile[0], "knock_window": eligible},
        )
    )
    return events


def _pass(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    if state.phase == "knock_window":
        return exchange.answer(state, seat, action, False)
    require_keys(action, ())
    if legal_actions(state, seat) != [{"type": "pass"}]:
        raise IllegalAction(
            "You cannot pass: take the top discard or draw a card "
            "(a turn passes only when no move is possible)"
        )
    events = [Event(ev.TURN_PASSED, 1, {"seat": seat})]
    return events + end_of_turn(state, list(state.cards), state.down, ())


def _swap(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    require_keys(action, ("cell",))
    i = cell_in(state, geo, action, "cell", seat)
    events = [
        Event(
            ev.DRAWN_CARD_SWAPPED,
            1,
            {
                "seat": seat,
                "cell": geo.cell(i),
                "card": state.drawn,
                "replaced": state.cards[i],
            },
        )
    ]
    cards = list(state.cards)
    cards[i] = state.drawn
    return events + end_of_turn(state, cards, state.down & ~(1 << i), (i,))


def _discard(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    require_keys(action, (), optional=("flip",))
    if "flip" in action:
        i = cell_in(state, geo, action, "flip", seat)
        if not state.down >> i & 1:
            raise IllegalAction(
                f"The card at {geo.describe(i)} is already face up; "
                "flip a face-down card"
            )
        payload = {
            "seat": seat,
            "card": state.drawn,
            "flip": geo.cell(i),
            "flipped": state.cards[i],
        }
        down = state.down & ~(1 << i)
        changed: tuple[int, ...] = (i,)
    else:
        if state.down & geo.area_mask[seat]:
            raise IllegalAction(
                "When you discard the drawn card you must flip a face-down card "
                'of your area: add "flip" with its cell'
            )
        payload = {"seat": seat, "card": state.drawn, "flip": None, "flipped": None}
        down = state.down
        changed = ()
    events = [Event(ev.DRAWN_CARD_DISCARDED, 1, payload)]
    return events + end_of_turn(state, list(state.cards), down, changed)


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
