"""Allegra's match options (docs/rules/allegra.md, "Options") and the decks they describe.

Option names and string values are the rules text's, in snake_case
(``knockMinPlayers`` → ``knock_min_players``, ``"outOfPlay"`` → ``"out_of_play"``).
The options a match was started with are kept in the state as :class:`Rules`,
a small frozen record that the hot paths read without dictionary lookups.

Two options do not fit a plain JSON default, so they are encoded:

- ``deck_composition`` is a custom deck. The rules define it as a map value →
  copies (``{"-1": 5, "0": 7, …}``; JSON keys are strings, so a key is a card
  value or its decimal text); the list of card values, each as often as it has
  copies (``[1, 1, 1, 2, 2, 2, …]``), is accepted too. Validation turns either
  form into that list sorted ascending (a ``multiset`` option, rules/options.py),
  which is what ``match_started`` records and views show. Null (the default)
  means "derived from ``deck``".
- ``max_turns_per_round`` defaults to ``60 × players``, which depends on the
  player count: ``0`` (the default) stands for that, null for "no limit", any
  positive number for itself. ``start`` stores the resolved number.

>>> standard_deck_for(Rules())[:3], len(standard_deck_for(Rules()))
((1, 1, 1), 110)
>>> len(standard_deck_for(Rules(deck="published")))
120
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.core import InvalidOptions, Option
from rules.records import OptionsRecord

#: §3.1, ``deck = "published"``: copies per value, −1 … 11.
PUBLISHED_COPIES: dict[int, int] = {
    -1: 5,
    0: 7,
    1: 9,
    2: 10,
    3: 11,
    4: 12,
    5: 12,
    6: 12,
    7: 11,
    8: 10,
    9: 9,
    10: 7,
    11: 5,
}

#: Turns per round per player before the §9.3 safeguard ends the round.
TURNS_PER_PLAYER = 60

#: The most cards a custom deck may hold (twice the published deck).
MAX_DECK_SIZE = 240

#: The longest a round can last, in turns, whatever the options say: the
#: largest ``max_turns_per_round`` accepted, and the limit a round with
#: ``max_turns_per_round = null`` ("no limit") still stops at, as a forced end
#: (docs/rules-decisions.md, Allegra E-19).
MAX_TURNS_PER_ROUND = 1000

OPTIONS: tuple[Option, ...] = (
    Option("rounds", 3, "Rounds per match", kind="int", minimum=1, maximum=20),
    Option(
        "deck",
        "seed",
        'The deck: "seed" (1-11, 10 copies each, 110 cards) or "published" '
        "(-1 to 11, 120 cards)",
        kind="choice",
        choices=("seed", "published"),
    ),
    Option(
        "deck_composition",
        None,
        "A custom deck, overriding 'deck' when given: an object of copies per "
        'card value ({"-1": 5, "0": 7, ...}), or a list of every card value, '
        "each as often as it has copies ([1, 1, 1, 2, ...]); either is recorded "
        "as the list sorted ascending",
        kind="int_list",
        minimum=-99,
        maximum=99,
        max_length=MAX_DECK_SIZE,
        nullable=True,
        multiset=True,
    ),
    Option(
        "first_player",
        0,
        "Start player of round 1",
        kind="int",
        minimum=0,
        maximum=5,
    ),
    Option(
        "knock_min_players",
        2,
        "Knocking is possible only with at least this many players "
        "(3 = the published game's reported rule; 7 = never)",
        kind="int",
        minimum=2,
        maximum=7,
    ),
    Option(
        "long_run_rule",
        "union",
        "Runs of 4-5 equal cards: remove all of them (union) or only the "
        "leftmost three of each area row (leftmost3)",
        kind="choice",
        choices=("union", "leftmost3"),
    ),
    Option(
        "triple_cards_to",
        "out_of_play",
        "Removed triples leave the round (out_of_play) or go onto the discard "
        "pile (discard, as in Skyjo)",
        kind="choice",
        choices=("out_of_play", "discard"),
    ),
    Option(
        "remove_triples_on_final_reveal",
        False,
        "Whether triples formed by the end-of-round reveal are removed",
    ),
    Option(
        "tie_counts_as_lowest",
        True,
        "A round-end trigger tied for the lowest score is not doubled "
        "(false = Skyjo: the trigger must be strictly lowest)",
    ),
    Option(
        "double_only_positive",
        True,
        "Zero and negative scores of the trigger are never doubled",
    ),
    Option(
        "trigger_mode",
        "any_player",
        "Who can trigger the round end at the end of a turn: any finished "
        "player (any_player) or only the active player (active_only)",
        kind="choice",
        choices=("any_player", "active_only"),
    ),
    Option(
        "next_round_start",
        "rotate",
        "Start player of later rounds: one seat clockwise each round (rotate) "
        "or the previous round's trigger (trigger)",
        kind="choice",
        choices=("rotate", "trigger"),
    ),
    Option(
        "game_tie_break",
        "shared",
        "Equal lowest totals share the win (shared) or are split by the lower "
        "last-round score, then earlier rounds (last_round)",
        kind="choice",
        choices=("shared", "last_round"),
    ),
    Option(
        "max_turns_per_round",
        0,
        "Safeguard: a round that reaches this many turns without a trigger "
        "ends at once; 0 = 60 x the number of players, null = no limit "
        f"(the engine still ends a round after {MAX_TURNS_PER_ROUND} turns)",
        kind="int",
        minimum=0,
        maximum=MAX_TURNS_PER_ROUND,
        nullable=True,
    ),
)


@dataclass(frozen=True, slots=True)
class Rules(OptionsRecord):
    """The validated options of one match, as the engine reads them."""

    rounds: int = 3
    deck: Literal["seed", "published"] = "seed"
    deck_composition: tuple[int, ...] | None = None
    first_player: int = 0
    knock_min_players: int = 2
    long_run_rule: Literal["union", "leftmost3"] = "union"
    triple_cards_to: Literal["out_of_play", "discard"] = "out_of_play"
    remove_triples_on_final_reveal: bool = False
    tie_counts_as_lowest: bool = True
    double_only_positive: bool = True
    trigger_mode: Literal["any_player", "active_only"] = "any_player"
    next_round_start: Literal["rotate", "trigger"] = "rotate"
    game_tie_break: Literal["shared", "last_round"] = "shared"
    max_turns_per_round: int | None = 0


def standard_deck_for(rules: Rules) -> tuple[int, ...]:
    """The unshuffled deck, ascending by value (§5 step 1)."""
    return _deck(rules.deck, rules.deck_composition)


@functools.cache
def _deck(deck: str, composition: tuple[int, ...] | None) -> tuple[int, ...]:
    if composition is not None:
        return tuple(sorted(composition))
    if deck == "published":
        return tuple(v for v, k in PUBLISHED_COPIES.items() for _ in range(k))
    return tuple(v for v in range(1, 12) for _ in range(10))


def resolve(options: Mapping[str, Any], players: int) -> dict[str, Any]:
    """Check the options against the player count and fill the derived limit."""
    options = dict(options)
    first = options["first_player"]
    if first >= players:
        raise InvalidOptions(
            f"Option 'first_player' {first} is not a seat of a {players}-player "
            f"match (seats 0 to {players - 1})"
        )
    size = len(standard_deck_for(Rules.from_options(options)))
    if size < 12 * players + 1:
        raise InvalidOptions(
            f"The deck has {size} cards; {players} players need at least "
            f"{12 * players + 1} (12 each and one to start the discard pile)"
        )
    if options["max_turns_per_round"] == 0:
        options["max_turns_per_round"] = TURNS_PER_PLAYER * players
    return options


def player_range(options: Mapping[str, Any]) -> tuple[int, int]:
    """Player counts these options allow: 2 up to what the deck deals (12 each
    and one to start the discard pile), at most 6.

    ``first_player`` is checked against the count in :func:`resolve`, so that
    a seat beyond the table is refused by name, not as a player count.
    """
    size = len(standard_deck_for(Rules.from_options(options)))
    return 2, min(6, (size - 1) // 12)
