"""docs/rules/allegra.md "Options" (§3): every switch of the rules' configuration
table, in snake_case, with the default the rules give it."""

import pytest

from tests.rules.allegra.helpers import GAME

# §3.2's table: rounds 3, deckComposition derived from deck (null), firstPlayer 0,
# deck "seed", knockMinPlayers 2, longRunRule union, tripleCardsTo outOfPlay,
# removeTriplesOnFinalReveal false, tieCountsAsLowest true, doubleOnlyPositive
# true, triggerMode anyPlayer, nextRoundStart rotate, gameTieBreak shared, and
# maxTurnsPerRound 60 × n (0 stands for it, decision E-2).
ALL_OPTIONS = {
    "rounds": 3,
    "deck": "seed",
    "deck_composition": None,
    "first_player": 0,
    "knock_min_players": 2,
    "long_run_rule": "union",
    "triple_cards_to": "out_of_play",
    "remove_triples_on_final_reveal": False,
    "tie_counts_as_lowest": True,
    "double_only_positive": True,
    "trigger_mode": "any_player",
    "next_round_start": "rotate",
    "game_tie_break": "shared",
    "max_turns_per_round": 0,
}
CHOICES = {
    "deck": ["seed", "published"],
    "long_run_rule": ["union", "leftmost3"],
    "triple_cards_to": ["out_of_play", "discard"],
    "trigger_mode": ["any_player", "active_only"],
    "next_round_start": ["rotate", "trigger"],
    "game_tie_break": ["shared", "last_round"],
}


def test_schema_lists_every_option_of_the_rules_with_its_default():
    schema = GAME.options_schema()
    assert {name: o["default"] for name, o in schema.items()} == ALL_OPTIONS
    for name, choices in CHOICES.items():
        assert schema[name]["choices"] == choices, name
    assert schema["max_turns_per_round"]["nullable"] is True


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_default_turn_limit_is_sixty_turns_per_player(players):
    """§3.2 and §9.3: maxTurnsPerRound defaults to 60 × n."""
    options = GAME.start(players, seed=1)[0].payload["options"]
    assert options == {**ALL_OPTIONS, "max_turns_per_round": 60 * players}


def test_the_default_deck_is_the_seed_deck_and_published_is_the_rules_table():
    """§3.1: ten of each value 1-11 by default; the published table on request."""
    seed = GAME.standard_deck(GAME.validate_options({}))
    assert seed == [v for v in range(1, 12) for _ in range(10)]
    published = GAME.standard_deck(GAME.validate_options({"deck": "published"}))
    copies = {v: published.count(v) for v in sorted(set(published))}
    assert copies == {
        -1: 5, 0: 7, 1: 9, 2: 10, 3: 11, 4: 12, 5: 12,
        6: 12, 7: 11, 8: 10, 9: 9, 10: 7, 11: 5,
    }  # fmt: skip
    assert len(published) == 120 and published == sorted(published)
