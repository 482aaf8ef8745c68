"""The options of docs/rules/alager.md beyond the defaults, each played through."""

import pytest

import rules
from rules.cards import deck52
from tests.rules.alager.helpers import GAME, Match, stack

PASS = {"type": "pass"}
KONEC = {"type": "konec"}


def test_konec_after_exchange_knocks_in_the_same_turn():
    m = Match(3, {"first_dealer": 2, "konec_after_exchange": True}, [deck52()])
    new = m.act(0, {"type": "swap", "give": "2C", "take": "JC", "konec": True})
    assert m.types(new) == ["card_swapped", "konec_called"]
    assert new[1].payload == {"seat": 0, "final_queue": [1, 2], "after_exchange": True}
    assert m.state.turns_taken == 1 and m.state.knocker == 0
    assert m.state.hands[0] == ("JC", "3C", "4C")
    m.act(1, PASS)
    new = m.act(2, PASS)
    assert new[1].payload["reason"] == "konec" and new[1].payload["knocker"] == 0


def test_a_konec_flag_is_void_when_the_exchange_makes_an_alager():
    hands = {0: ["QS", "KS", "2C"]}
    deck = stack(3, 2, hands, table=["AS", "3D", "4D"])
    m = Match(3, {"first_dealer": 2, "konec_after_exchange": True}, [deck])
    new = m.act(0, {"type": "swap", "give": "2C", "take": "AS", "konec": True})
    assert m.types(new)[:3] == ["card_swapped", "special_announced", "deal_ended"]
    assert new[2].payload["knocker"] is None and new[2].payload["reason"] == "special"


def test_the_turn_limit_forces_a_showdown_without_a_knocker():
    m = Match(2, {"max_turns_per_deal": 4, "first_dealer": 1}, [deck52()])
    assert m.view(0)["max_turns_per_deal"] == 4
    m.act(0, PASS)
    m.act(1, PASS)  # refresh
    m.act(0, {"type": "swap_all"})
    new = m.act(1, PASS)
    assert m.types(new) == ["passed", "deal_ended", "deal_started"]
    result = new[1].payload
    assert result["reason"] == "forced" and result["knocker"] is None


def test_default_turn_limit_is_fifty_per_active_player():
    m = Match(3, {"first_dealer": 2}, [deck52()])
    assert m.state.max_turns == 150
    deal = m.state.deal
    turns = 0
    while m.state.deal == deal:
        m.act(m.state.current, PASS)
        turns += 1
    assert turns == 150 and m.last("deal_ended")["reason"] == "forced"


def test_knocker_lowest_penalty_applies_after_a_konec_end_only():
    """D-16: the knocker's extra points after a Konec end, not after a special end."""
    options = {"first_dealer": 2, "knocker_lowest_penalty": 2}
    low_knocker = stack(3, 2, {0: ["2C", "3D", "4H"], 1: ["TS", "JS", "QS"]})
    m = Match(3, options, [low_knocker])
    m.act(0, KONEC)
    m.act(1, PASS)
    m.act(2, PASS)
    assert m.last("deal_ended")["changes"] == [2, 0, 0]

    cut_short = stack(
        3,
        2,
        {0: ["2C", "3D", "4H"], 1: ["TH", "JH", "5S"], 2: ["QS", "KS", "9D"]},
        table=["AS", "5C", "6C"],
    )
    m = Match(3, options, [cut_short])
    m.act(0, KONEC)
    m.act(1, PASS)
    new = m.act(2, {"type": "swap", "give": "9D", "take": "AS"})
    result = new[2].payload
    assert result["reason"] == "special" and result["knocker"] is None
    assert result["changes"] == [1, 0, 0]


def test_a_knocker_spared_by_knocker_lowest_penalty_zero_still_deals_as_the_loser():
    """D-16 with 0 points for a failed knock, and decision E-4: the lowest hand is
    still the loser that ``dealer_rule = "loser_deals"`` means."""
    options = {
        "first_dealer": 2,
        "knocker_lowest_penalty": 0,
        "dealer_rule": "loser_deals",
    }
    m = Match(3, options, [stack(3, 2, {0: ["2C", "3D", "4H"], 1: ["TS", "JS", "QS"]})])
    m.act(0, KONEC)
    m.act(1, PASS)
    m.act(2, PASS)
    result = m.last("deal_ended")
    assert result["penalised"] == [0] and result["changes"] == [0, 0, 0]
    assert result["next_dealer"] == 0 and m.state.dealer == 0


