"""Illegal actions are rejected with the right error and a clear message.

States are immutable, so a rejected action cannot change anything; each test
also checks that the same state still accepts a legal action afterwards.
"""

import pytest

from rules import dealing
from rules.allegra import GAME
from rules.core import (
    GameOver,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    NotYourTurn,
    UnknownAction,
)
from tests.rules.contract import assert_refused

from .helpers import cell, of_type, play, position, types

DRAW = {"type": "draw"}
PASS = {"type": "pass"}


def started(players=3, **options):
    return GAME.replay(GAME.start(players, options=options, seed="actions"))


def rejects(state, seat, action, error, message):
    assert_refused(GAME, state, seat, action, error, message)


# ---------------------------------------------------------------- initial reveal


def test_the_initial_reveal_goes_round_the_table_two_cards_each():
    state = started(3, first_player=1)
    assert GAME.to_act(state) == (1,)
    order = []
    while state.phase == "initial_reveal":
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert order == [1, 1, 2, 2, 0, 0]
    assert state.phase == "turn_start" and GAME.to_act(state) == (1,)


def test_revealing_a_third_card_is_rejected():
    state = started(3)
    state, _ = play(
        state,
        (0, {"type": "reveal", "cell": cell(0, 0, 0)}),
        (0, {"type": "reveal", "cell": cell(1, 0, 3)}),  # the left neighbour's c3
    )
    rejects(
        state,
        0,
        {"type": "reveal", "cell": cell(0, 1, 1)},
        NotYourTurn,
        "You have already revealed your two cards; seat 1 is revealing now",
    )
    while state.phase == "initial_reveal":
        (seat,) = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    rejects(
        state,
        0,
        {"type": "reveal", "cell": cell(0, 2, 2)},
        IllegalAction,
        "The initial reveal is over: each player reveals exactly two cards",
    )


def test_reveal_only_face_down_cells_of_your_own_area():
    state = started(3)
    rejects(
        state,
        0,
        {"type": "reveal", "cell": cell(2, 0, 0)},
        IllegalAction,
        "Cell (2,0,0) is not in your area",
    )
    state, _ = play(state, (0, {"type": "reveal", "cell": cell(0, 0, 0)}))
    rejects(
        state,
        0,
        {"type": "reveal", "cell": cell(0, 0, 0)},
        IllegalAction,
        "The card at (0,0,0) is already face up; reveal a face-down card",
    )
    rejects(
        state,
        0,
        DRAW,
        IllegalAction,
        "First reveal two face-down cards of your area (action 'reveal')",
    )


# ---------------------------------------------------------------- turns


def test_acting_out_of_turn_is_rejected():
    state = position(3)
    rejects(state, 1, DRAW, NotYourTurn, "It is not your turn: seat 0 is to act")
    rejects(state, 2, PASS, NotYourTurn, "It is not your turn: seat 0 is to act")
    assert GAME.legal_actions(state, 1) == []


def test_swapping_into_a_hole_is_rejected():
    state = position(3, cells={(0, 1, 1): "--"}, draw=(7, 5))
    take = {"type": "take_discard", "cell": cell(0, 1, 1)}
    rejects(
        state, 0, take, IllegalAction, "Cell (0,1,1) is a hole: there is no card there"
    )
    state, _ = play(state, (0, DRAW), (1, PASS), (2, PASS))
    swap = {"type": "swap", "cell": cell(0, 1, 1)}
    rejects(
        state, 0, swap, IllegalAction, "Cell (0,1,1) is a hole: there is no card there"
    )
    assert {"type": "swap", "cell": cell(0, 1, 2)} in GAME.legal_actions(state, 0)


def test_knocking_on_a_discard_take_is_rejected():
    state = position(3)
    state, events = play(state, (0, {"type": "take_discard", "cell": cell(0, 0, 0)}))
    assert types(events) == ["discard_taken", "turn_ended"]
    rejects(
        state,
        2,
        {"type": "knock"},
        NotYourTurn,
        "You can knock only on a card just drawn from the deck; seat 1 is to act",
    )
    rejects(
        state,
        1,
        {"type": "knock"},
        IllegalAction,
        "Take the top discard or draw a card first",
    )


