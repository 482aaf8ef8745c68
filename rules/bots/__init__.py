"""Bots: policies that choose an action from what one seat may see.

A bot never touches a match's state. :func:`bot_input` is the single place that
turns a state into a :class:`BotInput` — the seat's own ``view``, its legal
actions and the history redacted for that seat — and a :class:`Policy` chooses
from that alone. So a bot cannot peek, and a test proves its choice is the same
when the cards it cannot see are reshuffled.

Levels: ``random`` (uniform among legal actions), ``basic`` (a fast heuristic),
``strong`` (a determinised search). ``get_bot(game, level)`` returns one.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.core import Action, Event, Game

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


def get_bot(game: str, level: str) -> Policy:
    """The policy for ``game`` at ``level`` (random, basic or strong)."""
    if level not in LEVELS:
        raise KeyError(f"Unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    if level == "random":
        return RandomPolicy()
    module = importlib.import_module(f"rules.bots.{game}")
    policy: Policy = module.POLICIES[level]()
    return policy


def bot_act(
    game: Game[Any],
    state: Any,
    events: Sequence[Event],
    seat: int,
    level: str,
    rng: random.Random,
) -> Action:
    """Convenience for callers holding a state: build the input, ask the bot."""
    return get_bot(game.name, level).choose(bot_input(game, state, events, seat), rng)
