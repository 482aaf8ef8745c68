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

from .position import cell, of_type, play, position, types

DRAW = {"type": "draw"}
PASS = {"type": "pass"}


def started(players=3, **options):
    return GAME.replay(GAME.start(players, options=options, seed="actions"))


def rejects(st, seat, action, error, message):
    with pytest.raises(error) as info:
        GAME.decide(st, seat, action)
    assert message in str(info.value), str(info.value)
    assert type(info.value) is error


# ---------------------------------------------------------------- initial reveal


def test_the_initial_reveal_goes_round_the_table_two_cards_each():
    st = started(3, first_player=1)
    assert GAME.to_act(st) == (1,)
    order = []
    while st.phase == "initial_reveal":
        (seat,) = GAME.to_act(st)
        order.append(seat)
        st, _ = GAME.apply(st, seat, GAME.legal_actions(st, seat)[0])
    assert order == [1, 1, 2, 2, 0, 0]
    assert st.phase == "turn_start" and GAME.to_act(st) == (1,)


def test_revealing_a_third_card_is_rejected():
    st = started(3)
    st, _ = play(
        st,
        (0, {"type": "reveal", "cell": cell(0, 0, 0)}),
        (0, {"type": "reveal", "cell": cell(1, 0, 3)}),  # the left neighbour's c3
    )
    rejects(
        st,
        0,
        {"type": "reveal", "cell": cell(0, 1, 1)},
        NotYourTurn,
        "You have already revealed your two cards; seat 1 is revealing now",
    )
    while st.phase == "initial_reveal":
        (seat,) = GAME.to_act(st)
        st, _ = GAME.apply(st, seat, GAME.legal_actions(st, seat)[0])
    rejects(
        st,
        0,
        {"type": "reveal", "cell": cell(0, 2, 2)},
        IllegalAction,
        "The initial reveal is over: each player reveals exactly two cards",
    )


def test_reveal_only_face_down_cells_of_your_own_area():
    st = started(3)
    rejects(
        st,
        0,
        {"type": "reveal", "cell": cell(2, 0, 0)},
        IllegalAction,
        "Cell (2,0,0) is not in your area",
    )
    st, _ = play(st, (0, {"type": "reveal", "cell": cell(0, 0, 0)}))
    rejects(
        st,
        0,
        {"type": "reveal", "cell": cell(0, 0, 0)},
        IllegalAction,
        "already face up",
    )
    rejects(st, 0, DRAW, IllegalAction, "First reveal two face-down cards")


# ---------------------------------------------------------------- turns


def test_acting_out_of_turn_is_rejected():
    st = position(3)
    rejects(st, 1, DRAW, NotYourTurn, "It is not your turn: seat 0 is to act")
    rejects(st, 2, PASS, NotYourTurn, "It is not your turn: seat 0 is to act")
    assert GAME.legal_actions(st, 1) == []


def test_swapping_into_a_hole_is_rejected():
    st = position(3, cells={(0, 1, 1): "--"}, draw=(7, 5))
    take = {"type": "take_discard", "cell": cell(0, 1, 1)}
    rejects(st, 0, take, IllegalAction, "Cell (0,1,1) is a hole")
    st, _ = play(st, (0, DRAW), (1, PASS), (2, PASS))
    swap = {"type": "swap", "cell": cell(0, 1, 1)}
    rejects(st, 0, swap, IllegalAction, "Cell (0,1,1) is a hole: there is no card")
    assert {"type": "swap", "cell": cell(0, 1, 2)} in GAME.legal_actions(st, 0)


def test_knocking_on_a_discard_take_is_rejected():
    st = position(3)
    st, events = play(st, (0, {"type": "take_discard", "cell": cell(0, 0, 0)}))
    assert types(events) == ["discard_taken", "turn_ended"]
    rejects(
        st,
        2,
        {"type": "knock"},
        NotYourTurn,
        "You can knock only on a card just drawn from the deck; seat 1 is to act",
    )
    rejects(st, 1, {"type": "knock"}, IllegalAction, "Take the top discard or draw")


