"""Applying events to the state: pure, and never raising for events ``decide`` made.

Events are facts: the deal carries the deck, the triple removal its cells,
the end of turn the next player. Applying them needs no rule logic beyond
moving cards, so a replay reproduces the live state exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.allegra import events as ev
from rules.allegra.options import Rules
from rules.allegra.state import (
    AllegraState,
    Knock,
    RoundResult,
    replace_knock,
    replace_state,
)
from rules.core import Event, InvalidOptions
from rules.dealing import Chance


def _index(state: AllegraState, cell: dict[str, int]) -> int:
    return 12 * cell["seat"] + 4 * cell["row"] + cell["col"]


def _match_started(state: AllegraState | None, p: dict[str, Any]) -> AllegraState:
    players = p["players"]
    return AllegraState(
        players=players,
        rules=Rules.from_options(p["options"]),
        chance=Chance(
            seed=p["seed"], decks=tuple(tuple(d) for d in p.get("decks") or ())
        ),
        seed_sha256=p["seed_sha256"],
        totals=(0,) * players,
    )


def _round_dealt(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    deck = p["deck"]
    size = 12 * state.players
    return replace_state(
        state,
        chance=state.chance.after(p),
        round=p["round"],
        start_seat=p["start_seat"],
        phase="initial_reveal",
        active=p["start_seat"],
        cards=tuple(deck[:size]),
        down=(1 << size) - 1,
        draw=tuple(deck[size + 1 :]),
        discard=(deck[size],),
        out_of_play=(),
        reveals=0,
        turn=0,
        drawn=None,
        knock=None,
        trigger=None,
        queue=(),
    )


def _card_revealed(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    down = state.down & ~(1 << _index(state, p["cell"]))
    if state.reveals == 0:
        return replace_state(state, down=down, reveals=1)
    nxt = (state.active + 1) % state.players
    phase = "turn_start" if nxt == state.start_seat else "initial_reveal"
    return replace_state(state, down=down, reveals=0, active=nxt, phase=phase)


def _triples_removed(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    cards = list(state.cards)
    for cell in p["cells"]:
        cards[_index(state, cell)] = None
    removed = tuple(p["cards"])
    if p["to"] == "discard":
        return replace_state(state, cards=tuple(cards), discard=state.discard + removed)
    return replace_state(
        state, cards=tuple(cards), out_of_play=state.out_of_play + removed
    )


def _discard_taken(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    i = _index(state, p["cell"])
    cards = list(state.cards)
    old = cards[i]
    cards[i] = state.discard[-1]
    assert old is not None
    return replace_state(
        state,
        cards=tuple(cards),
        down=state.down & ~(1 << i),
        discard=state.discard[:-1] + (old,),
    )


def _deck_reshuffled(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    return replace_state(
        state,
        chance=state.chance.after(p),
        draw=tuple(p["deck"]),
        discard=state.discard[-1:],
    )


def _card_drawn(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    eligible = tuple(p["knock_window"])
    if not eligible:
        return replace_state(
            state, drawn=state.draw[0], draw=state.draw[1:], phase="decide_deck_card"
        )
    return replace_state(
        state,
        drawn=state.draw[0],
        draw=state.draw[1:],
        phase="knock_window",
        knock=Knock(eligible=eligible, pending=eligible),
    )


def _knock_answered(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    seat = p["seat"]
    k = state.knock
    assert k is not None
    pending = tuple(s for s in k.pending if s != seat)
    knockers = k.knockers + (seat,) if p["knock"] else k.knockers
    return replace_state(
        state, knock=replace_knock(k, pending=pending, knockers=knockers)
    )


def _knocks_revealed(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    assert state.knock is not None
    knock = replace_knock(state.knock, knockers=tuple(p["knockers"]))
    return replace_state(state, phase="decide_deck_card", knock=knock)


def _drawn_card_swapped(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    i = _index(state, p["cell"])
    cards = list(state.cards)
    old = cards[i]
    assert old is not None and state.drawn is not None
    cards[i] = state.drawn
    return replace_state(
        state,
        cards=tuple(cards),
        down=state.down & ~(1 << i),
        discard=state.discard + (old,),
        drawn=None,
    )


def _drawn_card_discarded(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    assert state.drawn is not None
    down = state.down
    if p["flip"] is not None:
        down &= ~(1 << _index(state, p["flip"]))
    return replace_state(
        state, down=down, discard=state.discard + (state.drawn,), drawn=None
    )


def _card_given(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    assert state.knock is not None
    knock = replace_knock(state.knock, knocker=p["to"])
    return replace_state(state, phase="knocker_place", knock=knock)


def _knocker_placed(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    i = _index(state, p["cell"])
    cards = list(state.cards)
    hand = cards[i]
    cards[i] = state.drawn
    assert state.knock is not None
    knock = replace_knock(state.knock, k1=i, hand=hand, hand_public=p["hand_public"])
    return replace_state(
        state,
        phase="drawer_take",
        cards=tuple(cards),
        down=state.down & ~(1 << i),
        drawn=None,
        knock=knock,
    )


def _card_taken(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    i = _index(state, p["cell"])
    cards = list(state.cards)
    taken = cards[i]
    cards[i] = None
    assert state.knock is not None
    return replace_state(
        state,
        phase="drawer_place",
        cards=tuple(cards),
        down=state.down & ~(1 << i),
        knock=replace_knock(state.knock, k2=i, taken=taken),
    )


def _card_put(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    i = _index(state, p["cell"])
    cards = list(state.cards)
    old = cards[i]
    assert old is not None and state.knock is not None
    cards[i] = state.knock.taken
    return replace_state(
        state,
        cards=tuple(cards),
        down=state.down & ~(1 << i),
        discard=state.discard + (old,),
        knock=replace_knock(state.knock, taken=None),
    )


def _knock_hole_filled(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    k = state.knock
    assert k is not None and k.k2 is not None
    cards = list(state.cards)
    cards[k.k2] = k.hand
    return replace_state(state, cards=tuple(cards), knock=replace_knock(k, hand=None))


def _round_end_triggered(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    return replace_state(state, trigger=p["trigger"], queue=tuple(p["final_turns"]))


def _turn_ended(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    return replace_state(
        state,
        phase="turn_start",
        active=p["next"],
        turn=state.turn + 1,
        queue=state.queue[1:] if state.trigger is not None else (),
        drawn=None,
        knock=None,
    )


def _turn_passed(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    return state


def _round_revealed(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    down = state.down
    for entry in p["cells"]:
        down &= ~(1 << _index(state, entry["cell"]))
    return replace_state(state, down=down)


def _round_scored(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    result = RoundResult(
        round=p["round"],
        trigger=p["trigger"],
        forced=p["forced"],
        raw=tuple(p["raw"]),
        scores=tuple(p["scores"]),
        doubled=p["doubled"],
    )
    return replace_state(
        state,
        totals=tuple(p["totals"]),
        results=(*state.results, result),
        trigger=p["trigger"],
        queue=(),
    )


def _match_ended(state: AllegraState, p: dict[str, Any]) -> AllegraState:
    return replace_state(
        state,
        phase="over",
        drawn=None,
        knock=None,
    )


#: The fold: one function per event type, ``(state, payload) -> state``.
EVOLVERS: dict[str, Callable[[Any, dict[str, Any]], AllegraState]] = {
    ev.MATCH_STARTED: _match_started,
    ev.ROUND_DEALT: _round_dealt,
    ev.CARD_REVEALED: _card_revealed,
    ev.TRIPLES_REMOVED: _triples_removed,
    ev.DISCARD_TAKEN: _discard_taken,
    ev.DECK_RESHUFFLED: _deck_reshuffled,
    ev.CARD_DRAWN: _card_drawn,
    ev.KNOCK_ANSWERED: _knock_answered,
    ev.KNOCKS_REVEALED: _knocks_revealed,
    ev.DRAWN_CARD_SWAPPED: _drawn_card_swapped,
    ev.DRAWN_CARD_DISCARDED: _drawn_card_discarded,
    ev.CARD_GIVEN: _card_given,
    ev.KNOCKER_PLACED: _knocker_placed,
    ev.CARD_TAKEN: _card_taken,
    ev.CARD_PUT: _card_put,
    ev.KNOCK_HOLE_FILLED: _knock_hole_filled,
    ev.ROUND_END_TRIGGERED: _round_end_triggered,
    ev.TURN_ENDED: _turn_ended,
    ev.TURN_PASSED: _turn_passed,
    ev.ROUND_REVEALED: _round_revealed,
    ev.ROUND_SCORED: _round_scored,
    ev.MATCH_ENDED: _match_ended,
}


def evolve(state: AllegraState | None, event: Event) -> AllegraState:
    """Apply ``event``; ``state`` is None only for ``allegra.match_started``."""
    apply = EVOLVERS.get(event.type)
    if apply is None:
        raise InvalidOptions(f"Unknown Allegra event type {event.type!r}")
    if (state is None) != (event.type == ev.MATCH_STARTED):
        raise InvalidOptions(f"An Allegra history starts with {ev.MATCH_STARTED}, once")
    return apply(state, event.payload)
