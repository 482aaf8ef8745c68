"""Cardroom's rules: Alager, Alkort and Allegra as pure, framework-free deciders.

>>> import rules
>>> rules.GAMES
('alager', 'alkort', 'allegra')

The public surface for the rest of Cardroom is small: :func:`get_game` and the
:class:`Game` contract it returns, the errors, :func:`new_seed` (a fresh secret
seed for a new table) and ``rules.bots``' public functions (``levels``,
``has_level``, ``get_bot``, ``bot_input``). This package imports no web
framework, database, broker or cache client; a test checks it. See
``docs/rules-api.md`` for the contract and ``docs/rules/<game>.md`` for the
rules of each game.
"""

from rules.core import (
    Event,
    Game,
    GameOver,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    NotYourTurn,
    Option,
    RulesError,
    UnknownAction,
)
from rules.dealing import new_seed
from rules.registry import GAMES, get_game

__all__ = [
    "GAMES",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "InvalidOptions",
    "MalformedAction",
    "NotYourTurn",
    "Option",
    "RulesError",
    "UnknownAction",
    "get_game",
    "new_seed",
]
