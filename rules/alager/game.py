"""The Alager game object: the contract of docs/rules-api.md wired to this package.

The modules have the same names and jobs in every game: ``options`` (the
options and their bounds), ``state`` (the frozen records), ``events`` (every
event type), ``decide`` (actions in, events out), ``evolve`` (the fold),
``scoring``, ``views`` (what a seat sees) and ``hidden`` (redaction and
alternative histories). The rules are docs/rules/alager.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.alager import decide, hidden, scoring, views
from rules.alager.evolve import evolve
from rules.alager.options import OPTIONS, deck_for, max_players, resolve
from rules.alager.state import AlagerState
from rules.cards import Card, parse_card
from rules.core import Action, Event, Game, Option, Seat
from rules.errors import InvalidOptions


class AlagerGame(Game[AlagerState]):
    """Alager (Alagér, Resto): the Czech three-card exchange game."""

    name: ClassVar[str] = "alager"
    title: ClassVar[str] = "Alager"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 15
    lower_score_is_better: ClassVar[bool] = True
    state_type: ClassVar[type] = AlagerState
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS

    # -- setup

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """2 players up to what the deck allows (D-2: 15 with 52 cards, 8 with 32)."""
        return 2, max_players(options["deck"])

    def validate_players(
        self, players: object, options: Mapping[str, Any] | None = None
    ) -> int:
        """As every game's, and a count the 52-card deck would seat says the
        deck is why: "played by 2 to 8 players, not 9" alone read as a mistake
        to someone who had picked the 32-card deck in a form offering 15."""
        try:
            return super().validate_players(players, options)
        except InvalidOptions as refused:
            deck = self.validate_options(options)["deck"]
            most = max_players(52)
            if (
                isinstance(players, int)
                and not isinstance(players, bool)
                and max_players(deck) < players <= most
            ):
                raise InvalidOptions(
                    f"{refused}, with the {deck}-card deck (up to {most} with 52 cards)"
                ) from None
            raise

    def standard_deck(self, options: Mapping[str, Any]) -> list[Card]:
        """The 52- or 32-card deck in its unshuffled order."""
        return deck_for(options.get("deck", 52))

    def resolve_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """``first_dealer`` must be a seat; ``num_deals`` null becomes 2 × players."""
        return resolve(options, players)

    def deck_card(self, value: object) -> Card:
        """A card of a given deck, in canonical notation (``"qh"`` → ``"QH"``)."""
        return parse_card(value)

    def opening_events(self, state: AlagerState) -> list[Event]:
        """The first deal (which a dealt Alager may end at once)."""
        return decide.deal_events(state)

    # -- the fold and deciding

    def evolve(self, state: AlagerState | None, event: Event) -> AlagerState:
        """Apply one event (see ``rules.alager.evolve``)."""
        return evolve(state, event)

    def to_act(self, state: AlagerState) -> tuple[int, ...]:
        """The seat to act, or ``()`` when the match is over."""
        return decide.to_act(state)

    def konec_allowed(self, state: AlagerState) -> bool:
        """May the seat to act knock now (D-12 and ``konec_min_round``)?"""
        return decide.konec_allowed(state)

    def legal_actions(self, state: AlagerState, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in canonical form."""
        return decide.legal_actions(state, seat)

    def decide(
        self, state: AlagerState, seat: int, action: Mapping[str, Any]
    ) -> list[Event]:
        """The events ``action`` causes; raises IllegalAction (see ``decide``)."""
        return decide.decide(state, seat, action)

    def outcome(self, state: AlagerState) -> dict[str, Any] | None:
        """None while playing; else scores (penalty points), places and winners."""
        return scoring.outcome(state)

    # -- what a seat may see

    def view(self, state: AlagerState, seat: Seat) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator)."""
        return views.view(state, seat)

    def redact(self, event: Event, seat: Seat) -> Event:
        """The event as ``seat`` may see it."""
        return hidden.redact(event, seat)

    # -- testing hooks

    def inventory(self, state: AlagerState) -> list[Card]:
        """Every card of the match, wherever it lies."""
        return hidden.inventory(state)

    def resample_unseen(
        self, events: Sequence[Event], seat: Seat, rng: random.Random
    ) -> list[Event]:
        """An alternative history ``seat`` cannot tell from ``events``."""
        return hidden.resample_unseen(events, seat, rng)


GAME = AlagerGame()
