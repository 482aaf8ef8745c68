"""Actions: the exact forms legal_actions lists, their effects, and clear refusals."""

import copy

import pytest

import rules
from rules.cards import deck52
from tests.rules.alager.helpers import GAME, Match, stack
from tests.rules.contract import assert_refused


def _fresh(options=None):
    """3 players, seat 0 eldest: P0 2C 3C 4C, P1 5C 6C 7C, P2 8C 9C TC, table JC QC KC."""
    return Match(3, {"first_dealer": 2, **(options or {})}, [deck52()])


def test_legal_actions_are_the_architecture_forms():
    m = _fresh()
    legal = GAME.legal_actions(m.state, 0)
    assert legal[:3] == [{"type": "draw", "discard": c} for c in ("2C", "3C", "4C")]
    assert legal[3] == {"type": "swap", "give": "2C", "take": "JC"}
    assert len([a for a in legal if a["type"] == "swap"]) == 9
    assert legal[-3:] == [{"type": "swap_all"}, {"type": "pass"}, {"type": "konec"}]
    assert len(legal) == 15
    assert GAME.legal_actions(m.state, 1) == []


def test_konec_flag_is_listed_only_with_konec_after_exchange():
    m = _fresh({"konec_after_exchange": True})
    legal = GAME.legal_actions(m.state, 0)
    flagged = [a for a in legal if a.get("konec")]
    assert len(flagged) == 13  # 3 draws, 9 swaps, swap_all
    assert {"type": "draw", "discard": "2C", "konec": True} in flagged
    assert all(set(a) <= {"type", "discard", "give", "take", "konec"} for a in legal)


def test_draw_keeps_the_hand_position_and_shows_the_discard():
    m = _fresh()
    new = m.act(0, {"type": "draw", "discard": "3C"})
    assert [e.type for e in new] == ["alager.card_discarded", "alager.card_drawn"]
    assert m.state.hands[0] == ("2C", "AC", "4C")
    assert m.state.discard == ("3C",) and len(m.state.stock) == 39
    assert m.state.current == 1 and m.state.turns_taken == 1


def test_swap_puts_the_hand_card_in_the_table_slot():
    m = _fresh()
    m.act(0, {"type": "swap", "give": "2C", "take": "QC"})
    assert m.state.hands[0] == ("QC", "3C", "4C")
    assert m.state.table == ("JC", "2C", "KC")


def test_swap_all_exchanges_slot_by_slot():
    m = _fresh()
    new = m.act(0, {"type": "swap_all"})
    assert new[0].payload == {
        "seat": 0,
        "gave": ["2C", "3C", "4C"],
        "took": ["JC", "QC", "KC"],
    }
    assert m.state.hands[0] == ("JC", "QC", "KC")
    assert m.state.table == ("2C", "3C", "4C")


def test_an_exchange_resets_the_pass_streak():
    m = _fresh()
    m.act(0, {"type": "pass"})
    m.act(1, {"type": "pass"})
    assert m.state.pass_streak == 2
    m.act(2, {"type": "swap_all"})
    assert m.state.pass_streak == 0


def test_a_card_named_loosely_is_understood():
    m = _fresh()
    m.act(0, {"type": "swap", "give": "2c", "take": "qc"})
    assert m.state.hands[0][0] == "QC"


def test_alager_by_drawing_and_by_swapping_all_ends_the_deal():
    """D-7 (b) after A1 and after A3."""
    hands = {0: ["QS", "KS", "2C"], 1: ["3C", "4C", "5C"], 2: ["6C", "7C", "8C"]}
    deck = stack(3, 2, hands, table=["QH", "KH", "AH"], stock=["AS"])
    m = Match(3, {"first_dealer": 2}, [deck, deck])
    new = m.act(0, {"type": "draw", "discard": "2C"})
    assert new[2].type == "alager.special_announced"
    assert new[3].payload["specials"] == [{"seat": 0, "kind": "alager"}]
    # second deal: dealer 0, eldest 1 is given QS KS 2C; the table is QH KH AH
    assert m.state.order == (1, 2, 0) and m.state.hands[1] == ("QS", "KS", "2C")
    new = m.act(1, {"type": "swap_all"})
    assert new[1].payload == {"seat": 1, "kind": "alager"}


