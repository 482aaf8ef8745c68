"""Apply one Alkort event to a state (the fold). Pure; never raises for events
that ``decide`` produced.

Hot paths (a card played, a trick won) build the new records with positional
constructors rather than ``dataclasses.replace``: it is about twice as fast,
and the engine's speed is mostly the cost of these records.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rules.alkort import events as ev
from rules.alkort.options import Rules
from rules.alkort.state import (
    Deal,
    DealResult,
    Match,
    State,
    Tally,
    Trick,
    empty_tally,
    side_of,
)
from rules.alkort.tables import sort_hand
from rules.alkort.tricks import challenge
from rules.core import Event, InvalidOptions
from rules.dealing import Chance


def evolve(state: State | None, event: Event) -> State:
    """Apply ``event``; ``state`` is None only for ``alkort.match_started``."""
    apply = EVOLVERS.get(event.type)
    if apply is None:
        raise InvalidOptions(f"Unknown Alkort event type {event.type!r}")
    if (state is None) != (event.type == ev.MATCH_STARTED):
        raise InvalidOptions(f"An Alkort history starts with {ev.MATCH_STARTED}, once")
    return apply(state, event.payload)


def _match_started(_: None, p: dict[str, Any]) -> State:
    players = int(p["players"])
    decks = tuple(tuple(d) for d in p.get("decks") or ())
    match = Match(
        players=players,
        rules=Rules.from_options(p["options"]),
        chance=Chance(str(p["seed"]), decks),
        seed_sha256=p["seed_sha256"],
        scores=(0, 0),
    )
    return State(
        match=match,
        deal=Deal(0, -1, -1, (), ()),
        tally=empty_tally(players),
        phase="exchange",
        hands=((),) * players,
        turn=-1,
        leader=-1,
        trick=(),
        best=0,
    )


def _cards_dealt(state: State, p: dict[str, Any]) -> State:
    match = state.match
    forehand = p["forehand"]
    return State(
        match=replace(match, chance=match.chance.after(p)),
        deal=Deal(
            number=p["deal"],
            dealer=p["dealer"],
            forehand=forehand,
            stock=tuple(p["stock"]),
            dead=tuple(p["dead"]),
        ),
        tally=empty_tally(match.players),
        phase="exchange",
        hands=tuple(sort_hand(h) for h in p["hands"]),
        turn=forehand,
        leader=forehand,
        trick=(),
        best=0,
    )


def _exchange_passed(state: State, p: dict[str, Any]) -> State:
    seat = p["seat"]
    deal = state.deal
    last = seat == deal.dealer
    # Four passes a deal: positional constructors, not dataclasses.replace.
    deal = Deal(
        deal.number,
        deal.dealer,
        deal.forehand,
        deal.stock,
        deal.dead,
        (*deal.passed, seat),
    )
    return State(
        state.match,
        deal,
        state.tally,
        "play" if last else "exchange",
        state.hands,
        deal.forehand if last else (seat + 1) % state.match.players,
        state.leader,
        state.trick,
        state.best,
    )


def _stock_exchanged(state: State, p: dict[str, Any]) -> State:
    seat = p["seat"]
    hands = list(state.hands)
    hands[seat] = sort_hand([p["keep"], *p["taken"]])
    deal = replace(
        state.deal,
        stock=(),
        exchanger=seat,
        shown=tuple(p["shown"]),
        kept=p["keep"],
        taken=tuple(p["taken"]),
        discards=tuple(p["discards"]),
    )
    return replace(
        state, deal=deal, phase="play", hands=tuple(hands), turn=deal.forehand
    )


def _partners_revealed(state: State, p: dict[str, Any]) -> State:
    reveals = tuple(r["card"] for r in sorted(p["reveals"], key=lambda r: r["seat"]))
    return replace(state, deal=replace(state.deal, reveals=reveals))


def _card_played(state: State, p: dict[str, Any]) -> State:
    seat: int = p["seat"]
    card: str = p["card"]
    hands = state.hands
    hand = hands[seat]
    i = hand.index(card)
    trick = state.trick
    return State(
        state.match,
        state.deal,
        state.tally,
        state.phase,
        (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :]),
        (seat + 1) % state.match.players,
        state.leader,
        (*trick, card),
        challenge(state, seat, card) if trick else 0,
    )


def _trick_won(state: State, p: dict[str, Any]) -> State:
    winner: int = p["seat"]
    tally = state.tally
    seat_tricks = list(tally.seat_tricks)
    seat_tricks[winner] += 1
    side_tricks = list(tally.side_tricks)
    side_tricks[side_of(winner)] += 1
    done = (*tally.done, Trick(p["leader"], tuple(p["cards"]), winner))
    match = state.match
    if match.rules.lead_rule == "winner":
        leader = winner
    else:
        leader = (state.deal.forehand + len(done)) % match.players
    return State(
        match,
        state.deal,
        Tally(done, tuple(seat_tricks), (side_tricks[0], side_tricks[1])),
        state.phase,
        state.hands,
        leader,
        leader,
        (),
        0,
    )


def _deal_scored(state: State, p: dict[str, Any]) -> State:
    match = state.match
    result = DealResult(
        deal=p["deal"],
        side=p["side"],
        points=p["points"],
        kind=p["kind"],
        run=p["run"],
        tricks=(p["tricks"][0], p["tricks"][1]),
    )
    scores = p["scores"]
    return replace(
        state,
        match=replace(
            match, scores=(scores[0], scores[1]), results=(*match.results, result)
        ),
        turn=-1,
    )


def _match_ended(state: State, p: dict[str, Any]) -> State:
    return replace(state, match=replace(state.match, ended=True), phase="over", turn=-1)


#: The fold: one function per event type, ``(state, payload) -> state``.
EVOLVERS: dict[str, Callable[[Any, dict[str, Any]], State]] = {
    ev.MATCH_STARTED: _match_started,
    ev.CARDS_DEALT: _cards_dealt,
    ev.EXCHANGE_PASSED: _exchange_passed,
    ev.STOCK_EXCHANGED: _stock_exchanged,
    ev.PARTNERS_REVEALED: _partners_revealed,
    ev.CARD_PLAYED: _card_played,
    ev.TRICK_WON: _trick_won,
    ev.DEAL_SCORED: _deal_scored,
    ev.MATCH_ENDED: _match_ended,
}