def test_tie_rule_none_spares_tied_players():
    hands = {0: ["2C", "3D", "4H"], 1: ["4C", "3H", "2D"], 2: ["TH", "JH", "QH"]}
    m = Match(3, {"first_dealer": 2, "tie_rule": "none"}, [stack(3, 2, hands)])
    m.act(0, KONEC)
    m.act(1, PASS)
    m.act(2, PASS)
    result = m.last("deal_ended")
    assert result["values"] == [4, 4, 30]
    assert result["penalised"] == [] and result["changes"] == [0, 0, 0]


def test_allow_negative_penalties_lets_an_alager_go_below_zero():
    hands = {0: ["QH", "KH", "AH"]}
    m = Match(
        3, {"first_dealer": 2, "allow_negative_penalties": True}, [stack(3, 2, hands)]
    )
    assert m.state.penalties[0] == -1
    assert m.events[2].type == "alager.special_announced"


def test_loser_deals_with_a_tie_takes_the_first_clockwise_after_the_dealer():
    # dealer 1; seats 0 and 2 tie for lowest: clockwise from seat 2, so seat 2 deals
    hands = {0: ["2C", "3D", "4H"], 2: ["4C", "3H", "2D"], 1: ["TH", "JH", "QH"]}
    m = Match(
        3, {"first_dealer": 1, "dealer_rule": "loser_deals"}, [stack(3, 1, hands)]
    )
    m.act(2, KONEC)
    m.act(0, PASS)
    m.act(1, PASS)
    assert m.last("deal_ended")["next_dealer"] == 2
    assert m.state.dealer == 2 and m.state.current == 0
    # with rotation the same deal passes to seat 2 as well; check a clear case
    hands = {1: ["2C", "3D", "4H"], 0: ["TS", "JS", "QS"], 2: ["TH", "JH", "QH"]}
    m = Match(
        3, {"first_dealer": 1, "dealer_rule": "loser_deals"}, [stack(3, 1, hands)]
    )
    m.act(2, KONEC)
    m.act(0, PASS)
    m.act(1, PASS)
    assert m.state.dealer == 1  # the loser deals again


def test_stock_bottom_discards_face_down_and_hides_them():
    m = Match(3, {"first_dealer": 2, "a1_discard_to": "stock_bottom"}, [deck52()])
    new = m.act(0, {"type": "draw", "discard": "3C"})
    assert new[0].payload == {"seat": 0, "card": "3C", "slot": 1, "face_down": True}
    assert (
        m.state.discard == () and m.state.stock[-1] == "3C" and len(m.state.stock) == 40
    )
    assert GAME.redact(new[0], 1).payload["card"] is None
    assert GAME.redact(new[0], 0).payload["card"] == "3C"
    assert GAME.redact(new[1], 1).payload["card"] is None
    assert m.view(1)["discard_pile"] == []


def test_replenish_shuffle_hides_the_order_and_is_verifiable():
    dealer = 14
    hands = {
        s: [c] + f
        for s, (c, f) in enumerate(
            zip(
                ["4C", "9H", "2S", "8H", "3H"],
                [["KS", "8C"], ["KH", "8D"], ["KD", "9C"], ["KC", "9D"], ["5D", "JC"]],
                strict=True,
            )
        )
    }
    deck = stack(
        15, dealer, hands, table=["2D", "3D", "4D"], stock=["6S", "7S", "TS", "JS"]
    )
    m = Match(
        15,
        {"first_dealer": dealer, "replenish_shuffle": True},
        [deck],
        seed="verify-me",
    )
    for seat, card in [(0, "4C"), (1, "9H"), (2, "2S"), (3, "8H")]:
        m.act(seat, {"type": "draw", "discard": card})
    new = m.act(4, {"type": "draw", "discard": "3H"})
    replenished = new[1].payload
    assert replenished["reshuffle"] is True and replenished["shuffle"] == "r0"
    assert replenished["recycled"] == [
        "2S",
        "3H",
        "4C",
        "8H",
        "9H",
    ]  # which, not the order
    assert sorted(replenished["deck"]) == replenished["recycled"]
    redacted = GAME.redact(new[1], 4).payload
    assert "deck" not in redacted and "shuffled_from" not in redacted
    assert m.state.hands[4][0] == replenished["deck"][0]
    report = GAME.verify(m.events, seed="verify-me")
    # The reshuffle is re-derived from the seed; the given deck cannot be.
    assert report == {
        "ok": False,
        "checked": 1,
        "problems": ["Event 2 dealt a given deck, not a shuffle"],
    }


def test_fixed_deals_and_a_drawn_game():
    # two deals; each time both players tie: 1-1, a draw
    hands = {0: ["2C", "3D", "4H"], 1: ["4C", "3H", "2D"]}
    decks = [stack(2, 0, hands), stack(2, 1, hands)]
    m = Match(2, {"end_mode": "fixed_deals", "num_deals": 2}, decks)
    m.quick_deals(2)
    outcome = m.last("match_ended")["outcome"]
    assert outcome == {"scores": [2, 2], "places": [1, 1], "winners": [0, 1]}


