"""Turn bookkeeping of docs/rules/alager.md §5, §8 and §9 that the worked examples
leave out: the pass streak around a knock (D-11), what the turn limit counts,
the knock flag's round limit, a shrinking table in elimination mode, Hoří off,
no other special hands (D-6), and single-card dealing over active seats only (D-3)."""

from rules.cards import deck52
from rules.core import IllegalAction
from tests.rules.alager.helpers import GAME, Match, stack
from tests.rules.contract import assert_refused

PASS = {"type": "pass"}
KONEC = {"type": "konec"}


def test_a_knock_resets_the_pass_streak_and_the_final_round_never_refreshes():
    """Two passes, then a knock: the final round's passes are no run (D-11)."""
    m = Match(3, {"first_dealer": 2}, [deck52()])
    m.act(0, PASS)
    m.act(1, PASS)
    assert m.state.pass_streak == 2
    m.act(2, KONEC)
    assert m.state.pass_streak == 0
    new = m.act(0, PASS) + m.act(1, PASS)
    assert m.types(new) == [
        "passed",
        "final_queue_advanced",
        "passed",
        "deal_ended",
        "deal_started",
    ]
    assert [e.payload["pass_streak"] for e in new if e.type == "alager.passed"] == [
        0,
        0,
    ]
    assert m.last("deal_ended")["reason"] == "konec"


def test_the_knock_counts_towards_the_turn_limit_but_the_final_round_does_not():
    """§8: the KONEC turn itself is counted; once someone has knocked the deal
    always finishes normally, however many final turns follow."""
    m = Match(3, {"first_dealer": 2, "max_turns_per_deal": 2}, [deck52()])
    m.act(0, PASS)
    m.act(1, KONEC)  # turn 2 of 2: a knock, not a forced end
    assert m.state.phase == "final" and m.state.turns_taken == 2
    m.act(2, {"type": "swap_all"})
    new = m.act(0, PASS)
    assert m.last("deal_ended")["reason"] == "konec"
    assert m.last("deal_ended")["knocker"] == 1
    assert m.types(new)[-1] == "deal_started"
    assert m.state.turns_taken == 0  # counted again from 0 in every deal


def test_an_exchange_reaching_the_turn_limit_forces_the_showdown():
    m = Match(3, {"first_dealer": 2, "max_turns_per_deal": 2}, [deck52()])
    m.act(0, PASS)
    new = m.act(1, {"type": "draw", "discard": "5C"})
    assert m.types(new)[:3] == ["card_discarded", "card_drawn", "deal_ended"]
    result = m.last("deal_ended")
    assert result["reason"] == "forced" and result["knocker"] is None


def test_the_konec_flag_waits_for_konec_min_round_like_a_plain_knock():
    options = {"first_dealer": 2, "konec_after_exchange": True, "konec_min_round": 2}
    m = Match(3, options, [deck52()])
    assert not [a for a in m_legal(m) if a.get("konec") or a["type"] == "konec"]
    assert_refused(
        GAME,
        m.state,
        0,
        {"type": "swap_all", "konec": True},
        IllegalAction,
        "Konec may be called only from round 2 of the deal on",
    )
    for seat in (0, 1, 2):
        m.act(seat, PASS)
    assert {"type": "swap_all", "konec": True} in m_legal(m)
    m.act(0, {"type": "swap_all", "konec": True})
    assert m.state.phase == "final" and m.state.knocker == 0


def test_after_an_elimination_the_smaller_table_sets_the_pass_run_and_turn_limit():
    """§12: the rest play on "including a new n for the pass streak"; the
    default limit is 50 turns per *active* player."""
    d1 = stack(
        3, 0, {0: ["2C", "3D", "4H"], 1: ["TS", "JS", "QS"], 2: ["TH", "JH", "QH"]}
    )
    d2 = stack(3, 1, {2: ["9C", "3D", "4H"], 1: ["TS", "JS", "QS"]}, out=[0])
    m = Match(3, {"end_mode": "elimination", "penalty_limit": 1}, [d1, d2])
    assert m.state.max_turns == 150
    m.quick_deals(1)
    assert m.state.order == (2, 1) and m.state.max_turns == 100
    table = m.state.table
    m.act(2, PASS)
    new = m.act(1, PASS)  # two passes are the whole table now
    assert m.types(new) == ["passed", "table_refreshed"]
    assert new[1].payload["removed"] == list(table)
    assert new[1].payload["next"] == 2


