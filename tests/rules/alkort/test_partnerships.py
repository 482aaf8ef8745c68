"""Four-player partnerships and the options around them (docs/rules/alkort.md B1,
B3, B5, B7, B9, B12), played through forced deals.

A seven's rights belong to the player, not to the side: a partner's trick
neither lets a player lead a seven (B7) nor, under V2, makes his seven supreme
(B12). The rest pins the options the worked examples do not exercise:
``lead_rule = "winner"`` with partners, ``first_dealer``, ``target``, the
2-player deck layout, and the reveal of an exchanger's new hand.
"""

from rules.alkort.tables import DECK
from rules.core import IllegalAction
from tests.rules.alkort.helpers import (
    GAME,
    cards,
    deck_for,
    of_type,
    pass_all,
    play_cards,
    script_deal,
)
from tests.rules.contract import assert_refused

# Dealer 0, so seat 1 is forehand and leads trick 1; seat 0 takes it with KD.
PARTNER_WINS = [
    cards("KD 2H 4C 8S 9H 9D AC AD AH"),
    cards("3D 3H 3S 4H 4S 9S QC QD QH"),
    cards("7C 4D 2C 2D 2S 3C KC KH KS"),
    cards("9C QS JS JC JD JH 6C 6D 6H"),
]
# Seat 3 takes trick 1 with KD; seat 1, his partner, holds 7H.
SEAT_3_WINS = [
    cards("2C 2D 2S 3C AH KC KH KS QC"),
    cards("3D 7H 4H 4S 9S QD QH QS 9C"),
    cards("AS 4D 6S 8C 8D 8H 3S JH 6C"),
    cards("KD 2H 4C 8S 9H 9D AC AD 3H"),
]


def playing(hands, options=None, dealer=0):
    state = GAME.replay(
        GAME.start(4, options or {}, seed=1, deck=deck_for(4, dealer, hands))
    )
    state, _ = pass_all(state)
    return state


def test_a_partners_trick_does_not_let_a_player_lead_a_seven():
    """B7: "tricks won by the partner do not count"."""
    state, events = play_cards(playing(PARTNER_WINS), ["3D", "4D", "9C", "KD"])
    assert of_type(events, "trick_won")[0]["seat"] == 0
    assert GAME.to_act(state) == (2,)  # the lead rotates to seat 2, seat 0's partner
    legal = GAME.legal_actions(state, 2)
    assert {"type": "play", "card": "7C"} not in legal and len(legal) == 7
    assert_refused(
        GAME,
        state,
        2,
        {"type": "play", "card": "7C"},
        IllegalAction,
        "You cannot lead a 7 before you have won a trick yourself; lead another card",
    )


def test_under_v2_a_partners_trick_does_not_make_a_followers_seven_supreme():
    """B12 V2: a 7 is supreme only from a player who has won a trick himself."""
    options = {"seven_rule": "player_has_trick"}
    state, events = play_cards(playing(SEAT_3_WINS, options), ["3D", "4D", "KD", "2C"])
    assert of_type(events, "trick_won")[0]["seat"] == 3
    state, events = play_cards(state, ["AS", "3H", "AH", "7H"])
    won = of_type(events, "trick_won")[0]
    assert won["leader"] == 2 and won["seat"] == 2  # 7H is dead: AS holds


def test_lead_rule_winner_gives_the_lead_to_the_winner_not_his_partner():
    """B12 V1 with partners: seat 3 won trick 1 and leads trick 2."""
    for options, leader in [({}, 2), ({"lead_rule": "winner"}, 3)]:
        state, events = play_cards(
            playing(SEAT_3_WINS, options), ["3D", "4D", "KD", "2C"]
        )
        assert of_type(events, "trick_won")[0]["seat"] == 3
        assert GAME.to_act(state) == (leader,)
        assert GAME.view(state, None)["leader"] == leader


def test_the_dealer_exchanges_last_and_reveals_from_the_new_hand():
    """B4, B5 (decision 5): the reveal is computed after the exchange, so the
    dealer who took the stock shows his partner the stock's KD, not 8H."""
    weak = cards("3C 3D QH KS 7C 8H 9S 2D 4S")
    stock = ["KD", "2H", "4C", "9H", "9D", "AC", "AD", "AH"]
    rest = [c for c in DECK if c not in weak + stock]
    hands = [weak, rest[0:9], rest[9:18], rest[18:27]]
    state = GAME.replay(GAME.start(4, seed=1, deck=deck_for(4, 0, hands, stock)))
    for seat in (1, 2, 3):
        state, _ = GAME.apply(state, seat, {"type": "pass"})
    events = GAME.decide(state, 0, {"type": "exchange", "keep": "8H"})
    assert [e.type for e in events] == [
        "alkort.stock_exchanged",
        "alkort.partners_revealed",
    ]
    reveals = events[1].payload["reveals"]
    assert reveals[0] == {"seat": 0, "partner": 2, "card": "KD"}


