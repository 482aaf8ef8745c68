"""Alager (Alagér, Resto): the Czech three-card exchange game.

The rules are docs/rules/alager.md; actions, events and views are in
docs/rules-api-alager.md. ``GAME`` (defined in ``game.py``) is the game object.

>>> import rules
>>> game = rules.get_game("alager")
>>> events = game.start(players=3, seed=7)
>>> state = game.replay(events)
>>> game.to_act(state)
(1,)
>>> game.legal_actions(state, 1)[-2:]
[{'type': 'pass'}, {'type': 'konec'}]
"""

from rules.alager.game import GAME, AlagerGame
from rules.alager.hands import MARIASH_NAMES, hand_value, mariash_name, special_kind
from rules.alager.state import AlagerState, DealResult, Rules

__all__ = [
    "GAME",
    "MARIASH_NAMES",
    "AlagerGame",
    "AlagerState",
    "DealResult",
    "Rules",
    "hand_value",
    "mariash_name",
    "special_kind",
]
