"""Scoring edges and the end of the match (docs/rules/alager.md §11, §12; D-8, D-15,
D-18 to D-20), each reached through play with stacked decks.

Each case is one that the worked examples leave out: every player holding a
special hand, several players reaching the limit in one deal, the last players
eliminated together, and the fall-backs of ``dealer_rule = "loser_deals"``.
"""

from tests.rules.alager.helpers import GAME, Match, stack

LOW_A = ["2C", "3D", "4H"]  # worth 4
LOW_B = ["4C", "3H", "2D"]  # worth 4: ties LOW_A
HIGH = [["TS", "JS", "QS"], ["TH", "JH", "QH"], ["TD", "JD", "QD"]]


def test_when_every_player_holds_a_special_hand_nobody_takes_a_point():
    """§11.3: with ``Others`` empty no one gets +1; each owner strikes off one (D-8)."""
    hands = {0: ["QH", "KH", "AH"], 1: ["QS", "KS", "AS"]}
    m = Match(2, {"dealer_rule": "loser_deals"}, [stack(2, 0, hands)])
    assert m.types(m.events[1:5]) == [
        "deal_started",
        "special_announced",
        "special_announced",
        "deal_ended",
    ]
    result = m.last("deal_ended")
    assert result["specials"] == [
        {"seat": 1, "kind": "alager"},
        {"seat": 0, "kind": "alager"},
    ]
    assert result["penalised"] == [] and result["changes"] == [0, 0]  # floored
    assert result["next_dealer"] == 1  # nobody took the point: rotation (D-19)

    m = Match(2, {"allow_negative_penalties": True}, [stack(2, 0, hands)])
    assert m.last("deal_ended")["penalties"] == [-1, -1]


def test_several_players_reach_the_limit_and_the_fewest_points_win():
    """D-20: two players reach the limit together; the third, below it, wins."""
    hands = {0: LOW_A, 1: LOW_B, 2: HIGH[0]}
    m = Match(3, {"penalty_limit": 1}, [stack(3, 0, hands)])
    m.quick_deals(1)
    result = m.last("deal_ended")
    assert result["penalised"] == [0, 1] and result["next_dealer"] is None
    assert m.last("match_ended")["outcome"] == {
        "scores": [1, 1, 0],
        "places": [2, 2, 1],
        "winners": [2],
    }


def _elimination_to_the_last_two(options):
    """3 players, limit 1: seat 0 is out after deal 1; seats 1 and 2 tie in deal 2.

    In deal 2 the dealer is seat 1, so seat 2 is eldest and knocks.
    """
    d1 = stack(3, 0, {0: LOW_A, 1: HIGH[0], 2: HIGH[1]})
    d2 = stack(3, 1, {2: LOW_A, 1: LOW_B}, out=[0])
    m = Match(3, {"end_mode": "elimination", "penalty_limit": 1, **options}, [d1, d2])
    m.quick_deals(1)
    assert m.last("deal_ended")["eliminated"] == [0]
    m.quick_deals(1)
    result = m.last("deal_ended")
    assert result["knocker"] == 2 and result["eliminated"] == [1, 2]
    assert result["next_dealer"] is None
    return m


def test_the_last_players_eliminated_together_share_the_win_on_equal_points():
    m = _elimination_to_the_last_two({})
    assert GAME.outcome(m.state) == {
        "scores": [1, 1, 1],
        "places": [3, 1, 1],
        "winners": [1, 2],
    }


def test_the_last_players_eliminated_together_the_fewest_points_win():
    """D-20: "the one with the fewest points among them wins"; the knocker took 2."""
    m = _elimination_to_the_last_two({"knocker_lowest_penalty": 2})
    assert GAME.outcome(m.state) == {
        "scores": [1, 1, 2],
        "places": [3, 1, 2],
        "winners": [1],
    }


def test_loser_deals_falls_back_to_rotation_when_a_tie_costs_nobody():
    """D-19 with ``tie_rule = "none"``: nobody received the +1, so the deal rotates.

    Seats 0 and 2 tie; with the point taken the first of them clockwise from
    the seat after the dealer (seat 1) would be seat 2.
    """
    hands = {0: LOW_A, 2: LOW_B, 1: HIGH[0]}
    options = {"dealer_rule": "loser_deals"}
    m = Match(3, options, [stack(3, 0, hands)])
    m.quick_deals(1)
    assert m.last("deal_ended")["next_dealer"] == 2
    m = Match(3, {**options, "tie_rule": "none"}, [stack(3, 0, hands)])
    m.quick_deals(1)
    assert m.last("deal_ended")["penalised"] == []
    assert m.last("deal_ended")["next_dealer"] == 1


def test_loser_deals_falls_back_to_rotation_when_the_loser_is_eliminated():
    hands = {2: LOW_A, 0: HIGH[0], 1: HIGH[1]}
    options = {"dealer_rule": "loser_deals", "end_mode": "elimination"}
    m = Match(3, {**options, "penalty_limit": 1}, [stack(3, 0, hands)])
    m.quick_deals(1)
    result = m.last("deal_ended")
    assert result["eliminated"] == [2] and result["next_dealer"] == 1
    assert m.state.dealer == 1 and m.state.order == (0, 1)


def test_loser_deals_skips_an_eliminated_player_among_the_tied():
    """Four players, limit 2. Deal 1: seats 1 and 2 tie (1 point each); seat 1,
    the first clockwise, deals. Deal 2: seats 2 and 0 tie; seat 2 reaches 2 and
    is out, so seat 0, the next tied seat clockwise, deals (rotation would give
    seat 3)."""
    d1 = stack(4, 0, {1: LOW_A, 2: LOW_B, 3: HIGH[0], 0: HIGH[1]})
    d2 = stack(4, 1, {2: LOW_A, 0: LOW_B, 3: HIGH[0], 1: HIGH[1]})
    options = {"dealer_rule": "loser_deals", "end_mode": "elimination"}
    m = Match(4, {**options, "penalty_limit": 2}, [d1, d2])
    m.quick_deals(1)
    assert m.last("deal_ended")["next_dealer"] == 1
    m.quick_deals(1)
    result = m.last("deal_ended")
    assert result["penalised"] == [0, 2] and result["eliminated"] == [2]
    assert result["next_dealer"] == 0
    assert m.state.dealer == 0 and m.state.order == (1, 3, 0)
