"""The Allegra game object: the §3 contract wired to this package's modules."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules import dealing
from rules.allegra import decide as deciding
from rules.allegra import hidden, views
from rules.allegra.evolve import evolve
from rules.allegra.options import (
    OPTIONS,
    Rules,
    player_range,
    resolve,
    standard_deck_for,
)
from rules.allegra.rounds import deal_event
from rules.allegra.state import AllegraState
from rules.core import (
    Action,
    Event,
    Game,
    InvalidOptions,
    Option,
    Seat,
    match_started,
)


class Allegra(Game[AllegraState]):
    """Allegra: Golf on 4×3 grids where neighbours share a column (ALLEGRA.md)."""

    name: ClassVar[str] = "allegra"
    title: ClassVar[str] = "Allegra"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    lower_score_is_better: ClassVar[bool] = True
    state_type: ClassVar[type] = AllegraState
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return player_range(options)

    def standard_deck(self, options: Mapping[str, Any]) -> list[Any]:
        return list(standard_deck_for(Rules.from_options(options)))

    def start(
        self,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        deck: Sequence[Any] | None = None,
    ) -> list[Event]:
        opts = self.validate_options(options)
        self.validate_players(players, opts)
        opts = resolve(opts, players)
        rules = Rules.from_options(opts)
        text = dealing.seed_or_new(seed)
        decks = dealing.normalise_decks(deck)
        full = Counter(standard_deck_for(rules))
        for d in decks:
            if not all(isinstance(c, int) and not isinstance(c, bool) for c in d):
                raise InvalidOptions("An Allegra deck is a list of whole numbers")
            if Counter(d) != full:
                raise InvalidOptions(
                    f"A given deck must hold exactly the {sum(full.values())} cards "
                    "of the match's deck, in any order"
                )
        started = match_started(
            "allegra", players=players, options=opts, seed=text, decks=decks
        )
        chance = dealing.Chance(text, decks)
        return [started, deal_event(players, rules, chance, 1, rules.first_player)]

    def evolve(self, state: AllegraState | None, event: Event) -> AllegraState:
        return evolve(state, event)

    def to_act(self, state: AllegraState) -> tuple[int, ...]:
        return deciding.to_act(state)

    def legal_actions(self, state: AllegraState, seat: int) -> list[Action]:
        return deciding.legal_actions(state, seat)

    def decide(
        self, state: AllegraState, seat: int, action: Mapping[str, Any]
    ) -> list[Event]:
        return deciding.decide(state, seat, action)

    def view(self, state: AllegraState, seat: Seat) -> dict[str, Any]:
        return views.view(state, seat)

    def redact(self, event: Event, seat: Seat) -> Event:
        return views.redact(event, seat)

    def outcome(self, state: AllegraState) -> dict[str, Any] | None:
        return views.outcome(state)

    def inventory(self, state: AllegraState) -> list[Any]:
        return list(hidden.inventory(state))

    def resample_unseen(
        self, events: Sequence[Event], seat: Seat, rng: random.Random
    ) -> list[Event]:
        return hidden.resample_unseen(events, seat, rng)
