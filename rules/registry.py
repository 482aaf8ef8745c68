"""Lookup of games by name: ``rules.get_game("alkort")``."""

from __future__ import annotations

import importlib
from typing import Any

from rules.core import Game

#: Every game Cardroom offers, by its stable name.
GAMES: tuple[str, ...] = ("alager", "alkort", "allegra")

_cache: dict[str, Game[Any]] = {}


def get_game(name: str) -> Game[Any]:
    """The game called ``name``; raises KeyError (with a clear message) otherwise."""
    if name not in GAMES:
        raise KeyError(f"Unknown game {name!r}; Cardroom offers: {', '.join(GAMES)}")
    game = _cache.get(name)
    if game is None:
        module = importlib.import_module(f"rules.{name}")
        game = _cache[name] = module.GAME
    return game
