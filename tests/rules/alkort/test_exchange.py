"""docs/rules/alkort.md B4/C2: the weak-hand stock exchange, and B5's partner reveal."""

import pytest

import rules
from rules.alkort.tables import DECK, is_eligible
from tests.rules.alkort.helpers import GAME, cards, deck_for, of_type, pass_all
from tests.rules.contract import assert_refused

C2 = [
    ("3C 3D QH KS 7C 8H 9S 2D 4S", True),
    ("3C 3D QH KS 7C 8H 9S 2D 6S", False),
    ("8C 8D 8H 7S 7D QC QD KC 9C", True),
    ("8S 3C 3D 3H 3S QC QD QH QS", False),
]
STOCK = ["KD", "2H", "4C", "9H", "9D", "AC", "AD", "AH"]


def deal(hands: dict[int, list[str]], players: int = 4, stock=STOCK, options=None):
    """A match whose first deal (dealer 0) gives ``hands`` and ``stock``."""
    used = [c for h in hands.values() for c in h] + list(stock)
    spare = [c for c in DECK if c not in used]
    full = [hands.get(s) or [spare.pop() for _ in range(9)] for s in range(players)]
    deck = deck_for(players, 0, full, stock)
    events = GAME.start(players, options or {}, seed=11, deck=deck)
    return GAME.replay(events), events


@pytest.mark.parametrize(("hand", "eligible"), C2, ids=["C2-1", "C2-2", "C2-3", "C2-4"])
def test_eligibility(hand, eligible):
    """The exchange is offered (one action per card to keep) exactly to weak hands."""
    cards = hand.split()
    assert is_eligible(cards) is eligible
    state, _ = deal({1: cards})
    assert GAME.to_act(state) == (1,)
    legal = GAME.legal_actions(state, 1)
    keeps = sorted(a["keep"] for a in legal if a["type"] == "exchange")
    assert keeps == (sorted(cards) if eligible else [])
    assert {"type": "pass"} in legal


def test_ineligible_exchange_is_rejected():
    state, _ = deal({1: C2[1][0].split()})
    assert_refused(
        GAME,
        state,
        1,
        {"type": "exchange", "keep": "3C"},
        rules.IllegalAction,
        "You may exchange only a hand that cannot beat a led low eight; yours holds 6S",
    )


def test_c2_exchange_keeping_7c():
    """Forehand shows the hand, keeps 7C, takes the stock; nobody else exchanges."""
    hand = C2[0][0].split()
    state, _ = deal({1: hand, 2: cards("8C 8D 7S 7D QC QD KC 9C 2S")})
    events = GAME.decide(state, 1, {"type": "exchange", "keep": "7c"})
    shown = sorted(hand, key=DECK.index)
    assert [e.type for e in events] == [
        "alkort.stock_exchanged",
        "alkort.partners_revealed",
    ]
    assert events[0].payload == {
        "seat": 1,
        "shown": shown,
        "keep": "7C",
        "discards": [c for c in shown if c != "7C"],
        "taken": STOCK,
    }
    for seat in (None, 0, 2, 3):
        assert GAME.redact(events[0], seat).payload == {"seat": 1, "shown": shown}
    assert GAME.redact(events[0], 1) == events[0]
    for e in events:
        state = GAME.evolve(state, e)
    assert state.hands[1] == tuple(sorted(["7C", *STOCK], key=DECK.index))
    assert state.phase == "play" and GAME.to_act(state) == (1,)
    # Seat 2 was eligible too, but there is one stock: the phase is over.
    assert_refused(
        GAME,
        state,
        2,
        {"type": "exchange", "keep": "8C"},
        rules.NotYourTurn,
        "It is not your turn: seat 1 is to act",
    )
    assert_refused(
        GAME,
        state,
        1,
        {"type": "exchange", "keep": "7C"},
        rules.UnknownAction,
        "The stock exchange is over: play a card",
    )
    views = {s: GAME.view(state, s)["exchange"] for s in (None, 0, 1, 2, 3)}
    public = {"passed": [], "exchanger": 1, "shown": shown}
    assert views[None] == views[0] == views[2] == views[3] == public
    assert views[1] == {
        **public,
        "kept": "7C",
        "taken": STOCK,
        "discards": [c for c in shown if c != "7C"],
    }


def test_the_phase_runs_from_forehand_to_the_dealer_then_reveals():
    """Everyone passes in turn (1, 2, 3, then dealer 0); the reveal follows."""
    hands = {
        0: cards("AS AH 7S 9C QC QD 3S 2C 2S"),
        1: cards("6H JC 8D 8C 3H QS 4D 4H KH"),
        2: cards("7C 7D 7H 3C 3D QH KS 2D 9S"),
    }
    state, _ = deal(hands, stock=["KD", "2H", "4C", "8S", "9H", "9D", "AC", "AD"])
    state, events = pass_all(state)
    assert [e.payload.get("seat") for e in events[:4]] == [1, 2, 3, 0]
    assert [e.type for e in events] == ["alkort.exchange_passed"] * 4 + [
        "alkort.partners_revealed"
    ]
    reveals = events[-1].payload["reveals"]
    assert reveals[0] == {"seat": 0, "partner": 2, "card": "AH"}  # aces: H before S
    assert reveals[1] == {"seat": 1, "partner": 3, "card": "JC"}  # jacks outrank sixes
    assert reveals[2] == {"seat": 2, "partner": 0, "card": None}  # NONE
    # Only partners see each other's card; everyone sees that reveals happened.
    seen_by_0 = GAME.redact(events[-1], 0).payload["reveals"]
    assert seen_by_0 == [
        {"seat": 0, "partner": 2, "card": "AH"},
        {"seat": 1, "partner": 3},
        {"seat": 2, "partner": 0, "card": None},
        {"seat": 3, "partner": 1},
    ]
    assert all(
        "card" not in r for r in GAME.redact(events[-1], None).payload["reveals"]
    )
    assert GAME.view(state, 0)["reveal"] == {
        "partner": 2,
        "shown": "AH",
        "received": None,
    }
    assert GAME.view(state, None)["reveal"] is None
    assert state.phase == "play" and GAME.to_act(state) == (1,)


def test_no_reveal_with_two_players_or_when_switched_off():
    for players, options in [(2, {}), (4, {"partner_reveal": False})]:
        state, _ = deal({}, players=players, options=options)
        state, events = pass_all(state)
        assert not of_type(events, "partners_revealed")
        assert GAME.view(state, 0)["reveal"] is None
