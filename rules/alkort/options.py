"""Alkort's match options (docs/rules/alkort.md, "Options"), validated once per match.

Names are the rules text's, in snake_case (docs/rules-api.md). The validated
options travel in ``alkort.match_started`` as a dict and live in the state as
the frozen :class:`Rules`, so the hot paths read attributes, not dict keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.core import Option
from rules.records import OptionsRecord

LeadRule = Literal["rotate", "winner"]
SevenRule = Literal["led", "player_has_trick"]

#: The largest target: every deal scores at least one point for one side, so a
#: match lasts at most ``2 × target − 1`` deals (docs/rules-decisions.md, Alkort 12).
MAX_TARGET = 100

OPTIONS: tuple[Option, ...] = (
    Option(
        "target",
        10,
        "The first side whose score reaches this many points wins the match (B9).",
        kind="int",
        minimum=1,
        maximum=MAX_TARGET,
    ),
    Option(
        "lead_rule",
        "rotate",
        'Who leads tricks 2..9: "rotate" (clockwise, whoever won; B7) or '
        '"winner" (the winner of the previous trick; variant V1).',
        kind="choice",
        choices=("rotate", "winner"),
    ),
    Option(
        "seven_rule",
        "led",
        'When a seven is unbeatable: "led" (led by a player who has won a trick; '
        'B6) or "player_has_trick" (played anywhere by a player who has won a '
        "trick, and sevens may always be led; variant V2).",
        kind="choice",
        choices=("led", "player_has_trick"),
    ),
    Option(
        "partner_reveal",
        True,
        "4 players: partners show each other one card of their highest ranked "
        "class before play (B5); false is variant V3. Ignored with 2 players.",
    ),
    Option(
        "first_dealer",
        0,
        "The seat that deals first; the deal then passes clockwise (B9).",
        kind="int",
        minimum=0,
        maximum=3,
    ),
    Option(
        "play_out_all_tricks",
        False,
        "Play all nine tricks even after the deal's score is fixed (cosmetic; "
        "the score is the same, B9).",
    ),
)


@dataclass(frozen=True, slots=True)
class Rules(OptionsRecord):
    """The validated options of one match (to and from JSON via OptionsRecord)."""

    target: int
    lead_rule: LeadRule
    seven_rule: SevenRule
    partner_reveal: bool
    first_dealer: int
    play_out_all_tricks: bool
