"""The worked cases of docs/rules/alager.md (§5, §6, §7.3, §8 and "Worked examples"; labels
P1–P2 and E1–E6 as its "For maintainers" lists them), reached through play with ``deck=``.

Penalty points before an example are built up by "quick deals" (the eldest
knocks, the others pass, one chosen seat holds the lowest hand), so each
example starts from exactly the totals the rules file gives.
"""

from rules.alager import MARIASH_NAMES
from rules.cards import deck52
from tests.rules.alager.helpers import Match, quick_decks, stack

PASS = {"type": "pass"}
KONEC = {"type": "konec"}


def test_dealing_example():
    """§5: n = 3, dealer P2, the unshuffled deck52."""
    m = Match(3, {"first_dealer": 2}, [deck52()])
    s = m.state
    assert (s.dealer, s.order, s.current) == (2, (0, 1, 2), 0)
    assert s.hands == (("2C", "3C", "4C"), ("5C", "6C", "7C"), ("8C", "9C", "TC"))
    assert s.table == ("JC", "QC", "KC")
    assert s.stock[0] == "AC" and len(s.stock) == 40
    assert m.view(0)["stock_count"] == 40


def test_deal_pattern_single_deals_one_card_at_a_time():
    """Option ``deal_pattern = "single"``: three rounds of one card, eldest first."""
    m = Match(3, {"first_dealer": 2, "deal_pattern": "single"}, [deck52()])
    assert m.state.hands == (("2C", "5C", "8C"), ("3C", "6C", "9C"), ("4C", "7C", "TC"))
    assert m.state.table == ("JC", "QC", "KC")


def test_p1_draw_from_an_empty_stock_replenishes_first():
    """§7.3, P1 with a full deck: 15 players (S0 = 4), four draws empty the stock.

    The fourth card (8H) is there because S0 is 4 here; the example's fragment
    has three. The drawer discards 3H, the pile goes under the stock unshuffled,
    earliest discard on top, and 4C is drawn into 3H's position.
    """
    dealer = 14  # seat 0 is eldest, so seats 0..4 move first
    hands = {
        0: ["4C", "KS", "8C"],
        1: ["9H", "KH", "8D"],
        2: ["2S", "KD", "9C"],
        3: ["8H", "KC", "9D"],
        4: ["5D", "JC", "3H"],
    }
    deck = stack(
        15, dealer, hands, table=["2D", "3D", "4D"], stock=["6S", "7S", "TS", "JS"]
    )
    m = Match(15, {"first_dealer": dealer}, [deck])
    for seat, card in [(0, "4C"), (1, "9H"), (2, "2S"), (3, "8H")]:
        m.act(seat, {"type": "draw", "discard": card})
    assert m.state.stock == () and m.state.discard == ("4C", "9H", "2S", "8H")
    new = m.act(4, {"type": "draw", "discard": "3H"})
    assert m.types(new) == ["card_discarded", "stock_replenished", "card_drawn"]
    assert new[1].payload == {"recycled": ["4C", "9H", "2S", "8H", "3H"]}
    assert m.state.hands[4] == ("5D", "JC", "4C")
    assert m.state.stock == ("9H", "2S", "8H", "3H")
    assert m.state.discard == ()


def test_p2_all_pass_refresh_with_a_short_stock():
    """§8, P2 with a full deck: 8 players on deck32 (S0 = 5).

    Three draws leave stock [8D, KS] and discards [7C, TD, 8S] (the example's
    6C and 3S do not exist in the 32-card deck); table [9H, 7S, JC]. Then all
    eight pass: replenish, the table goes under, three new cards come up.
    """
    dealer = 7
    hands = {0: ["7C", "KC", "QD"], 1: ["TD", "KD", "QH"], 2: ["8S", "KH", "QS"]}
    deck = stack(
        8,
        dealer,
        hands,
        table=["9H", "7S", "JC"],
        stock=["AS", "AH", "AD", "8D", "KS"],
        size=32,
    )
    m = Match(8, {"first_dealer": dealer, "deck": 32}, [deck])
    for seat, card in [(0, "7C"), (1, "TD"), (2, "8S")]:
        m.act(seat, {"type": "draw", "discard": card})
    assert m.state.stock == ("8D", "KS") and m.state.discard == ("7C", "TD", "8S")
    first_passer = m.state.current
    for _ in range(7):
        m.act(m.state.current, PASS)
    assert m.state.pass_streak == 7
    new = m.act(m.state.current, PASS)
    assert m.types(new) == ["passed", "stock_replenished", "table_refreshed"]
    assert new[2].payload == {
        "removed": ["9H", "7S", "JC"],
        "table": ["8D", "KS", "7C"],
        "next": first_passer,
    }
    assert m.state.table == ("8D", "KS", "7C")
    assert m.state.stock == ("TD", "8S", "9H", "7S", "JC")
    assert m.state.pass_streak == 0 and m.state.current == first_passer
    assert len(m.state.stock) + len(m.state.discard) == 5  # the invariant: S0