def test_knock_window_answers_are_one_each_and_not_the_drawers():
    st, _ = play(position(3, draw=(7, 5)), (0, DRAW))
    assert GAME.to_act(st) == (1, 2)
    rejects(st, 0, {"type": "knock"}, NotYourTurn, "You cannot knock on your own draw")
    rejects(
        st, 0, {"type": "swap", "cell": cell(0, 0, 0)}, NotYourTurn, "seat 1, 2 are"
    )
    st, _ = play(st, (2, {"type": "knock"}))
    rejects(st, 2, PASS, NotYourTurn, "It is not your turn: seat 1 is to act")
    rejects(st, 2, {"type": "knock"}, NotYourTurn, "You have already answered in this")
    rejects(st, 1, DRAW, IllegalAction, "Answer the knock window first")


def test_discarding_must_flip_while_something_is_face_down():
    st, _ = play(position(3, draw=(7, 5)), (0, DRAW), (1, PASS), (2, PASS))
    rejects(st, 0, {"type": "discard"}, IllegalAction, "you must flip a face-down card")
    rejects(
        st,
        0,
        {"type": "discard", "flip": cell(1, 0, 0)},
        IllegalAction,
        "Cell (1,0,0) is not in your area",
    )
    rejects(st, 0, {"type": "give", "to": 1}, IllegalAction, "Nobody knocked")


def test_giving_to_a_player_who_did_not_knock_is_rejected():
    st, _ = play(position(3, draw=(7, 5)), (0, DRAW), (1, PASS), (2, {"type": "knock"}))
    rejects(
        st,
        0,
        {"type": "give", "to": 1},
        IllegalAction,
        "Seat 1 did not knock; you may give the card to seat 2",
    )
    rejects(st, 0, {"type": "give", "to": "2"}, MalformedAction, "'to' must be")


def exchange_with_right_neighbour():
    """3 players: A (0) draws, C (2) knocks and places the gift in A.c3."""
    st = position(3, draw=(7, 5))
    st, _ = play(
        st,
        (0, DRAW),
        (1, PASS),
        (2, {"type": "knock"}),
        (0, {"type": "give", "to": 2}),
    )
    rejects(
        st,
        2,
        {"type": "place", "cell": cell(1, 0, 3)},
        IllegalAction,
        "Cell (1,0,3) is not in your area",
    )
    st, _ = play(st, (2, {"type": "place", "cell": cell(0, 0, 3)}))
    return st


def test_taking_the_given_card_back_is_rejected():
    st = exchange_with_right_neighbour()
    rejects(
        st,
        0,
        {"type": "take", "cell": cell(0, 0, 3)},
        IllegalAction,
        "You cannot take back the card you gave: it is protected",
    )
    rejects(
        st,
        0,
        {"type": "take", "cell": cell(0, 0, 0)},
        IllegalAction,
        "Cell (0,0,0) is not in seat 2's area",
    )


def test_overwriting_the_given_card_or_the_hole_is_rejected():
    st = exchange_with_right_neighbour()
    st, _ = play(st, (0, {"type": "take", "cell": cell(2, 1, 1)}))
    rejects(
        st,
        0,
        {"type": "put", "cell": cell(0, 0, 3)},  # k1, in both areas
        IllegalAction,
        "You cannot put the card on the card you gave",
    )
    rejects(
        st,
        0,
        {"type": "put", "cell": cell(2, 1, 1)},
        IllegalAction,
        "Cell (2,1,1) is the hole you took the card from; seat 2 fills it",
    )
    st, events = play(st, (0, {"type": "put", "cell": cell(0, 2, 2)}))
    assert types(events)[:2] == ["card_put", "knock_hole_filled"]


def test_the_knocker_is_offered_only_cells_with_a_completion():
    """With one card left in K's area the exchange is impossible: no window."""
    holes = {(2, r, c): "--" for r in range(3) for c in range(4)}
    holes.update({(0, r, 3): "--" for r in range(3)})
    holes[(2, 0, 0)] = "(4)"
    st, events = play(position(3, cells=holes, draw=(7, 5)), (0, DRAW))
    assert of_type(events, "card_drawn").payload["knock_window"] == [1]


