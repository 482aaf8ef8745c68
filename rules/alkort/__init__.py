"""Alkort: the Icelandic trick-taking game for 2 players or 4 in partnerships.

The rules are ``ALKORT.md`` (Part B is normative); decisions where it is silent
are in ``docs/rules-decisions.md#alkort`` and the actions and events in
``docs/rules-api-alkort.md``.

>>> import rules
>>> game = rules.get_game("alkort")
>>> events = game.start(players=4, seed=7)
>>> state = game.replay(events)
>>> game.to_act(state), game.view(state, 1)["phase"]
((1,), 'exchange')
"""

from rules.alkort.game import Alkort

GAME = Alkort()

__all__ = ["GAME", "Alkort"]