def test_first_dealer_sets_forehand_and_the_deal_passes_clockwise():
    deck, orders = script_deal(4, 2, [3, 0, 3, 0, 3, 0, 3, 0, 3])
    events = GAME.start(4, {"first_dealer": 2}, seed=4, deck=[deck])
    dealt = events[1].payload
    assert (dealt["dealer"], dealt["forehand"]) == (2, 3)
    state, _ = pass_all(GAME.replay(events))
    assert GAME.to_act(state) == (3,)
    for order in orders:
        state, new = play_cards(state, order)
    assert of_type(new, "deal_scored")[0]["side"] == 1
    assert of_type(new, "cards_dealt")[0]["dealer"] == 3


def test_target_ends_the_match_when_a_side_reaches_it():
    """B9: "the first side with score ≥ target wins": a 6-card stroke reaches a
    target of 6 exactly."""
    deck, orders = script_deal(2, 0, [0, 0, 0, 0, 0, 0, 1])
    state, _ = pass_all(GAME.replay(GAME.start(2, {"target": 6}, seed=4, deck=deck)))
    for order in orders:
        state, events = play_cards(state, order)
    assert of_type(events, "deal_scored")[0]["points"] == 6  # C3 #8
    assert events[-1].type == "alkort.match_ended"
    outcome = {"scores": [6, 0], "places": [1, 2], "winners": [0]}
    assert events[-1].payload["outcome"] == outcome
    assert GAME.to_act(state) == ()


def test_two_players_deal_eighteen_then_an_eight_card_stock_and_a_dead_pile():
    """B3 (decision 1) and B10: the non-dealer is forehand; 18 cards stay unused."""
    deck = list(DECK)
    dealt = GAME.start(2, {"first_dealer": 0}, seed=4, deck=deck)[1].payload
    assert dealt["forehand"] == 1
    assert dealt["hands"][1] == deck[0:3] + deck[6:9] + deck[12:15]
    assert dealt["hands"][0] == deck[3:6] + deck[9:12] + deck[15:18]
    assert dealt["stock"] == deck[18:26] and dealt["dead"] == deck[26:]
    assert len(dealt["dead"]) == 18


def test_two_players_the_dealer_exchanges_after_forehand_and_forehand_still_leads():
    """B4, B7, B10, B11 with two players: forehand (the non-dealer) speaks first;
    the dealer's exchange ends the phase without a reveal; forehand leads trick 1;
    only the dealer sees what he kept, discarded and took, and nobody ever sees
    the 18 dead cards."""
    weak = cards("3C 3D QH KS 7C 8H 9S 2D 4S")
    stock = ["KD", "2H", "4C", "9H", "9D", "AC", "AD", "AH"]
    rest = [c for c in DECK if c not in weak + stock]
    strong = rest[:9]
    events = GAME.start(2, seed=1, deck=deck_for(2, 0, [weak, strong], stock))
    state = GAME.replay(events)
    dead = events[1].payload["dead"]
    assert len(dead) == 18 and not set(dead) & set(weak + strong + stock)
    assert GAME.to_act(state) == (1,)  # forehand: the non-dealer
    assert GAME.legal_actions(state, 1) == [{"type": "pass"}]  # holds high cards
    state, _ = GAME.apply(state, 1, {"type": "pass"})
    new = GAME.decide(state, 0, {"type": "exchange", "keep": "7C"})
    assert [e.type for e in new] == ["alkort.stock_exchanged"]  # no reveal with 2
    for e in new:
        state = GAME.evolve(state, e)
    assert state.phase == "play" and GAME.to_act(state) == (1,)
    assert state.hands[0] == tuple(sorted(["7C", *stock], key=DECK.index))
    shown = sorted(weak, key=DECK.index)
    public = {"passed": [1], "exchanger": 0, "shown": shown}
    assert GAME.view(state, 1)["exchange"] == GAME.view(state, None)["exchange"]
    assert GAME.view(state, 1)["exchange"] == public
    assert GAME.view(state, 0)["exchange"] == {
        **public,
        "kept": "7C",
        "taken": stock,
        "discards": [c for c in shown if c != "7C"],
    }
    for seat in (None, 0, 1):
        assert GAME.view(state, seat)["reveal"] is None
        text = repr(GAME.view(state, seat)) + repr(
            [GAME.redact(e, seat) for e in [*events, *new]]
        )
        assert not [c for c in dead if f"'{c}'" in text], "a dead card leaked"
    assert GAME.view(state, 0)["hand_sizes"] == [9, 9]
