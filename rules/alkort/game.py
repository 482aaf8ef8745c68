"""The Alkort game object: the §3 contract wired to this package's modules."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules import dealing
from rules.alkort import decide as decide_mod
from rules.alkort import events as ev
from rules.alkort import views
from rules.alkort.evolve import HANDLERS
from rules.alkort.evolve import evolve as evolve_state
from rules.alkort.options import OPTIONS
from rules.alkort.resample import resample_unseen
from rules.alkort.state import State
from rules.alkort.tables import DECK
from rules.cards import parse_card
from rules.core import (
    Action,
    Event,
    Game,
    InvalidOptions,
    MalformedAction,
    Option,
    Seat,
    match_started,
)


class Alkort(Game[State]):
    """Alkort (ALKORT.md): 2 players, or 4 in partnerships (seats 0 & 2 v 1 & 3)."""

    name: ClassVar[str] = "alkort"
    title: ClassVar[str] = "Alkort"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    lower_score_is_better: ClassVar[bool] = False
    state_type: ClassVar[type] = State
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS

    def validate_players(
        self, players: object, options: Mapping[str, Any] | None = None
    ) -> int:
        players = super().validate_players(players, options)
        if players not in (2, 4):
            raise InvalidOptions(
                f"Alkort is played by 2 players or by 4 in partnerships, not {players}"
            )
        return players

    def start(
        self,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        deck: Sequence[Any] | None = None,
    ) -> list[Event]:
        opts = self.validate_options(options)
        players = self.validate_players(players, opts)
        if opts["first_dealer"] >= players:
            raise InvalidOptions(
                f"Option 'first_dealer' must be a seat from 0 to {players - 1}"
            )
        text = dealing.seed_or_new(seed)
        decks = [_check_deck(d, i) for i, d in enumerate(dealing.normalise_decks(deck))]
        started = match_started(
            "alkort", players=players, options=opts, seed=text, decks=decks
        )
        state = evolve_state(None, started)
        return [started, ev.cards_dealt(state.match, 1, opts["first_dealer"])]

    def standard_deck(self, options: Mapping[str, Any]) -> list[Any]:
        return list(DECK)

    def evolve(self, state: State | None, event: Event) -> State:
        handler = HANDLERS.get(event.type)
        if handler is None or state is None:
            return evolve_state(state, event)  # the checks, and match_started
        return handler(state, event.payload)

    def to_act(self, state: State) -> tuple[int, ...]:
        return decide_mod.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return decide_mod.legal_actions(state, seat)

    def decide(self, state: State, seat: int, action: Mapping[str, Any]) -> list[Event]:
        return decide_mod.decide(state, seat, action)

    def view(self, state: State, seat: Seat) -> dict[str, Any]:
        return views.view(state, seat)

    def redact(self, event: Event, seat: Seat) -> Event:
        return views.redact(event, seat)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return views.outcome(state)

    def inventory(self, state: State) -> list[Any]:
        deal = state.deal
        cards: list[str] = [c for hand in state.hands for c in hand]
        cards.extend(deal.stock)
        cards.extend(deal.dead)
        cards.extend(deal.discards)
        cards.extend(state.trick)
        for trick in state.tally.done:
            cards.extend(trick.cards)
        return cards

    def resample_unseen(
        self, events: Sequence[Event], seat: Seat, rng: random.Random
    ) -> list[Event]:
        return resample_unseen(events, seat, rng)


def _check_deck(deck: Sequence[Any], index: int) -> list[str]:
    """A given deck must be the 44 Alkort cards in some order."""
    try:
        cards = [parse_card(c) for c in deck]
    except MalformedAction as exc:
        raise InvalidOptions(f"Deck {index + 1}: {exc}") from None
    if len(cards) != len(DECK) or set(cards) != set(DECK):
        raise InvalidOptions(
            f"Deck {index + 1} must hold each of the 44 Alkort cards exactly once "
            "(no fives, no tens)"
        )
    return cards