def test_first_to_limit_all_level_is_a_draw():
    hands = {0: ["2C", "3D", "4H"], 1: ["4C", "3H", "2D"]}
    m = Match(2, {"penalty_limit": 1}, [stack(2, 0, hands)])
    m.quick_deals(1)
    assert GAME.outcome(m.state) == {
        "scores": [1, 1],
        "places": [1, 1],
        "winners": [0, 1],
    }


def test_elimination_skips_eliminated_seats_and_ranks_by_survival():
    # deal 1 (dealer 0): the dealer, seat 0, is lowest and is eliminated
    d1 = stack(
        3, 0, {0: ["2C", "3D", "4H"], 1: ["TS", "JS", "QS"], 2: ["TH", "JH", "QH"]}
    )
    # deal 2: the next dealer is the first active seat after seat 0: seat 1
    d2 = stack(3, 1, {2: ["2C", "3D", "4H"], 1: ["TS", "JS", "QS"]}, out=[0])
    m = Match(3, {"end_mode": "elimination", "penalty_limit": 1}, [d1, d2])
    m.quick_deals(1)
    result = m.last("deal_ended")
    assert result["eliminated"] == [0] and result["next_dealer"] == 1
    assert m.state.order == (2, 1) and m.state.hands[0] == ()
    assert m.view(1)["eliminated"] == [0] and m.view(0)["hand"] is None
    m.quick_deals(1)
    assert m.last("deal_ended")["hands"][0] is None
    assert GAME.outcome(m.state) == {
        "scores": [1, 0, 1],
        "places": [3, 1, 2],
        "winners": [1],
    }


def test_verify_rederives_every_deal_of_a_seeded_match():
    m = Match(3, {}, None, seed="public-later")
    m.quick_deals(3)
    assert GAME.verify(m.events, seed="public-later") == {
        "ok": True,
        "checked": 4,
        "problems": [],
    }
    report = GAME.verify(m.events, seed="wrong")
    assert not report["ok"]


@pytest.mark.parametrize("deck", [52, 32])
def test_seeded_deals_follow_the_documented_shuffle(deck):
    from rules import dealing

    events = GAME.start(players=4, options={"deck": deck}, seed=7)
    standard = GAME.standard_deck({"deck": deck})
    assert events[1].payload["deck"] == dealing.shuffle(standard, 7, 0)
    assert events[0].payload["seed_sha256"] == dealing.seed_hash(7)
    with pytest.raises(rules.InvalidOptions):
        GAME.replay([])


def test_loser_deals_looks_at_the_previous_dealer_last_among_the_tied():
    """D-19: tied losers are searched clockwise from ``next(previous dealer)``,
    the previous dealer himself last, so a tied dealer does not deal again."""
    # Dealer 0, eldest 1. Seats 0 and 2 tie for lowest (9 each); seat 1 is high.
    hands = {0: ["2C", "3D", "9H"], 1: ["TS", "JS", "QS"], 2: ["9C", "4D", "2H"]}
    m = Match(
        3, {"first_dealer": 0, "dealer_rule": "loser_deals"}, [stack(3, 0, hands)]
    )
    m.act(1, KONEC)
    m.act(2, PASS)
    m.act(0, PASS)
    result = m.last("deal_ended")
    assert result["penalised"] == [0, 2]
    assert result["next_dealer"] == 2
    assert m.state.dealer == 2 and m.state.current == 0  # the eldest leads


def test_two_alagers_in_different_suits_at_the_deal():
    """D-8 (two Alagers, Hoří off): both are announced at once, each owner
    strikes off a point (floored at 0), and the lowest other hand takes +1."""
    hands = {0: ["QH", "KH", "AH"], 1: ["QC", "KC", "AC"], 2: ["9D", "2S", "4H"]}
    m = Match(3, {"first_dealer": 2}, [stack(3, 2, hands)])
    assert m.types(m.events[1:5]) == [
        "deal_started",
        "special_announced",
        "special_announced",
        "deal_ended",
    ]
    result = m.last("deal_ended")
    assert result["reason"] == "special"
    assert result["specials"] == [
        {"seat": 0, "kind": "alager"},
        {"seat": 1, "kind": "alager"},
    ]
    assert result["penalised"] == [2]
    assert result["changes"] == [0, 0, 1]  # 0 → 0 twice (floor), 0 → 1
    showdown = {s: m.view(s)["last_deal"]["hands"] for s in (None, 0, 1, 2)}
    assert all(h == showdown[None] for h in showdown.values())  # all hands public
