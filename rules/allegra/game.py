"""The Allegra game object: the contract of docs/rules-api.md wired to this package.

The modules have the same names and jobs in every game: ``options`` (the
options, their bounds and the decks), ``state`` (the frozen records),
``events`` (every event type), ``decide`` (actions in, events out), ``evolve``
(the fold), ``scoring``, ``views`` (what a seat sees) and ``hidden``
(redaction and alternative histories). Allegra adds ``geometry`` (the shared
grids), ``triples``, ``knock`` and ``exchange`` (the knock window and
exchange), ``legal``, ``rounds`` (end of turn, round end, deals), ``checks``
and ``determinise`` (for the bots). The rules are docs/rules/allegra.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.allegra import decide, hidden, scoring, views
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
    MalformedAction,
    Option,
    Seat,
)


class AllegraGame(Game[AllegraState]):
    """Allegra: Golf on 4×3 grids where neighbours share a column."""

    name: ClassVar[str] = "allegra"
    title: ClassVar[str] = "Allegra"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    lower_score_is_better: ClassVar[bool] = True
    state_type: ClassVar[type] = AllegraState
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS

    # -- setup

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """2 to 6 players, as far as the deck suffices (``first_player`` is
        checked in :meth:`resolve_options`)."""
        return player_range(options)

    def validate_players(
        self, players: object, options: Mapping[str, Any] | None = None
    ) -> int:
        """As every game checks it, but a custom deck too small for the table
        is named as such, not as an empty range of player counts."""
        try:
            return super().validate_players(players, options)
        except InvalidOptions:
            if isinstance(players, int) and 2 <= players <= 6:
                size = len(self.standard_deck(self.validate_options(options)))
                raise InvalidOptions(
                    f"The deck has {size} cards; {players} players need at least "
                    f"{12 * players + 1} (12 each and one to start the discard pile)"
                ) from None
            raise

    def standard_deck(self, options: Mapping[str, Any]) -> list[int]:
        """The unshuffled deck of these options, ascending by value."""
        return list(standard_deck_for(Rules.from_options(options)))

    def resolve_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """Check ``first_player`` and the deck size; resolve the turn limit."""
        return resolve(options, players)

    def deck_card(self, value: object) -> int:
        """A card of a given deck: a whole number (its value)."""
        if not isinstance(value, int) or isinstance(value, bool):
            raise MalformedAction(f"{value!r} is not a card value (a whole number)")
        return value

    def opening_events(self, state: AllegraState) -> list[Event]:
        """The first round's deal, started by ``first_player``."""
        rules = state.rules
        return [deal_event(state.players, rules, state.chance, 1, rules.first_player)]

    # -- the fold and deciding

    def evolve(self, state: AllegraState | None, event: Event) -> AllegraState:
        """Apply one event (see ``rules.allegra.evolve``)."""
        return evolve(state, event)

    def to_act(self, state: AllegraState) -> tuple[int, ...]:
        """The seats that may act now (every pending seat in a knock window)."""
        return decide.to_act(state)

    def legal_actions(self, state: AllegraState, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in canonical form."""
        return decide.legal_actions(state, seat)

    def decide(
        self, state: AllegraState, seat: int, action: Mapping[str, Any]
    ) -> list[Event]:
        """The events ``action`` causes; raises IllegalAction (see ``decide``)."""
        return decide.decide(state, seat, action)

    def outcome(self, state: AllegraState) -> dict[str, Any] | None:
        """None while playing; else the totals, places and winners."""
        return scoring.outcome(state)

    # -- what a seat may see

    def view(self, state: AllegraState, seat: Seat) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator)."""
        return views.view(state, seat)

    def redact(self, event: Event, seat: Seat) -> Event:
        """The event as ``seat`` may see it."""
        return hidden.redact(event, seat)

    # -- testing hooks

    def inventory(self, state: AllegraState) -> list[int]:
        """Every card of the match, wherever it lies."""
        return list(hidden.inventory(state))

    def resample_unseen(
        self, events: Sequence[Event], seat: Seat, rng: random.Random
    ) -> list[Event]:
        """An alternative history ``seat`` cannot tell from ``events``."""
        return hidden.resample_unseen(events, seat, rng)


GAME = AllegraGame()
