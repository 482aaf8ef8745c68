"""The Alkort game object: the contract of docs/rules-api.md wired to this package.

The modules have the same names and jobs in every game: ``options`` (the
options and their bounds), ``state`` (the frozen records), ``events`` (every
event type), ``decide`` (actions in, events out), ``evolve`` (the fold),
``scoring``, ``views`` (what a seat sees) and ``hidden`` (redaction and
alternative histories); ``tables`` and ``tricks`` hold the card tables and the
trick rules, ``knowledge`` and ``determinise`` what a seat can infer (for the
bots). The rules are docs/rules/alkort.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.alkort import decide, hidden, scoring, views
from rules.alkort.evolve import evolve
from rules.alkort.options import OPTIONS
from rules.alkort.state import State
from rules.alkort.tables import DECK, ORDER
from rules.cards import parse_card
from rules.core import (
    Action,
    Event,
    Game,
    InvalidOptions,
    MalformedAction,
    Option,
    Seat,
)


class AlkortGame(Game[State]):
    """Alkort: 2 players, or 4 in partnerships (seats 0 & 2 v 1 & 3)."""

    name: ClassVar[str] = "alkort"
    title: ClassVar[str] = "Alkort"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    lower_score_is_better: ClassVar[bool] = False
    state_type: ClassVar[type] = State
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS

    # -- setup

    def validate_players(
        self, players: object, options: Mapping[str, Any] | None = None
    ) -> int:
        """2 or 4 players (3 is not Alkort)."""
        players = super().validate_players(players, options)
        if players not in (2, 4):
            raise InvalidOptions(
                f"Alkort is played by 2 players or by 4 in partnerships, not {players}"
            )
        return players

    def standard_deck(self, options: Mapping[str, Any]) -> list[str]:
        """The 44-card pack (no fives, no tens) in its unshuffled order."""
        return list(DECK)

    def resolve_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """``first_dealer`` must be a seat of the match."""
        if options["first_dealer"] >= players:
            raise InvalidOptions(
                f"Option 'first_dealer' must be a seat from 0 to {players - 1}"
            )
        return options

    def deck_card(self, value: object) -> str:
        """A card of a given deck: an Alkort card in canonical notation."""
        card = parse_card(value)
        if card not in ORDER:
            raise MalformedAction(f"{card} is not an Alkort card (no fives, no tens)")
        return card

    def opening_events(self, state: State) -> list[Event]:
        """The first deal, by ``first_dealer``."""
        match = state.match
        return [decide.cards_dealt(match, 1, match.rules.first_dealer)]

    # -- the fold and deciding

    def evolve(self, state: State | None, event: Event) -> State:
        """Apply one event (see ``rules.alkort.evolve``)."""
        return evolve(state, event)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seat to act, or ``()`` when the match is over."""
        return decide.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in canonical form."""
        return decide.legal_actions(state, seat)

    def decide(self, state: State, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """The events ``action`` causes; raises IllegalAction (see ``decide``)."""
        return decide.decide(state, seat, action)

    def outcome(self, state: State) -> dict[str, Any] | None:
        """None while playing; else each seat's side score, places and winners."""
        return scoring.outcome(state)

    # -- what a seat may see

    def view(self, state: State, seat: Seat) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator)."""
        return views.view(state, seat)

    def redact(self, event: Event, seat: Seat) -> Event:
        """The event as ``seat`` may see it."""
        return hidden.redact(event, seat)

    # -- testing hooks

    def inventory(self, state: State) -> list[str]:
        """Every card of the match, wherever it lies."""
        return hidden.inventory(state)

    def resample_unseen(
        self, events: Sequence[Event], seat: Seat, rng: random.Random
    ) -> list[Event]:
        """An alternative history ``seat`` cannot tell from ``events``."""
        return hidden.resample_unseen(events, seat, rng)


GAME = AlkortGame()
