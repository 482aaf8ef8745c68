"""docs/rules/alkort.md C1: every worked trick, by the B8 algorithm and in real play."""

import pytest

import rules
from rules.alkort.tricks import trick_winner
from tests.rules.alkort.helpers import (
    GAME,
    of_type,
    pass_all,
    play_cards,
    script_deal,
)
from tests.rules.contract import assert_refused

# (example, cards in play order, who has won a trick before, winner, players, options)
# "who has won" lists, per position, whether that card's player has won a trick.
NO = (False,) * 4
C1 = [
    (1, ["9C", "AS", "6H", "KD"], NO, 3, 4, {}),
    (2, ["AH", "AS", "JD", "3C"], NO, 0, 4, {}),
    (3, ["KC", "3D", "2S", "QH"], NO, 2, 4, {}),
    (4, ["QS", "3H", "2C", "9S"], NO, 1, 4, {}),
    (5, ["QD", "2S", "3C", "9C"], NO, 1, 4, {}),
    (6, ["KH", "2D", "8C", "3S"], NO, 2, 4, {}),
    (7, ["7H", "KD", "2H", "4C"], (True, False, False, False), 0, 4, {}),
    (8, ["3C", "7S", "4D", "QD"], NO, 0, 4, {}),
    (9, ["8H", "8D", "7C", "9S"], NO, 0, 4, {}),
    (10, ["9S", "9H", "9D", "9C"], NO, 1, 4, {}),
    (11, ["4H", "4C", "2H", "4S"], NO, 2, 4, {}),
    (12, ["6C", "8S", "JH", "KS"], NO, 1, 4, {}),
    (13, ["QC", "2H", "3D", "2C"], NO, 1, 4, {}),
    (14, ["KS", "KC", "QH", "4S"], NO, 0, 4, {}),
    (15, ["4S", "2C", "3H", "9C"], NO, 0, 4, {}),
    (16, ["6D", "JS"], NO, 1, 2, {}),
    (17, ["7D", "AS"], (True, False), 0, 2, {}),
    (19, ["7C", "3S", "KH", "2D"], NO, 1, 4, {}),
    (20, ["7C", "7D", "7H", "QS"], NO, 3, 4, {}),
    (21, ["7C", "KH", "2D", "9S"], NO, 2, 4, {}),
    (22, ["7C", "QH", "3S", "2D"], NO, 2, 4, {}),
    (23, ["AS", "7H"], (False, True), 1, 2, {"seven_rule": "player_has_trick"}),
    (24, ["7C", "7D"], (True, True), 0, 2, {"seven_rule": "player_has_trick"}),
    (25, ["7C", "3S"], (False, False), 1, 2, {"seven_rule": "player_has_trick"}),
]
IDS = [f"C1-{row[0]}" for row in C1]

# Tricks before the example's trick, given as the winning seat, so that the
# example's leader and players have (or have not) won a trick as the table says.
# Dealer 0: forehand is seat 1 and leads trick 1; leads then rotate clockwise.
SETUP = {
    7: [2],  # seat 2 wins trick 1 and leads trick 2 with 7H
    17: [0],  # 2p: seat 0 wins trick 1 and leads trick 2 with 7D
    # Forced dead sevens: forehand (seat 1) leads trick 9 holding only 7C, having
    # won nothing; the sides split the first eight tricks 4-4 so the deal goes on.
    19: [0, 3, 2, 3, 0, 3, 2, 3],
    20: [0, 3, 2, 3, 0, 3, 2, 3],
    21: [0, 3, 2, 3, 0, 3, 2, 3],
    22: [0, 3, 2, 3, 0, 3, 2, 3],
    23: [1],  # 2p: the follower of trick 2 (seat 1) won trick 1
    24: [1, 0],  # 2p: both players have won a trick before trick 3
}


@pytest.mark.parametrize(
    ("n", "cards", "won", "winner", "players", "options"), C1, ids=IDS
)
def test_algorithm(n, cards, won, winner, players, options):
    """B8 on the bare cards gives the winner the table states."""
    rule = options.get("seven_rule", "led")
    assert trick_winner(cards, won, rule) == winner


@pytest.mark.parametrize(
    ("n", "cards", "won", "winner", "players", "options"), C1, ids=IDS
)
def test_in_play(n, cards, won, winner, players, options):
    """The same trick played in a forced deal ends with that trick_won event."""
    setup = SETUP.get(n, [])
    number = len(setup) + 1
    leader = (1 + len(setup)) % players
    example = {(leader + i) % players: c for i, c in enumerate(cards)}
    deck, orders = script_deal(players, 0, [*setup, example])
    state = GAME.replay(GAME.start(players, options, seed=1, deck=deck))
    state, _ = pass_all(state)
    for order in orders[:-1]:
        state, _ = play_cards(state, order)
    has_won = [
        state.tally.seat_tricks[(leader + i) % players] > 0 for i in range(players)
    ]
    assert has_won[0] == won[0], "the leader's entitlement is as the table says"
    if options:  # V2: every player's own tricks matter
        assert tuple(has_won) == won
    if n in (19, 20, 21, 22):
        # The forced lead: forehand holds only the seven and has won nothing.
        assert state.hands[1] == ("7C",) and state.tally.seat_tricks[1] == 0
        assert GAME.legal_actions(state, 1) == [{"type": "play", "card": "7C"}]
    state, events = play_cards(state, cards)
    expected_seat = (leader + winner) % players
    assert of_type(events, "trick_won")[0] == {
        "trick": number,
        "leader": leader,
        "cards": cards,
        "seat": expected_seat,
        "side": expected_seat % 2,
    }


def test_c1_18_seven_lead_before_winning_a_trick_is_illegal():
    """C1 #18: forehand may not lead 7H to trick 1; any other card is fine."""
    deck, _ = script_deal(4, 0, [{1: "7H", 2: "3C", 3: "4D", 0: "QS"}])
    state = GAME.replay(GAME.start(4, seed=1, deck=deck))
    state, _ = pass_all(state)
    assert "7H" in state.hands[1]
    legal = GAME.legal_actions(state, 1)
    assert {"type": "play", "card": "7H"} not in legal
    assert len(legal) == len([c for c in state.hands[1] if c[0] != "7"])
    assert_refused(
        GAME,
        state,
        1,
        {"type": "play", "card": "7H"},
        rules.IllegalAction,
        "You cannot lead a 7 before you have won a trick yourself; lead another card",
    )
    other = next(a for a in legal)
    assert GAME.decide(state, 1, other)[0].payload == {"seat": 1, "card": other["card"]}


def test_v2_sevens_may_be_led_before_winning_a_trick():
    """C1 #25's premise: under V2 leading a seven is always legal."""
    deck, _ = script_deal(4, 0, [{1: "7H", 2: "3C", 3: "4D", 0: "QS"}])
    options = {"seven_rule": "player_has_trick"}
    state = GAME.replay(GAME.start(4, options, seed=1, deck=deck))
    state, _ = pass_all(state)
    assert {"type": "play", "card": "7H"} in GAME.legal_actions(state, 1)
