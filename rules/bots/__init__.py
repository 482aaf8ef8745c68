"""Bots: policies that choose an action from what one seat may see.

A bot never touches a match's state. :func:`bot_input` is the single place that
turns a state into a :class:`BotInput` — the seat's own ``view``, its legal
actions and the history redacted for that seat — and a :class:`Policy` chooses
from that alone. So a bot cannot peek, and a test proves its choice is the same
when the cards it cannot see are reshuffled.

Levels: ``random`` (uniform among legal actions), ``basic`` (a fast heuristic),
``strong`` (a determinised search). ``levels(game)`` lists the levels a game
has, ``has_level(game, level)`` answers for one, and ``get_bot(game, level)``
returns a policy.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.core import Action, Event, Game
from rules.registry import GAMES

LEVELS: tuple[str, ...] = ("random", "basic", "strong")


@dataclass(frozen=True)
class BotInput:
    """Everything a bot may know when it chooses: nothing hidden from its seat."""

    game: str
    seat: int
    view: dict[str, Any]
    legal: tuple[Action, ...]
    history: tuple[Event, ...]


class Policy(ABC):
    """Chooses one of ``inp.legal``; deterministic given ``rng``."""

    level: str = ""

    @abstractmethod
    def choose(self, inp: BotInput, rng: random.Random) -> Action:
        """One action from ``inp.legal``."""


class RandomPolicy(Policy):
    """Uniform among the legal actions."""

    level = "random"

    def choose(self, inp: BotInput, rng: random.Random) -> Action:
        """A legal action, uniformly at random."""
        return dict(rng.choice(inp.legal))


def bot_input(
    game: Game[Any],
    state: Any,
    events: Sequence[Event],
    seat: int,
    redacted: Sequence[Event] | None = None,
) -> BotInput:
    """The seat-restricted input of a bot (the only code that reads the state).

    ``redacted`` may pass the history already redacted for ``seat`` (callers
    that play many moves keep it up to date instead of redacting every event
    again at every decision); otherwise ``events`` are redacted here.
    """
    history = (
        tuple(redacted)
        if redacted is not None
        else tuple(game.redact(e, seat) for e in events)
    )
    return BotInput(
        game=game.name,
        seat=seat,
        view=game.view(state, seat),
        legal=tuple(game.legal_actions(state, seat)),
        history=history,
    )


def levels(game: str) -> tuple[str, ...]:
    """The bot levels that exist for ``game``, weakest first.

    ``random`` exists for every game; the others where ``rules.bots.<game>``
    has a policy for them. Raises KeyError for a game Cardroom does not offer.

    >>> levels("alkort")
    ('random', 'basic', 'strong')
    """
    if game not in GAMES:
        raise KeyError(f"Unknown game {game!r}; Cardroom offers: {', '.join(GAMES)}")
    policies = importlib.import_module(f"rules.bots.{game}").POLICIES
    return tuple(level for level in LEVELS if level == "random" or level in policies)


def has_level(game: str, level: str) -> bool:
    """Whether ``game`` has a bot at ``level`` (False for an unknown game or level).

    >>> has_level("allegra", "strong"), has_level("allegra", "genius")
    (True, False)
    """
    return game in GAMES and level in levels(game)


def get_bot(game: str, level: str) -> Policy:
    """The policy for ``game`` at ``level`` (random, basic or strong).

    Raises KeyError for a level that does not exist for ``game``; check with
    :func:`has_level` first to avoid it.
    """
    if level not in LEVELS:
        raise KeyError(f"Unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    if level == "random":
        return RandomPolicy()
    module = importlib.import_module(f"rules.bots.{game}")
    policy: Policy = module.POLICIES[level]()
    return policy
