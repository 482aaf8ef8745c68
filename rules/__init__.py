"""Cardroom's rules: Alager, Alkort and Allegra as pure, framework-free deciders.

>>> import rules
>>> rules.GAMES
('alager', 'alkort', 'allegra')

This package imports no web framework, database, broker or cache client; a test
checks it. See ``docs/rules-api.md`` for the contract.
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
]
