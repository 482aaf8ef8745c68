"""Alkort: the Icelandic trick-taking game for 2 players or 4 in partnerships.

The rules are docs/rules/alkort.md; decisions the rules text leaves open are in
docs/rules-decisions.md#alkort, and actions, events and views in
docs/rules-api-alkort.md. ``GAME`` (defined in ``game.py``) is the game object.

>>> import rules
>>> game = rules.get_game("alkort")
>>> events = game.start(players=4, seed=7)
>>> state = game.replay(events)
>>> game.to_act(state), game.view(state, 1)["phase"]
((1,), 'exchange')
"""

from rules.alkort.game import GAME, AlkortGame

__all__ = ["GAME", "AlkortGame"]