def test_knock_window_answers_are_one_each_and_not_the_drawers():
    state, _ = play(position(3, draw=(7, 5)), (0, DRAW))
    assert GAME.to_act(state) == (1, 2)
    rejects(
        state, 0, {"type": "knock"}, NotYourTurn, "You cannot knock on your own draw"
    )
    rejects(
        state,
        0,
        {"type": "swap", "cell": cell(0, 0, 0)},
        NotYourTurn,
        "It is not your turn: seat 1, 2 are to act",
    )
    state, _ = play(state, (2, {"type": "knock"}))
    rejects(state, 2, PASS, NotYourTurn, "It is not your turn: seat 1 is to act")
    rejects(
        state,
        2,
        {"type": "knock"},
        NotYourTurn,
        "You have already answered in this knock window",
    )
    rejects(
        state,
        1,
        DRAW,
        IllegalAction,
        "Answer the knock window first: 'knock' or 'pass'",
    )


def test_discarding_must_flip_while_something_is_face_down():
    state, _ = play(position(3, draw=(7, 5)), (0, DRAW), (1, PASS), (2, PASS))
    rejects(
        state,
        0,
        {"type": "discard"},
        IllegalAction,
        'When you discard the drawn card you must flip a face-down card of your area: add "flip" with its cell',
    )
    rejects(
        state,
        0,
        {"type": "discard", "flip": cell(1, 0, 0)},
        IllegalAction,
        "Cell (1,0,0) is not in your area",
    )
    rejects(
        state,
        0,
        {"type": "give", "to": 1},
        IllegalAction,
        "Nobody knocked: there is no one to give the card to",
    )


def test_giving_to_a_player_who_did_not_knock_is_rejected():
    state, _ = play(
        position(3, draw=(7, 5)), (0, DRAW), (1, PASS), (2, {"type": "knock"})
    )
    rejects(
        state,
        0,
        {"type": "give", "to": 1},
        IllegalAction,
        "Seat 1 did not knock; you may give the card to seat 2",
    )
    rejects(
        state,
        0,
        {"type": "give", "to": "2"},
        MalformedAction,
        "'to' must be the seat number of a knocker",
    )


def exchange_with_right_neighbour():
    """3 players: A (0) draws, C (2) knocks and places the gift in A.c3."""
    state = position(3, draw=(7, 5))
    state, _ = play(
        state,
        (0, DRAW),
        (1, PASS),
        (2, {"type": "knock"}),
        (0, {"type": "give", "to": 2}),
    )
    rejects(
        state,
        2,
        {"type": "place", "cell": cell(1, 0, 3)},
        IllegalAction,
        "Cell (1,0,3) is not in your area",
    )
    state, _ = play(state, (2, {"type": "place", "cell": cell(0, 0, 3)}))
    return state


def test_taking_the_given_card_back_is_rejected():
    state = exchange_with_right_neighbour()
    rejects(
        state,
        0,
        {"type": "take", "cell": cell(0, 0, 3)},
        IllegalAction,
        "You cannot take back the card you gave: it is protected until the exchange ends",
    )
    rejects(
        state,
        0,
        {"type": "take", "cell": cell(0, 0, 0)},
        IllegalAction,
        "Cell (0,0,0) is not in seat 2's area",
    )


def test_overwriting_the_given_card_or_the_hole_is_rejected():
    state = exchange_with_right_neighbour()
    state, _ = play(state, (0, {"type": "take", "cell": cell(2, 1, 1)}))
    rejects(
        state,
        0,
        {"type": "put", "cell": cell(0, 0, 3)},  # k1, in both areas
        IllegalAction,
        "You cannot put the card on the card you gave: it is protected until the exchange ends",
    )
    rejects(
        state,
        0,
        {"type": "put", "cell": cell(2, 1, 1)},
        IllegalAction,
        "Cell (2,1,1) is the hole you took the card from; seat 2 fills it",
    )
    state, events = play(state, (0, {"type": "put", "cell": cell(0, 2, 2)}))
    assert types(events)[:2] == ["card_put", "knock_hole_filled"]


