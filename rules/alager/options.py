"""Alager's match options (docs/rules/alager.md, "Options"), in snake_case.

``num_deals`` and ``max_turns_per_deal`` default to null, meaning the rules'
``2 × n`` and ``50 × n_active``; ``start`` resolves ``num_deals`` from the
player count and records the resolved value in ``alager.match_started``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.cards import Card, deck32, deck52
from rules.core import InvalidOptions, Option

#: The most deals a match can last, whatever the options: first_to_limit and
#: elimination matches can in principle go on for ever (ties under
#: ``tie_rule = "none"``, Alagers striking points off), so after this many deals
#: the match ends and is scored as it stands (docs/rules-decisions.md, E-8).
MAX_DEALS_PER_MATCH = 300

OPTIONS: tuple[Option, ...] = (
    Option(
        "deck",
        52,
        "52 French cards, or the 32-card mariáš deck (7 to ace)",
        kind="int",
        choices=(52, 32),
    ),
    Option("hori_enabled", False, "Hoří: three aces work like an Alager"),
    Option(
        "deal_pattern",
        "packets",
        "Deal three cards at once to each player, or one at a time in three rounds",
        kind="choice",
        choices=("packets", "single"),
    ),
    Option(
        "a1_discard_to",
        "discard_pile",
        "Where a card discarded when drawing goes: the face-up discard pile, "
        "or face down under the stock",
        kind="choice",
        choices=("discard_pile", "stock_bottom"),
    ),
    Option(
        "replenish_shuffle",
        False,
        "Shuffle the discard pile before it goes under the stock",
    ),
    Option(
        "konec_after_exchange", False, "Allow an exchange and a knock in the same turn"
    ),
    Option(
        "konec_min_round",
        1,
        "Knocking is allowed from this round of a deal on (1: from the first turn)",
        kind="int",
        minimum=1,
        maximum=50,
    ),
    Option(
        "tie_rule",
        "all",
        "Players tied for the lowest hand all take the point (all), or none does (none)",
        kind="choice",
        choices=("all", "none"),
    ),
    Option(
        "knocker_lowest_penalty",
        1,
        "Points the knocker takes when his hand is (jointly) lowest after a Konec end",
        kind="int",
        minimum=0,
        maximum=5,
    ),
    Option(
        "allow_negative_penalties", False, "An Alager may take a player below 0 points"
    ),
    Option(
        "end_mode",
        "first_to_limit",
        "Game over when someone reaches the limit; or eliminate players at the limit; "
        "or play a fixed number of deals",
        kind="choice",
        choices=("first_to_limit", "elimination", "fixed_deals"),
    ),
    Option(
        "penalty_limit",
        5,
        "Penalty points that end the game or eliminate",
        kind="int",
        minimum=1,
        maximum=99,
    ),
    Option(
        "num_deals",
        None,
        "Deals played in fixed_deals mode (null: twice the number of players)",
        kind="int",
        minimum=1,
        maximum=200,
        nullable=True,
    ),
    Option(
        "dealer_rule",
        "rotate",
        "The deal passes clockwise, or the last deal's loser deals",
        kind="choice",
        choices=("rotate", "loser_deals"),
    ),
    Option(
        "first_dealer",
        0,
        "The seat that deals first",
        kind="int",
        minimum=0,
        maximum=14,
    ),
    Option(
        "max_turns_per_deal",
        None,
        "Normal-phase turns after which a deal ends in a showdown (null: 50 per active player)",
        kind="int",
        minimum=1,
        maximum=10_000,
        nullable=True,
    ),
)


def deck_for(size: int) -> list[Card]:
    """The unshuffled deck of ``size`` cards (52, or the 32-card mariáš deck)."""
    return deck32() if size == 32 else deck52()


def max_players(deck: int) -> int:
    """D-2: at least three cards must stay outside hands and table."""
    return (deck - 6) // 3


def resolve(options: Mapping[str, Any], players: int) -> dict[str, Any]:
    """The validated options with ``num_deals`` resolved for ``players``."""
    if options["first_dealer"] >= players:
        raise InvalidOptions(
            f"Option 'first_dealer' must be a seat of this match (0 to {players - 1})"
        )
    opts = dict(options)
    if opts["num_deals"] is None:
        opts["num_deals"] = 2 * players
    return opts