def test_e1_konec_with_two_players_tied_for_lowest():
    """Worked examples, E1: P1 and P3 tie at 9 and both take +1; the game continues."""
    hands = {
        0: ["KS", "5C", "4D"],
        1: ["9H", "8C", "2D"],
        2: ["AH", "TH", "6H"],
        3: ["7C", "2S", "9D"],
    }
    targets = [0, 2, 2, 3, 3, 3]  # P0 1, P1 0, P2 2, P3 3
    m = _example(4, targets, hands, table=["QS", "3H", "4S"])
    m.quick_deals(6)
    assert m.state.penalties == (1, 0, 2, 3) and m.state.dealer == 2
    assert m.state.order == (3, 0, 1, 2)
    m.act(3, PASS)
    m.act(0, PASS)
    m.act(1, PASS)
    m.act(2, KONEC)
    assert m.state.phase == "final" and m.state.final_queue == (3, 0, 1)
    m.act(3, PASS)
    m.act(0, {"type": "swap", "give": "5C", "take": "QS"})
    assert m.state.final_queue == (1,)
    new = m.act(1, PASS)
    assert m.types(new) == ["passed", "deal_ended", "deal_started"]
    result = new[1].payload
    assert result["reason"] == "konec" and result["knocker"] == 2
    assert result["hands"] == [
        ["KS", "QS", "4D"],
        ["9H", "8C", "2D"],
        ["AH", "TH", "6H"],
        ["7C", "2S", "9D"],
    ]
    assert result["values"] == [20, 9, 27, 9]
    assert result["penalised"] == [1, 3]
    assert result["penalties"] == [1, 1, 2, 4]
    assert result["next_dealer"] == 3  # clockwise
    assert m.state.phase == "normal" and m.state.dealer == 3


def test_e2_alager_completed_during_normal_play():
    """Worked examples, E2: P1 swaps 5C for AH, holds QH KH AH, and the deal ends at once."""
    hands = {
        0: ["AS", "9S", "3D"],
        1: ["QH", "KH", "5C"],
        2: ["8D", "6D", "4C"],
        3: ["JC", "7C", "2H"],
    }
    targets = [1, 1, 2, 3, 3, 3]  # P0 0, P1 2, P2 1, P3 3
    m = _example(4, targets, hands, table=["AH", "8S", "3C"])
    m.quick_deals(6)
    assert m.state.penalties == (0, 2, 1, 3)
    m.act(3, PASS)
    m.act(0, PASS)
    new = m.act(1, {"type": "swap", "give": "5C", "take": "AH"})
    assert m.types(new) == [
        "card_swapped",
        "special_announced",
        "deal_ended",
        "deal_started",
    ]
    assert new[1].payload == {"seat": 1, "kind": "alager"}
    result = new[2].payload
    assert result["reason"] == "special"
    assert result["hands"][1] == ["QH", "KH", "AH"]
    assert result["values"] == [20, 31, 14, 17]
    assert result["penalised"] == [2]
    assert result["penalties"] == [0, 1, 2, 3]
    # The table as the deal ended, before the next deal was dealt.
    assert _replay_until(m, len(m.events) - 2).table == ("5C", "8S", "3C")


def test_e3_alager_in_the_deal_with_the_floor_at_zero():
    """§6, E3 (deck32): P0 is dealt svršek, král, eso of listy; no one moves."""
    hands = {0: ["QS", "KS", "AS"], 1: ["7H", "8C", "9D"], 2: ["TC", "7D", "JC"]}
    m = _example(3, [1, 1], hands, {"deck": 32})  # P1 2
    m.quick_deals(1)
    assert m.state.penalties == (0, 1, 0)
    deal = m.state.deal
    new = m.act(m.state.current, KONEC)
    new += _finish_deal(m, deal)
    kinds = m.types(new)
    assert kinds[-4:] == [
        "deal_started",
        "special_announced",
        "deal_ended",
        "deal_started",
    ]
    dealt = new[-4].payload
    assert (dealt["dealer"], dealt["eldest"]) == (2, 0)
    result = new[-2].payload
    assert result["reason"] == "special" and result["specials"] == [
        {"seat": 0, "kind": "alager"}
    ]
    assert result["values"] == [31, 9, 20]
    assert result["changes"] == [0, 1, 0]
    assert result["penalties"] == [0, 3, 0]
    assert MARIASH_NAMES["QS"] == "zelený svršek"


