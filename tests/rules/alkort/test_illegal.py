"""Illegal actions and bad starts are rejected with the right error and a clear
message, and leave the state as it was."""

import pytest

import rules
from rules.alkort.tables import DECK
from tests.rules.alkort.helpers import (
    GAME,
    cards,
    deck_for,
    pass_all,
    play_cards,
    script_deal,
)
from tests.rules.contract import assert_refused

HANDS = [
    cards("AS JS 7S 9C QC QD 3S 2C 2S"),
    cards("6H JC 8D 8C 3H QS 4D 4H 7H"),
    cards("7C 7D KH 3C 3D QH KS 2D 9S"),
    cards("KD 2H 4C 8S 9H 9D AC AD AH"),
]


def dealt(hands):
    """A 4-player deal of ``hands`` by seat 0, at the stock exchange."""
    return GAME.replay(GAME.start(4, seed=1, deck=deck_for(4, 0, hands)))


@pytest.fixture
def playing():
    """A 4-player deal in play: forehand (seat 1) to lead trick 1."""
    state, _ = pass_all(dealt(HANDS))
    return state


def rejected(state, seat, action, error, message):
    assert_refused(GAME, state, seat, action, error, message)


def test_leading_a_seven_before_winning_a_trick(playing):
    rejected(
        playing,
        1,
        {"type": "play", "card": "7H"},
        rules.IllegalAction,
        "You cannot lead a 7 before you have won a trick yourself; lead another card",
    )


def test_a_follower_may_play_a_seven(playing):
    state, _ = play_cards(playing, ["3H"])
    assert GAME.decide(state, 2, {"type": "play", "card": "7C"})


def test_card_not_in_hand(playing):
    rejected(
        playing,
        1,
        {"type": "play", "card": "KD"},
        rules.IllegalAction,
        "KD is not in your hand",
    )


def test_out_of_turn(playing):
    rejected(
        playing,
        3,
        {"type": "play", "card": "KD"},
        rules.NotYourTurn,
        "It is not your turn: seat 1 is to act",
    )
    assert GAME.legal_actions(playing, 3) == []


def test_exchange_after_the_phase(playing):
    rejected(
        playing,
        1,
        {"type": "exchange", "keep": "3H"},
        rules.UnknownAction,
        "The stock exchange is over: play a card",
    )
    rejected(
        playing,
        1,
        {"type": "pass"},
        rules.UnknownAction,
        "The stock exchange is over: play a card",
    )


def test_play_during_the_exchange_phase():
    rejected(
        dealt(HANDS),
        1,
        {"type": "play", "card": "3H"},
        rules.UnknownAction,
        "Cards are played after the stock exchange: exchange or pass first",
    )


def test_exchange_keeping_a_card_not_in_hand():
    weak = cards("8H 3C 3D 7D QH KS 2D 9S 4S")
    rest = [c for c in DECK if c not in weak]
    state = dealt([rest[:9], weak, rest[9:18], rest[18:27]])
    assert {"type": "exchange", "keep": "8H"} in GAME.legal_actions(state, 1)
    rejected(
        state,
        1,
        {"type": "exchange", "keep": "KD"},
        rules.IllegalAction,
        "KD is not in your hand",
    )


@pytest.mark.parametrize(
    ("action", "error", "message"),
    [
        ("3H", rules.MalformedAction, "An action must be a JSON object with a 'type'"),
        ({"card": "3H"}, rules.MalformedAction, "An action needs a 'type' string"),
        (
            {"type": "knock"},
            rules.UnknownAction,
            "Unknown action type 'knock'; this game knows: exchange, pass, play",
        ),
        ({"type": "play"}, rules.MalformedAction, "A 'play' action needs 'card'"),
        (
            {"type": "play", "card": "3H", "keep": "3H"},
            rules.MalformedAction,
            "A 'play' action does not take 'keep'",
        ),
        (
            {"type": "play", "card": "5H"},
            rules.MalformedAction,
            "5H is not an Alkort card: the pack has no fives or tens",
        ),
        (
            {"type": "play", "card": "1H"},
            rules.MalformedAction,
            "'1H' is not a card: write rank then suit, e.g. 'QH' or 'TC' "
            "(ranks 2 3 4 5 6 7 8 9 T J Q K A, suits C D H S)",
        ),
        (
            {"type": "play", "card": 7},
            rules.MalformedAction,
            "A card must be a string like 'QH', not 7",
        ),
    ],
)
def test_malformed_actions(playing, action, error, message):
    rejected(playing, 1, action, error, message)


def test_lower_case_cards_are_understood(playing):
    events = GAME.decide(playing, 1, {"type": "play", "card": "3h"})
    assert events[0].payload == {"seat": 1, "card": "3H"}


def test_nothing_after_the_match_ends():
    deck, orders = script_deal(4, 0, [0] * 5 + [1] * 4)
    state = GAME.replay(GAME.start(4, {"target": 5}, seed=1, deck=deck))
    state, _ = pass_all(state)
    for order in orders[:5]:
        state, events = play_cards(state, order)
    assert GAME.outcome(state) is None
    state, events = play_cards(state, orders[5])
    assert events[-1].type == "alkort.match_ended"
    assert GAME.outcome(state)["winners"] == [0, 2]
    rejected(
        state, 1, {"type": "play", "card": "3H"}, rules.GameOver, "The match is over"
    )
    assert GAME.legal_actions(state, 1) == []


@pytest.mark.parametrize(
    ("players", "options", "deck", "message"),
    [
        (3, {}, None, "Alkort is played by 2 players or by 4 in partnerships, not 3"),
        (5, {}, None, "Alkort is played by 2 to 4 players, not 5"),
        (
            2,
            {"first_dealer": 2},
            None,
            "Option 'first_dealer' must be a seat from 0 to 1",
        ),
        (4, {"target": 0}, None, "Option 'target' must be at least 1"),
        (
            4,
            {"lead_rule": "left"},
            None,
            'Option \'lead_rule\' must be one of "rotate", "winner"',
        ),
        (
            4,
            {"seven_rule": "led", "sevens": 1},
            None,
            "Unknown option 'sevens'; this game knows: first_dealer, lead_rule, partner_reveal, play_out_all_tricks, seven_rule, target",
        ),
        (
            4,
            {},
            DECK[:43],
            "Given deck 1 must hold exactly the 44 cards of the match's deck, in any order",
        ),
        (
            4,
            {},
            ["5H", *DECK[1:]],
            "Given deck 1 holds a bad card: 5H is not an Alkort card (no fives, no tens)",
        ),
        (
            4,
            {},
            ["x", *DECK[1:]],
            "Given deck 1 holds a bad card: 'x' is not a card: write rank then suit, e.g. 'QH' or 'TC' (ranks 2 3 4 5 6 7 8 9 T J Q K A, suits C D H S)",
        ),
    ],
)
def test_invalid_starts(players, options, deck, message):
    with pytest.raises(rules.InvalidOptions) as info:
        GAME.start(players, options, seed=1, deck=deck)
    assert str(info.value) == message
