"""The final-round queue event (docs/rules/alager.md §9 and §13).

``alager.konec_called`` names the seats owed a last turn; after each of those
turns that leaves someone still waiting, ``alager.final_queue_advanced`` names
the seats still owed one, in order. The last final turn ends the deal with no
empty-queue event, and a special hand that ends the deal during the final round
leaves no stale queue behind it.
"""

import random

import pytest

from rules.alager import events as ev
from rules.cards import deck52
from tests.rules.alager.helpers import GAME, Match, stack

PASS = {"type": "pass"}
KONEC = {"type": "konec"}
QUEUE = "final_queue_advanced"


def _queue_events(events):
    return [e for e in events if e.type == ev.FINAL_QUEUE_ADVANCED]


def _check_queue_event(m, new, queue):
    """``new`` ends with the queue event for ``queue``, and the state agrees."""
    event = new[-1]
    assert event.type == "alager.final_queue_advanced" and event.version == 1
    assert event.payload == {"queue": queue}
    assert m.state.phase == "final"
    assert m.state.final_queue == tuple(queue) and m.state.current == queue[0]
    assert m.view(None)["final_queue"] == queue
    # Public: every seat and the spectator see it whole.
    for seat in (*range(m.state.players), None):
        assert GAME.redact(event, seat) == event
    # Replay from the log equals the state built move by move.
    assert GAME.replay(m.events) == m.state


def test_the_event_type_is_registered():
    assert ev.FINAL_QUEUE_ADVANCED == "alager.final_queue_advanced"
    assert ev.FINAL_QUEUE_ADVANCED in ev.EVENT_TYPES
    i = ev.EVENT_TYPES.index(ev.FINAL_QUEUE_ADVANCED)
    assert ev.EVENT_TYPES[i - 1] == ev.KONEC_CALLED


def test_four_players_queue_after_each_final_turn_but_the_last():
    """Seat 1 knocks; seats 2, 3 and 0 play their last turns in that order."""
    m = Match(4, {"first_dealer": 3}, [deck52()])  # seat 0 is eldest
    m.act(0, PASS)
    new = m.act(1, KONEC)
    # The knock names the whole queue itself; no separate queue event.
    assert m.types(new) == ["konec_called"]
    assert new[0].payload == {
        "seat": 1,
        "final_queue": [2, 3, 0],
        "after_exchange": False,
    }
    assert m.state.final_queue == (2, 3, 0)

    new = m.act(2, PASS)
    assert m.types(new) == ["passed", QUEUE]
    _check_queue_event(m, new, [3, 0])

    new = m.act(3, {"type": "draw", "discard": m.state.hands[3][0]})
    assert m.types(new) == ["card_discarded", "card_drawn", QUEUE]
    _check_queue_event(m, new, [0])

    new = m.act(0, {"type": "swap", "give": "2C", "take": "AC"})
    assert m.types(new) == ["card_swapped", "deal_ended", "deal_started"]
    assert new[1].payload["reason"] == "konec" and new[1].payload["knocker"] == 1
    assert GAME.replay(m.events) == m.state
    # Over the whole deal: one queue event per final turn but the last.
    assert [e.payload["queue"] for e in _queue_events(m.events)] == [[3, 0], [0]]


def test_three_players_swap_all_in_the_final_round():
    m = Match(3, {"first_dealer": 2}, [deck52()])
    m.act(0, KONEC)
    new = m.act(1, {"type": "swap_all"})
    assert m.types(new) == ["hand_swapped", QUEUE]
    _check_queue_event(m, new, [2])
    new = m.act(2, PASS)
    assert m.types(new) == ["passed", "deal_ended", "deal_started"]
    assert len(_queue_events(m.events)) == 1


def test_two_players_never_see_a_queue_event():
    """With two players the only final turn is also the last."""
    m = Match(2, {"first_dealer": 1}, [deck52()])
    m.act(0, KONEC)
    new = m.act(1, PASS)
    assert m.types(new) == ["passed", "deal_ended", "deal_started"]
    assert _queue_events(m.events) == []


def test_konec_after_exchange():
    """The knock rides on an exchange: konec_called carries the queue, then as usual."""
    m = Match(4, {"first_dealer": 3, "konec_after_exchange": True}, [deck52()])
    new = m.act(0, {"type": "swap", "give": "2C", "take": "AC", "konec": True})
    assert m.types(new) == ["card_swapped", "konec_called"]
    assert new[1].payload == {
        "seat": 0,
        "final_queue": [1, 2, 3],
        "after_exchange": True,
    }

    new = m.act(1, {"type": "swap", "give": "5C", "take": "2D"})
    assert m.types(new) == ["card_swapped", QUEUE]
    _check_queue_event(m, new, [2, 3])

    new = m.act(2, PASS)
    assert m.types(new) == ["passed", QUEUE]
    _check_queue_event(m, new, [3])

    new = m.act(3, PASS)
    assert m.types(new) == ["passed", "deal_ended", "deal_started"]
    assert new[1].payload["knocker"] == 0
    assert GAME.replay(m.events) == m.state