BAD = [
    (
        {"type": "fold"},
        rules.UnknownAction,
        "Unknown action type 'fold'; this game knows: draw, swap, swap_all, pass, konec",
    ),
    ({}, rules.MalformedAction, "An action needs a 'type' string"),
    ("pass", rules.MalformedAction, "An action must be a JSON object with a 'type'"),
    ({"type": "draw"}, rules.MalformedAction, "A 'draw' action needs 'discard'"),
    (
        {"type": "draw", "discard": "1H"},
        rules.MalformedAction,
        "'1H' is not a card: write rank then suit, e.g. 'QH' or 'TC' "
        "(ranks 2 3 4 5 6 7 8 9 T J Q K A, suits C D H S)",
    ),
    ({"type": "draw", "discard": "AS"}, rules.IllegalAction, "AS is not in your hand"),
    (
        {"type": "draw", "discard": "2C", "card": "3C"},
        rules.MalformedAction,
        "A 'draw' action does not take 'card'",
    ),
    (
        {"type": "swap", "give": "2C"},
        rules.MalformedAction,
        "A 'swap' action needs 'take'",
    ),
    (
        {"type": "swap", "give": "JC", "take": "QC"},
        rules.IllegalAction,
        "JC is not in your hand",
    ),
    (
        {"type": "swap", "give": "2C", "take": "AC"},
        rules.IllegalAction,
        "AC is not on the table (the table is JC QC KC)",
    ),
    (
        {"type": "swap_all", "give": "2C"},
        rules.MalformedAction,
        "A 'swap_all' action does not take 'give'",
    ),
    (
        {"type": "pass", "konec": True},
        rules.MalformedAction,
        "A 'pass' action does not take 'konec'",
    ),
    (
        {"type": "swap_all", "konec": True},
        rules.IllegalAction,
        "Konec cannot be added to an exchange in this match "
        "(konec_after_exchange is off): knock instead of exchanging",
    ),
    (
        {"type": "swap_all", "konec": "yes"},
        rules.MalformedAction,
        "'konec' must be true or false",
    ),
]


@pytest.mark.parametrize(("action", "error", "message"), BAD)
def test_bad_actions_are_refused_with_a_clear_message(action, error, message):
    m = _fresh()
    before = copy.deepcopy(m.state)
    assert_refused(GAME, m.state, 0, action, error, message)
    assert issubclass(error, rules.IllegalAction) and issubclass(error, ValueError)
    assert m.state == before


def test_acting_out_of_turn():
    m = _fresh()
    assert_refused(
        GAME,
        m.state,
        2,
        {"type": "pass"},
        rules.NotYourTurn,
        "It is not your turn: seat 0 is to act",
    )


def test_no_knock_in_the_final_round():
    m = _fresh()
    m.act(0, {"type": "konec"})
    assert m.state.phase == "final" and m.state.final_queue == (1, 2)
    assert_refused(
        GAME,
        m.state,
        1,
        {"type": "konec"},
        rules.IllegalAction,
        "Konec has been called: this is your last turn, not a knock",
    )
    assert {"type": "konec"} not in GAME.legal_actions(m.state, 1)


def test_konec_min_round_two_waits_for_every_player():
    m = _fresh({"konec_min_round": 2})
    assert {"type": "konec"} not in GAME.legal_actions(m.state, 0)
    assert_refused(
        GAME,
        m.state,
        0,
        {"type": "konec"},
        rules.IllegalAction,
        "Konec may be called only from round 2 of the deal on",
    )
    for seat in (0, 1, 2):
        m.act(seat, {"type": "pass"})  # a refresh, then seat 0 again
    assert {"type": "konec"} in GAME.legal_actions(m.state, 0)


def test_nothing_is_legal_after_the_match():
    m = Match(2, {"end_mode": "fixed_deals", "num_deals": 1})
    m.act(m.state.current, {"type": "konec"})
    m.act(m.state.current, {"type": "pass"})
    assert m.state.phase == "over" and GAME.to_act(m.state) == ()
    assert GAME.legal_actions(m.state, 0) == []
    assert_refused(
        GAME, m.state, 0, {"type": "pass"}, rules.GameOver, "The match is over"
    )