def test_passing_a_turn_is_only_for_when_no_move_exists():
    rejects(position(3), 0, PASS, IllegalAction, "You cannot pass")
    holes = {(0, r, c): "--" for r in range(3) for c in range(4)}
    holes.update({(1, r, 3): "--" for r in range(3)})
    st = position(3, cells=holes, draw=(), discard=(5,))
    assert GAME.legal_actions(st, 0) == [PASS]
    rejects(st, 0, DRAW, IllegalAction, "no discards to reshuffle")
    st, events = play(st, (0, PASS))
    assert types(events) == ["turn_passed", "round_end_triggered", "turn_ended"]


def test_the_game_over_rejects_everything():
    st = started(2, rounds=1, max_turns_per_round=1)
    while GAME.to_act(st):
        seat = GAME.to_act(st)[0]
        st, _ = GAME.apply(st, seat, GAME.legal_actions(st, seat)[-1])
    rejects(st, 0, DRAW, GameOver, "The match is over")


# ---------------------------------------------------------------- malformed


@pytest.mark.parametrize(
    ("action", "error", "message"),
    [
        ("draw", MalformedAction, "must be a JSON object"),
        ({}, MalformedAction, "needs a 'type'"),
        ({"type": "fly"}, UnknownAction, "Unknown action type 'fly'"),
        ({"type": "draw", "cell": cell(0, 0, 0)}, MalformedAction, "does not take"),
        ({"type": "take_discard"}, MalformedAction, "needs 'cell'"),
        ({"type": "take_discard", "cell": [0, 0, 0]}, MalformedAction, "A cell is"),
        (
            {"type": "take_discard", "cell": {"seat": 0, "row": 0}},
            MalformedAction,
            "exactly",
        ),
        (
            {"type": "take_discard", "cell": {**cell(0, 0, 0), "x": 1}},
            MalformedAction,
            "exactly",
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
        ({"type": "swap", "cell": cell(0, 0, 0)}, IllegalAction, "Take the top"),
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
        (2, {"first_player": 2}, "played by 3 to 6 players"),
        (3, {"deck": "mini"}, "Option 'deck' must be one of"),
        (3, {"knockMinPlayers": 3}, "Unknown option 'knockMinPlayers'"),
        (3, {"deck_composition": [1] * 30}, "played by 2 to 2 players, not 3"),
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
    st = GAME.replay(events)
    assert st.cards == tuple(deck[:24]) and st.discard == (deck[24],)
    assert st.draw == tuple(deck[25:])
    assert dealt["discard"] == deck[24] and dealt["draw_pile"] == 85


def test_an_empty_draw_pile_is_reshuffled_from_the_discards():
    st = position(2, draw=(), discard=(3, 1, 4, 1, 5))
    st, events = play(st, (0, DRAW))
    assert types(events) == ["deck_reshuffled", "card_drawn"]
    shuffled = events[0].payload
    assert shuffled["reshuffle"] is True and shuffled["shuffled_from"] == [3, 1, 4, 1]
    k = shuffled["shuffle"]
    assert shuffled["deck"] == dealing.shuffle([3, 1, 4, 1], st.chance.seed, k)
    assert events[1].payload["card"] == shuffled["deck"][0]
    assert st.discard == (5,) and len(st.draw) == 3 and st.drawn == shuffled["deck"][0]
    assert "deck" not in GAME.redact(events[0], 0).payload


def test_the_turn_limit_ends_the_round_with_the_active_player_as_trigger():
    st = position(2, options={"max_turns_per_round": 6})
    st, events = play(st, (0, {"type": "take_discard", "cell": cell(0, 0, 0)}))
    assert of_type(events, "round_end_triggered").payload == {
        "trigger": 0,
        "final_turns": [],
        "forced": True,
    }
    assert types(events)[-3:] == ["round_revealed", "round_scored", "round_dealt"]
    assert of_type(events, "round_scored").payload["forced"] is True