def test_the_knocker_is_offered_only_cells_with_a_completion():
    """With one card left in K's area the exchange is impossible: no window."""
    holes = {(2, r, c): "--" for r in range(3) for c in range(4)}
    holes.update({(0, r, 3): "--" for r in range(3)})
    holes[(2, 0, 0)] = "(4)"
    state, events = play(position(3, cells=holes, draw=(7, 5)), (0, DRAW))
    assert of_type(events, "card_drawn").payload["knock_window"] == [1]


def test_passing_a_turn_is_only_for_when_no_move_exists():
    rejects(
        position(3),
        0,
        PASS,
        IllegalAction,
        "You cannot pass: take the top discard or draw a card (a turn passes only when no move is possible)",
    )
    holes = {(0, r, c): "--" for r in range(3) for c in range(4)}
    holes.update({(1, r, 3): "--" for r in range(3)})
    state = position(3, cells=holes, draw=(), discard=(5,))
    assert GAME.legal_actions(state, 0) == [PASS]
    rejects(
        state,
        0,
        DRAW,
        IllegalAction,
        "The draw pile is empty and there are no discards to reshuffle",
    )
    state, events = play(state, (0, PASS))
    assert types(events) == ["turn_passed", "round_end_triggered", "turn_ended"]


def test_the_game_over_rejects_everything():
    state = started(2, rounds=1, max_turns_per_round=1)
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    rejects(state, 0, DRAW, GameOver, "The match is over")


# ---------------------------------------------------------------- malformed


@pytest.mark.parametrize(
    ("action", "error", "message"),
    [
        ("draw", MalformedAction, "An action must be a JSON object with a 'type'"),
        ({}, MalformedAction, "An action needs a 'type' string"),
        (
            {"type": "fly"},
            UnknownAction,
            "Unknown action type 'fly'; this game knows: reveal, take_discard, draw, swap, discard, knock, pass, give, place, take, put",
        ),
        (
            {"type": "draw", "cell": cell(0, 0, 0)},
            MalformedAction,
            "A 'draw' action does not take 'cell'",
        ),
        (
            {"type": "take_discard"},
            MalformedAction,
            "A 'take_discard' action needs 'cell'",
        ),
        (
            {"type": "take_discard", "cell": [0, 0, 0]},
            MalformedAction,
            'A cell is an object with exactly "seat", "row" and "col", e.g. {"seat": 0, "row": 1, "col": 3}',
        ),
        (
            {"type": "take_discard", "cell": {"seat": 0, "row": 0}},
            MalformedAction,
            'A cell is an object with exactly "seat", "row" and "col", e.g. {"seat": 0, "row": 1, "col": 3}',
        ),
        (
            {"type": "take_discard", "cell": {**cell(0, 0, 0), "x": 1}},
            MalformedAction,
            'A cell is an object with exactly "seat", "row" and "col", e.g. {"seat": 0, "row": 1, "col": 3}',
        ),
        (
            {"type": "take_discard", "cell": cell(3, 0, 0)},
            MalformedAction,
            "A cell's 'seat' must be between 0 and 2, not 3",
        ),
        (
            {"type": "take_discard", "cell": cell(0, 0, 4)},
            MalformedAction,
            "A cell's 'col' must be between 0 and 3, not 4",
        ),
        (
            {"type": "take_discard", "cell": {"seat": 0, "row": True, "col": 0}},
            MalformedAction,
            "A cell's 'row' must be a whole number",
        ),
        (
            {"type": "swap", "cell": cell(0, 0, 0)},
            IllegalAction,
            "Take the top discard or draw a card first",
        ),
    ],
)
def test_malformed_actions_are_rejected(action, error, message):
    rejects(position(3), 0, action, error, message)


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, {}, "Allegra is played by 2 to 6 players, not 1"),
        (7, {}, "Allegra is played by 2 to 6 players, not 7"),
        (
            2,
            {"first_player": 2},
            r"Option 'first_player' 2 is not a seat of a 2-player match \(seats 0 to 1\)",
        ),
        (
            3,
            {"first_player": 5},
            r"Option 'first_player' 5 is not a seat of a 3-player match \(seats 0 to 2\)",
        ),
        (7, {"first_player": 5}, "Allegra is played by 2 to 6 players, not 7"),
        (3, {"deck": "mini"}, "Option 'deck' must be one of"),
        (3, {"knockMinPlayers": 3}, "Unknown option 'knockMinPlayers'"),
        (
            3,
            {"deck_composition": [1] * 30},
            r"^The deck has 30 cards; 3 players need at least 37 \(12 each and one "
            r"to start the discard pile\)$",
        ),
        (
            2,
            {"deck_composition": [1] * 24},
            r"^The deck has 24 cards; 2 players need at least 25 ",
        ),
        (2, {"max_turns_per_round": -1}, "must be at least 0"),
        (2, {"triple_cards_to": "outOfPlay"}, "must be one of"),
    ],
)
def test_invalid_options_are_rejected(players, options, message):
    with pytest.raises(InvalidOptions, match=message):
        GAME.start(players, options=options, seed=1)