def test_without_hori_three_aces_are_an_ordinary_hand():
    """D-5: three aces end nothing unless ``hori_enabled``; they are worth 11."""
    hands = {0: ["AC", "AD", "5S"], 1: ["TS", "JS", "QS"], 2: ["TH", "JH", "QH"]}
    deck = stack(3, 2, hands, table=["AH", "6C", "9S"])
    m = Match(3, {"first_dealer": 2}, [deck])
    new = m.act(0, {"type": "swap", "give": "5S", "take": "AH"})
    assert m.types(new) == ["card_swapped"]
    assert m.view(0)["hand_value"] == 11 and m.state.phase == "normal"
    m = Match(3, {"first_dealer": 2, "hori_enabled": True}, [deck])
    new = m.act(0, {"type": "swap", "give": "5S", "take": "AH"})
    assert m.types(new)[:3] == ["card_swapped", "special_announced", "deal_ended"]


def test_an_ordinary_31_and_three_kings_end_nothing():
    """D-6: only Q-K-A (and three aces with Hoří) are special. Completing AH KH TH
    (31, no queen) or three kings leaves the deal running, also with Hoří on."""
    hands = {0: ["AH", "KH", "5S"], 1: ["KC", "KD", "2S"], 2: ["TS", "JS", "QS"]}
    deck = stack(3, 2, hands, table=["TH", "KS", "9C"])
    for options in ({}, {"hori_enabled": True}):
        m = Match(3, {"first_dealer": 2, **options}, [deck])
        new = m.act(0, {"type": "swap", "give": "5S", "take": "TH"})
        assert m.types(new) == ["card_swapped"]
        assert m.view(0)["hand_value"] == 31 and m.state.phase == "normal"
        new = m.act(1, {"type": "swap", "give": "2S", "take": "KS"})
        assert m.types(new) == ["card_swapped"]
        assert m.view(1)["hand_value"] == 10 and m.state.current == 2


def test_single_card_dealing_counts_active_seats_only():
    """D-3: offsets count active seats; with ``deal_pattern = "single"`` the cards
    go round the active seats one at a time, from the eldest."""
    d1 = single_deck(
        [1, 2, 0],
        {0: ["2C", "3D", "4H"], 1: ["TS", "JS", "QS"], 2: ["TH", "JH", "QH"]},
    )
    d2 = deck52()  # dealer 1: the order is seat 2, then seat 1
    options = {"end_mode": "elimination", "penalty_limit": 1, "deal_pattern": "single"}
    m = Match(3, options, [d1, d2])
    assert m.state.hands[0] == ("2C", "3D", "4H")
    m.quick_deals(1)
    assert m.state.order == (2, 1)
    assert m.state.hands[2] == ("2C", "4C", "6C")
    assert m.state.hands[1] == ("3C", "5C", "7C")
    assert m.state.hands[0] == ()
    assert m.state.table == ("8C", "9C", "TC") and m.state.stock[0] == "JC"


def m_legal(m: Match) -> list[dict]:
    return GAME.legal_actions(m.state, m.state.current)


def single_deck(order: list[int], hands: dict[int, list[str]]) -> list[str]:
    """A full deck that deals ``hands`` one card at a time round ``order``."""
    named = [c for h in hands.values() for c in h]
    rest = [c for c in deck52() if c not in named]
    deck = [hands[s][r] for r in range(3) for s in order]
    return deck + rest


def test_the_pass_that_refreshes_the_table_can_also_reach_the_turn_limit():
    """§8: the n-th pass refreshes the table at the end of that turn; the turn
    is then counted, and at the limit the deal ends at once in a showdown with
    no knocker, the refreshed table left as it is."""
    m = Match(3, {"first_dealer": 2, "max_turns_per_deal": 3}, [deck52()])
    m.act(0, PASS)
    m.act(1, PASS)
    new = m.act(2, PASS)
    assert m.types(new)[:3] == ["passed", "table_refreshed", "deal_ended"]
    assert new[1].payload == {
        "removed": ["JC", "QC", "KC"],
        "table": ["AC", "2D", "3D"],
        "next": 0,
    }
    result = new[2].payload
    assert result["reason"] == "forced" and result["knocker"] is None
    # 2C 3C 4C = 9, 5C 6C 7C = 18, 8C 9C TC = 27: seat 0 takes the point.
    assert result["values"] == [9, 18, 27] and result["penalised"] == [0]