def test_e4_hori_in_the_final_round():
    """Worked examples, E4 (Hoří on): P0 completes three aces; P1 loses his final turn."""
    hands = {
        0: ["AC", "AD", "5S"],
        1: ["JH", "4H", "3S"],
        2: ["KD", "QD", "9D"],
        3: ["7S", "8S", "2H"],
    }
    targets = [0, 0, 0, 1, 1, 3, 3, 3, 3]  # P0 3, P1 2, P2 0, P3 4
    m = _example(4, targets, hands, {"hori_enabled": True}, table=["AH", "6C", "TS"])
    m.quick_deals(9)
    assert m.state.penalties == (3, 2, 0, 4) and m.state.current == 2
    m.act(2, KONEC)
    assert m.state.final_queue == (3, 0, 1)
    m.act(3, PASS)
    new = m.act(0, {"type": "swap", "give": "5S", "take": "AH"})
    assert m.types(new)[:3] == ["card_swapped", "special_announced", "deal_ended"]
    assert new[1].payload == {"seat": 0, "kind": "hori"}
    result = new[2].payload
    assert result["reason"] == "special" and result["knocker"] is None
    assert result["hands"][1] == ["JH", "4H", "3S"]
    assert result["values"] == [11, 14, 29, 15]
    assert result["penalties"] == [2, 3, 0, 4]


def test_e5_knocker_tied_for_lowest_and_the_game_ends():
    """Worked examples, E5: P0 and P2 tie at 16; P0 reaches 5; P1 wins with 1 point."""
    hands = {0: ["TC", "6C", "3H"], 1: ["JS", "4S", "2D"], 2: ["AD", "5D", "4H"]}
    targets = [0, 0, 0, 0, 1, 2, 2]  # P0 4, P1 1, P2 2
    # Seat 1 deals first, so seat 2 deals the 8th.
    m = _example(3, targets, hands, {"first_dealer": 1}, stock=["5S"])
    m.quick_deals(7)
    assert m.state.penalties == (4, 1, 2)
    assert m.state.dealer == 2 and m.state.current == 0
    m.act(0, KONEC)
    m.act(1, {"type": "draw", "discard": "2D"})
    assert m.state.hands[1] == ("JS", "4S", "5S")
    assert m.view(2)["discard_pile"] == ["2D"]
    new = m.act(2, PASS)
    assert m.types(new) == ["passed", "deal_ended", "match_ended"]
    result = new[1].payload
    assert result["values"] == [16, 19, 16]
    assert result["penalised"] == [0, 2] and result["knocker"] == 0
    assert result["penalties"] == [5, 1, 3] and result["next_dealer"] is None
    outcome = {"scores": [5, 1, 3], "places": [3, 1, 2], "winners": [1]}
    assert new[2].payload["outcome"] == outcome
    assert m.view(None)["outcome"] == outcome
    assert m.state.phase == "over"


def test_e6_two_special_hands_in_the_deal():
    """§6, E6 (Hoří on): an Alager and three aces are announced together (D-8)."""
    hands = {0: ["QH", "KH", "AH"], 1: ["AC", "AD", "AS"], 2: ["9C", "9D", "4S"]}
    m = _example(3, [0], hands, {"hori_enabled": True})  # P0 1
    deal = m.state.deal
    new = m.act(m.state.current, KONEC) + _finish_deal(m, deal)
    kinds = m.types(new)
    i = kinds.index("special_announced")
    assert kinds[i : i + 3] == ["special_announced", "special_announced", "deal_ended"]
    assert [e.payload for e in new[i : i + 2]] == [
        {"seat": 0, "kind": "alager"},
        {"seat": 1, "kind": "hori"},
    ]
    result = new[i + 2].payload
    assert result["specials"] == [
        {"seat": 0, "kind": "alager"},
        {"seat": 1, "kind": "hori"},
    ]
    assert result["changes"] == [-1, 0, 1]
    assert result["penalties"] == [0, 0, 1]


# ---------------------------------------------------------------- helpers


def _example(players, targets, hands, options=None, **deal) -> Match:
    """A match stacked for an example: one quick deal lost by each seat in
    ``targets``, then the example's deal of ``hands`` (``table=``, ``stock=``).

    The example's dealer follows the quick deals clockwise from ``first_dealer``.
    """
    options = options or {}
    first_dealer = options.get("first_dealer", 0)
    size = options.get("deck", 52)
    decks = quick_decks(players, first_dealer, targets, size=size)
    dealer = (first_dealer + len(targets)) % players
    decks.append(stack(players, dealer, hands, size=size, **deal))
    return Match(players, options, decks)


def _finish_deal(m: Match, deal: int) -> list:
    out = []
    while m.state.deal == deal:
        out += m.act(m.state.current, PASS)
    return out


def _replay_until(m: Match, index: int):
    """The state right after event ``index`` of the match."""
    from tests.rules.alager.helpers import GAME

    return GAME.replay(m.events[: index + 1])
