"""Applying events to the state: pure, and never raising for events ``decide`` made.

Events are facts: the deal carries the deck, the triple removal its cells,
the end of turn the next player. Applying them needs no rule logic beyond
moving cards, so a replay reproduces the live state exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.allegra.options import Rules
from rules.allegra.state import (
    AllegraState,
    Knock,
    RoundResult,
    replace_knock,
    replace_state,
)
from rules.core import Event
from rules.dealing import Chance


def _index(st: AllegraState, cell: dict[str, int]) -> int:
    return 12 * cell["seat"] + 4 * cell["row"] + cell["col"]


def _match_started(st: AllegraState | None, p: dict[str, Any]) -> AllegraState:
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


def _round_dealt(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    deck = p["deck"]
    size = 12 * st.players
    return replace_state(
        st,
        chance=st.chance.after(p),
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


def _card_revealed(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    down = st.down & ~(1 << _index(st, p["cell"]))
    if st.reveals == 0:
        return replace_state(st, down=down, reveals=1)
    nxt = (st.active + 1) % st.players
    phase = "turn_start" if nxt == st.start_seat else "initial_reveal"
    return replace_state(st, down=down, reveals=0, active=nxt, phase=phase)


def _triples_removed(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    cards = list(st.cards)
    for cell in p["cells"]:
        cards[_index(st, cell)] = None
    removed = tuple(p["cards"])
    if p["to"] == "discard":
        return replace_state(st, cards=tuple(cards), discard=st.discard + removed)
    return replace_state(st, cards=tuple(cards), out_of_play=st.out_of_play + removed)


def _discard_taken(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    i = _index(st, p["cell"])
    cards = list(st.cards)
    old = cards[i]
    cards[i] = st.discard[-1]
    assert old is not None
    return replace_state(
        st,
        cards=tuple(cards),
        down=st.down & ~(1 << i),
        discard=st.discard[:-1] + (old,),
    )


def _deck_reshuffled(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    return replace_state(
        st,
        chance=st.chance.after(p),
        draw=tuple(p["deck"]),
        discard=st.discard[-1:],
    )


def _card_drawn(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    eligible = tuple(p["knock_window"])
    if not eligible:
        return replace_state(
            st, drawn=st.draw[0], draw=st.draw[1:], phase="decide_deck_card"
        )
    return replace_state(
        st,
        drawn=st.draw[0],
        draw=st.draw[1:],
        phase="knock_window",
        knock=Knock(eligible=eligible, pending=eligible),
    )


def _knock_answered(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    seat = p["seat"]
    k = st.knock
    assert k is not None
    pending = tuple(s for s in k.pending if s != seat)
    knockers = k.knockers + (seat,) if p["knock"] else k.knockers
    return replace_state(st, knock=replace_knock(k, pending=pending, knockers=knockers))


def _knocks_revealed(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    assert st.knock is not None
    knock = replace_knock(st.knock, knockers=tuple(p["knockers"]))
    return replace_state(st, phase="decide_deck_card", knock=knock)


def _drawn_card_swapped(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    i = _index(st, p["cell"])
    cards = list(st.cards)
    old = cards[i]
    assert old is not None and st.drawn is not None
    cards[i] = st.drawn
    return replace_state(
        st,
        cards=tuple(cards),
        down=st.down & ~(1 << i),
        discard=st.discard + (old,),
        drawn=None,
    )


def _drawn_card_discarded(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    assert st.drawn is not None
    down = st.down
    if p["flip"] is not None:
        down &= ~(1 << _index(st, p["flip"]))
    return replace_state(st, down=down, discard=st.discard + (st.drawn,), drawn=None)


def _card_given(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    assert st.knock is not None
    knock = replace_knock(st.knock, knocker=p["to"])
    return replace_state(st, phase="knocker_place", knock=knock)


def _knocker_placed(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    i = _index(st, p["cell"])
    cards = list(st.cards)
    hand = cards[i]
    cards[i] = st.drawn
    assert st.knock is not None
    knock = replace_knock(st.knock, k1=i, hand=hand, hand_public=p["hand_public"])
    return replace_state(
        st,
        phase="drawer_take",
        cards=tuple(cards),
        down=st.down & ~(1 << i),
        drawn=None,
        knock=knock,
    )


def _card_taken(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    i = _index(st, p["cell"])
    cards = list(st.cards)
    taken = cards[i]
    cards[i] = None
    assert st.knock is not None
    return replace_state(
        st,
        phase="drawer_place",
        cards=tuple(cards),
        down=st.down & ~(1 << i),
        knock=replace_knock(st.knock, k2=i, taken=taken),
    )


def _card_put(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    i = _index(st, p["cell"])
    cards = list(st.cards)
    old = cards[i]
    assert old is not None and st.knock is not None
    cards[i] = st.knock.taken
    return replace_state(
        st,
        cards=tuple(cards),
        down=st.down & ~(1 << i),
        discard=st.discard + (old,),
        knock=replace_knock(st.knock, taken=None),
    )


def _knock_hole_filled(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    k = st.knock
    assert k is not None and k.k2 is not None
    cards = list(st.cards)
    cards[k.k2] = k.hand
    return replace_state(st, cards=tuple(cards), knock=replace_knock(k, hand=None))


def _round_end_triggered(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    return replace_state(st, trigger=p["trigger"], queue=tuple(p["final_turns"]))


def _turn_ended(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    return replace_state(
        st,
        phase="turn_start",
        active=p["next"],
        turn=st.turn + 1,
        queue=st.queue[1:] if st.trigger is not None else (),
        drawn=None,
        knock=None,
    )


def _turn_passed(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    return st


def _round_revealed(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    down = st.down
    for entry in p["cells"]:
        down &= ~(1 << _index(st, entry["cell"]))
    return replace_state(st, down=down)


def _round_scored(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    result = RoundResult(
        round=p["round"],
        trigger=p["trigger"],
        forced=p["forced"],
        raw=tuple(p["raw"]),
        scores=tuple(p["scores"]),
        doubled=p["doubled"],
    )
    return replace_state(
        st,
        totals=tuple(p["totals"]),
        results=(*st.results, result),
        trigger=p["trigger"],
        queue=(),
    )


def _match_ended(st: AllegraState, p: dict[str, Any]) -> AllegraState:
    return replace_state(
        st,
        phase="game_over",
        drawn=None,
        knock=None,
    )


_APPLY: dict[str, Callable[[Any, dict[str, Any]], AllegraState]] = {
    "allegra.match_started": _match_started,
    "allegra.round_dealt": _round_dealt,
    "allegra.card_revealed": _card_revealed,
    "allegra.triples_removed": _triples_removed,
    "allegra.discard_taken": _discard_taken,
    "allegra.deck_reshuffled": _deck_reshuffled,
    "allegra.card_drawn": _card_drawn,
    "allegra.knock_answered": _knock_answered,
    "allegra.knocks_revealed": _knocks_revealed,
    "allegra.drawn_card_swapped": _drawn_card_swapped,
    "allegra.drawn_card_discarded": _drawn_card_discarded,
    "allegra.card_given": _card_given,
    "allegra.knocker_placed": _knocker_placed,
    "allegra.card_taken": _card_taken,
    "allegra.card_put": _card_put,
    "allegra.knock_hole_filled": _knock_hole_filled,
    "allegra.round_end_triggered": _round_end_triggered,
    "allegra.turn_ended": _turn_ended,
    "allegra.turn_passed": _turn_passed,
    "allegra.round_revealed": _round_revealed,
    "allegra.round_scored": _round_scored,
    "allegra.match_ended": _match_ended,
}

EVENT_TYPES = tuple(_APPLY)


def evolve(st: AllegraState | None, event: Event) -> AllegraState:
    return _APPLY[event.type](st, event.payload)
