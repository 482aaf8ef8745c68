"""Options (docs/rules/alager.md §14) and player limits (D-2)."""

import pytest

import rules
from rules.cards import deck32, deck52
from tests.rules.alager.helpers import GAME

ALL_OPTIONS = {
    "deck": 52,
    "hori_enabled": False,
    "deal_pattern": "packets",
    "a1_discard_to": "discard_pile",
    "replenish_shuffle": False,
    "konec_after_exchange": False,
    "konec_min_round": 1,
    "tie_rule": "all",
    "knocker_lowest_penalty": 1,
    "allow_negative_penalties": False,
    "end_mode": "first_to_limit",
    "penalty_limit": 5,
    "num_deals": None,
    "dealer_rule": "rotate",
    "first_dealer": 0,
    "max_turns_per_deal": None,
}


def test_schema_lists_every_option_of_the_rules_with_its_default():
    schema = GAME.options_schema()
    assert {name: o["default"] for name, o in schema.items()} == ALL_OPTIONS
    assert schema["deck"]["choices"] == [52, 32]
    assert schema["end_mode"]["choices"] == [
        "first_to_limit",
        "elimination",
        "fixed_deals",
    ]
    assert schema["num_deals"]["nullable"] is True


def test_match_started_records_the_resolved_options():
    events = GAME.start(players=4, options={"end_mode": "fixed_deals"}, seed=1)
    options = events[0].payload["options"]
    assert options == {**ALL_OPTIONS, "end_mode": "fixed_deals", "num_deals": 8}
    assert GAME.view(GAME.replay(events), 0)["max_turns_per_deal"] == 200


@pytest.mark.parametrize(("deck", "most"), [(52, 15), (32, 8)])
def test_player_limits(deck, most):
    """D-2: 2 to 15 players with 52 cards, 2 to 8 with 32."""
    GAME.start(players=most, options={"deck": deck}, seed=1)
    GAME.start(players=2, options={"deck": deck}, seed=1)
    for bad in (1, most + 1):
        with pytest.raises(
            rules.InvalidOptions,
            match=f"Alager is played by 2 to {most} players, not {bad}",
        ):
            GAME.start(players=bad, options={"deck": deck}, seed=1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"deck": 36}, "Option 'deck' must be one of 52, 32"),
        ({"hori": True}, "Unknown option 'hori'"),
        ({"end_mode": "lives"}, "Option 'end_mode' must be one of"),
        ({"penalty_limit": 0}, "Option 'penalty_limit' must be at least 1"),
        (
            {"first_dealer": 3},
            "Option 'first_dealer' must be a seat of this match (0 to 2)",
        ),
        ({"tie_rule": "knocker"}, 'Option \'tie_rule\' must be one of "all", "none"'),
        ({"max_turns_per_deal": 0}, "Option 'max_turns_per_deal' must be at least 1"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(rules.InvalidOptions) as info:
        GAME.start(players=3, options=options, seed=1)
    assert str(info.value).startswith(message)


def test_a_given_deck_must_be_the_whole_deck():
    whole = (
        "Given deck {} must hold exactly the {} cards of the match's deck, in any order"
    )
    with pytest.raises(rules.InvalidOptions) as info:
        GAME.start(players=3, deck=deck52()[:-1], seed=1)
    assert str(info.value) == whole.format(1, 52)
    with pytest.raises(rules.InvalidOptions) as info:
        GAME.start(players=3, options={"deck": 32}, deck=[deck32(), deck52()], seed=1)
    assert str(info.value) == whole.format(2, 32)
    with pytest.raises(rules.InvalidOptions) as info:
        GAME.start(players=3, deck=["XX", *deck52()[1:]], seed=1)
    assert str(info.value).startswith(
        "Given deck 1 holds a bad card: 'XX' is not a card"
    )
    events = GAME.start(players=3, options={"deck": 32}, deck=deck32(), seed=1)
    assert events[1].payload["shuffle"] is None


def test_standard_deck_is_the_rules_unshuffled_order():
    assert GAME.standard_deck({"deck": 52}) == deck52()
    assert GAME.standard_deck({"deck": 32})[:8] == [
        "7C",
        "8C",
        "9C",
        "TC",
        "JC",
        "QC",
        "KC",
        "AC",
    ]


def test_too_many_players_for_the_32_card_deck_says_it_is_the_deck():
    """The lobby offers up to 15 players, as the 52-card deck seats; with the
    32-card deck picked, 9 to 15 were refused with only "played by 2 to 8
    players", which read as a mistake: the game takes 15."""
    with pytest.raises(rules.InvalidOptions) as refused:
        GAME.start(players=9, options={"deck": 32}, seed=1)
    assert str(refused.value) == (
        "Alager is played by 2 to 8 players, not 9, with the 32-card deck"
        " (up to 15 with 52 cards)"
    )
    # Beyond what any deck seats, the deck is not the reason.
    with pytest.raises(rules.InvalidOptions) as refused:
        GAME.start(players=16, options={"deck": 52}, seed=1)
    assert str(refused.value) == "Alager is played by 2 to 15 players, not 16"
    with pytest.raises(rules.InvalidOptions) as refused:
        GAME.start(players=1, options={"deck": 32}, seed=1)
    assert str(refused.value) == "Alager is played by 2 to 8 players, not 1"