def test_a_special_hand_in_the_final_round_ends_the_deal_with_no_queue_event():
    """D-7, D-13: an Alager completed in the final round ends the deal at once.

    Seat 2 knocks; seat 3 passes (queue event [0, 1]); seat 0 completes Q-K-A
    of hearts. The deal ends as a special end with no knocker, seat 1 loses its
    last turn, and no queue event follows the turn or the deal's end.
    """
    hands = {0: ["QH", "KH", "5C"], 1: ["9S", "8C", "2D"], 2: ["AS", "TS", "6S"]}
    deck = stack(4, 3, hands, table=["AH", "8S", "3C"])
    m = Match(4, {"first_dealer": 3}, [deck])
    m.act(0, PASS)
    m.act(1, PASS)
    m.act(2, KONEC)
    assert m.state.final_queue == (3, 0, 1)
    new = m.act(3, PASS)
    assert m.types(new) == ["passed", QUEUE]
    _check_queue_event(m, new, [0, 1])

    new = m.act(0, {"type": "swap", "give": "5C", "take": "AH"})
    assert m.types(new) == [
        "card_swapped",
        "special_announced",
        "deal_ended",
        "deal_started",
    ]
    result = new[2].payload
    assert result["reason"] == "special" and result["knocker"] is None
    assert result["specials"] == [{"seat": 0, "kind": "alager"}]
    assert m.state.phase == "normal" and m.state.final_queue == ()
    assert [e.payload["queue"] for e in _queue_events(m.events)] == [[0, 1]]
    assert GAME.replay(m.events) == m.state


def test_a_konec_flag_voided_by_an_alager_starts_no_final_round():
    hands = {0: ["QS", "KS", "2C"]}
    deck = stack(4, 3, hands, table=["AS", "3D", "4D"])
    m = Match(4, {"first_dealer": 3, "konec_after_exchange": True}, [deck])
    new = m.act(0, {"type": "swap", "give": "2C", "take": "AS", "konec": True})
    assert m.types(new)[:3] == ["card_swapped", "special_announced", "deal_ended"]
    assert _queue_events(m.events) == []


def test_a_final_draw_that_recycles_the_pile_is_followed_by_the_queue():
    """The queue event comes after all the turn's own events, a replenishment included.

    15 players (S0 = 4): seat 0 knocks, seats 1 to 4 empty the stock, seat 5's
    draw recycles the discard pile.
    """
    hands = {
        1: ["4C", "KS", "8C"],
        2: ["9H", "KH", "8D"],
        3: ["2S", "KD", "9C"],
        4: ["8H", "KC", "9D"],
        5: ["5D", "JC", "3H"],
    }
    deck = stack(
        15, 14, hands, table=["2D", "3D", "4D"], stock=["6S", "7S", "TS", "JS"]
    )
    m = Match(15, {"first_dealer": 14}, [deck])
    m.act(0, KONEC)
    for seat, card in [(1, "4C"), (2, "9H"), (3, "2S"), (4, "8H")]:
        new = m.act(seat, {"type": "draw", "discard": card})
        assert m.types(new) == ["card_discarded", "card_drawn", QUEUE]
        _check_queue_event(m, new, list(range(seat + 1, 15)))
    assert m.state.stock == ()
    new = m.act(5, {"type": "draw", "discard": "3H"})
    assert m.types(new) == ["card_discarded", "stock_replenished", "card_drawn", QUEUE]
    _check_queue_event(m, new, list(range(6, 15)))


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [
        (3, {}, 11),
        (4, {"konec_after_exchange": True, "hori_enabled": True}, 12),
        (5, {"deck": 32, "a1_discard_to": "stock_bottom"}, 13),
        (4, {"end_mode": "elimination", "penalty_limit": 2}, 14),
    ],
)
def test_random_matches_record_the_queue_after_every_final_turn(players, options, seed):
    """Seeded random matches: the event follows every final turn but the last, exactly."""
    rng = random.Random(seed)
    events = GAME.start(players=players, options=options, seed=seed)
    state = GAME.replay(events)
    finals = 0
    while to_act := GAME.to_act(state):
        seat = to_act[0]
        before = state
        legal = GAME.legal_actions(state, seat)
        # Knock more often than uniform play would, so final rounds are common.
        knocks = [a for a in legal if a["type"] == "konec" or a.get("konec")]
        action = rng.choice(knocks if knocks and rng.random() < 0.2 else legal)
        new = GAME.decide(state, seat, action)
        for event in new:
            state = GAME.evolve(state, event)
        events += new
        queued = [i for i, e in enumerate(new) if e.type == ev.FINAL_QUEUE_ADVANCED]
        if before.phase != "final":
            assert queued == []
            continue
        finals += 1
        ended = any(e.type == ev.DEAL_ENDED for e in new)
        if ended:
            assert queued == []
            continue
        # Not the last final turn and no special hand: exactly one, last.
        assert len(before.final_queue) > 1
        assert queued == [len(new) - 1]
        queue = list(before.final_queue[1:])
        assert new[-1].payload == {"queue": queue}
        assert state.final_queue == tuple(queue) and state.current == queue[0]
    assert finals > 0
    assert GAME.replay(events) == state
    assert GAME.verify(events)["ok"]
