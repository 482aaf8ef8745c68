"""What a seat sees (docs/rules/alager.md §13): its own hand, public facts, nothing hidden."""

import json

from rules.alager import MARIASH_NAMES
from rules.cards import deck52
from tests.rules.alager.helpers import GAME, Match

VIEW_KEYS = {
    "game",
    "players",
    "options",
    "seat",
    "phase",
    "to_act",
    "outcome",
    "deal",
    "dealer",
    "eldest",
    "order",
    "current",
    "hand",
    "hand_value",
    "hand_sizes",
    "table",
    "discard_pile",
    "stock_count",
    "pass_streak",
    "knocker",
    "final_queue",
    "turns_taken",
    "max_turns_per_deal",
    "konec_allowed",
    "penalties",
    "eliminated",
    "last_deal",
}


def _fresh():
    return Match(3, {"first_dealer": 2}, [deck52()], seed="view-seed")


def test_a_seat_sees_its_own_hand_and_the_public_table():
    m = _fresh()
    view = m.view(1)
    assert set(view) == VIEW_KEYS
    assert view["hand"] == ["5C", "6C", "7C"] and view["hand_value"] == 18
    assert view["table"] == ["JC", "QC", "KC"] and view["stock_count"] == 40
    assert view["hand_sizes"] == [3, 3, 3] and view["discard_pile"] == []
    assert (view["phase"], view["to_act"], view["current"]) == ("normal", [0], 0)
    assert (view["deal"], view["dealer"], view["eldest"]) == (1, 2, 0)
    assert view["penalties"] == [0, 0, 0] and view["outcome"] is None


def test_no_view_names_a_card_its_seat_cannot_see():
    m = _fresh()
    stock = set(m.state.stock)
    for seat in (None, 0, 1, 2):
        text = json.dumps(m.view(seat))
        hidden = set(stock)
        for other in range(3):
            if other != seat:
                hidden |= set(m.state.hands[other])
        assert not [c for c in hidden if f'"{c}"' in text], seat
        assert "view-seed" not in text
    assert m.view(None)["hand"] is None


def test_the_showdown_reveals_every_hand_with_its_value():
    m = _fresh()
    m.act(0, {"type": "konec"})
    m.act(1, {"type": "pass"})
    m.act(2, {"type": "pass"})
    last = m.view(1)["last_deal"]
    assert last == {
        "deal": 1,
        "reason": "konec",
        "knocker": 0,
        "specials": [],
        "hands": [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "TC"]],
        "values": [9, 18, 27],
        "penalised": [0],
        "changes": [1, 0, 0],
        "penalties": [1, 0, 0],
        "eliminated": [],
        "next_dealer": 0,
    }


def test_the_final_round_is_public():
    m = _fresh()
    m.act(0, {"type": "konec"})
    view = m.view(2)
    assert view["phase"] == "final" and view["knocker"] == 0
    assert view["final_queue"] == [1, 2] and view["konec_allowed"] is False


def test_views_leave_the_static_mariash_names_to_the_catalogue():
    m = Match(3, {"deck": 32}, seed=1)
    assert "card_names" not in m.view(0)
    assert "card_names" not in _fresh().view(0)
    assert MARIASH_NAMES["AH"] == "srdcové eso" and len(MARIASH_NAMES) == 32


def test_redaction_hides_other_hands_the_drawn_card_and_the_secrets():
    m = _fresh()
    new = m.act(0, {"type": "draw", "discard": "2C"})
    started = m.events[1]
    assert GAME.redact(started, 1).payload["hands"] == [None, ["5C", "6C", "7C"], None]
    assert GAME.redact(started, None).payload["hands"] == [None, None, None]
    for seat in (None, 1):
        assert "deck" not in GAME.redact(started, seat).payload
        assert GAME.redact(new[1], seat).payload == {"seat": 0, "card": None, "slot": 0}
    assert GAME.redact(new[1], 0).payload["card"] == "AC"
    assert GAME.redact(new[0], 1).payload["card"] == "2C"  # discards are face up
    first = GAME.redact(m.events[0], 1).payload
    assert "seed" not in first and "decks" not in first and "seed_sha256" in first


def test_the_seed_is_revealed_when_the_match_ends():
    m = Match(2, {"end_mode": "fixed_deals", "num_deals": 1}, seed="s3cr3t")
    m.quick_deals(1)
    assert GAME.redact(m.events[-1], 0).payload["seed"] == "s3cr3t"
