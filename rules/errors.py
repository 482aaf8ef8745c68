"""The errors of the rules package: every bad input raises a RulesError with a message.

Each error has a stable ``code`` (the API's ``{"code", "message"}``) and a
message written for the player. ``rules.core`` and ``rules`` re-export them.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the rules package raises on bad input."""

    code = "rules_error"


class IllegalAction(RulesError):
    """The action is not allowed now. The message says why, in player terms."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The seat may not act at this moment."""

    code = "not_your_turn"


class UnknownAction(IllegalAction):
    """The action's ``type`` does not exist in this game (or this phase)."""

    code = "unknown_action"


class MalformedAction(IllegalAction):
    """The action is not a well-formed request (missing key, wrong type …)."""

    code = "malformed_action"


class GameOver(IllegalAction):
    """The match has ended; nothing more can be played."""

    code = "game_over"


class InvalidOptions(RulesError):
    """The options (or player count, or given deck) cannot start a match."""

    code = "invalid_options"