def test_a_given_deck_must_hold_the_matchs_cards():
    with pytest.raises(InvalidOptions) as info:
        GAME.start(2, seed=1, deck=[1, 2, 3])
    assert str(info.value) == (
        "Given deck 1 must hold exactly the 110 cards of the match's deck, in any order"
    )
    with pytest.raises(InvalidOptions) as info:
        GAME.start(2, seed=1, deck=["1"] * 110)
    assert str(info.value) == (
        "Given deck 1 holds a bad card: '1' is not a card value (a whole number)"
    )


def test_options_are_stored_complete_with_the_turn_limit_resolved():
    events = GAME.start(4, seed=1)
    options = events[0].payload["options"]
    assert options == {**GAME.default_options(), "max_turns_per_round": 240}
    assert GAME.view(GAME.replay(events), None)["options"] == options
    none = GAME.start(2, options={"max_turns_per_round": None}, seed=1)
    assert none[0].payload["options"]["max_turns_per_round"] is None


# ---------------------------------------------------------------- chance


def test_a_given_deck_is_dealt_in_order_and_the_seed_shuffles_the_rest():
    deck = list(range(1, 12)) * 10
    events = GAME.start(2, seed="s", deck=deck)
    dealt = events[1].payload
    assert dealt["deck"] == deck and dealt["shuffle"] is None
    state = GAME.replay(events)
    assert state.cards == tuple(deck[:24]) and state.discard == (deck[24],)
    assert state.draw == tuple(deck[25:])
    assert dealt["discard"] == deck[24] and dealt["draw_pile"] == 85


def test_an_empty_draw_pile_is_reshuffled_from_the_discards():
    state = position(2, draw=(), discard=(3, 1, 4, 1, 5))
    state, events = play(state, (0, DRAW))
    assert types(events) == ["deck_reshuffled", "card_drawn"]
    shuffled = events[0].payload
    assert shuffled["reshuffle"] is True and shuffled["shuffled_from"] == [3, 1, 4, 1]
    k = shuffled["shuffle"]
    assert shuffled["deck"] == dealing.shuffle([3, 1, 4, 1], state.chance.seed, k)
    assert events[1].payload["card"] == shuffled["deck"][0]
    assert (
        state.discard == (5,)
        and len(state.draw) == 3
        and state.drawn == shuffled["deck"][0]
    )
    assert "deck" not in GAME.redact(events[0], 0).payload


def test_the_turn_limit_ends_the_round_with_the_active_player_as_trigger():
    state = position(2, options={"max_turns_per_round": 6})
    state, events = play(state, (0, {"type": "take_discard", "cell": cell(0, 0, 0)}))
    assert of_type(events, "round_end_triggered").payload == {
        "trigger": 0,
        "final_turns": [],
        "forced": True,
    }
    assert types(events)[-3:] == ["round_revealed", "round_scored", "round_dealt"]
    assert of_type(events, "round_scored").payload["forced"] is True
