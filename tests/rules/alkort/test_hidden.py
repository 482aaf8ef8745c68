"""resample_unseen gives real alternatives: different hidden cards, every rule
obeyed, and what the seat legitimately knows (B5 reveal, forced sevens) kept."""

import random

import pytest

from rules.alkort import events as ev
from rules.alkort.knowledge import deal_events, knowledge_from, sample
from rules.alkort.tables import SEVENS, reveal_forbidden
from tests.rules.alkort.helpers import GAME, pass_all, play_cards, script_deal


def assert_valid(events):
    """Re-decide every action of a history: each is legal and has the same effects.

    Deals after the first come from the seed, so a renamed history's later deals
    are taken from the history itself rather than compared.
    """
    state = GAME.replay(events[:2])
    i = 2
    while i < len(events):
        e = events[i]
        seat = e.payload.get("seat")
        if e.type == ev.EXCHANGE_PASSED:
            action = {"type": "pass"}
        elif e.type == ev.STOCK_EXCHANGED:
            action = {"type": "exchange", "keep": e.payload["keep"]}
        else:
            assert e.type == ev.CARD_PLAYED, e.type
            action = {"type": "play", "card": e.payload["card"]}
        new = GAME.decide(state, seat, action)
        theirs = events[i : i + len(new)]
        for mine, other in zip(new, theirs, strict=True):
            if mine.type == ev.CARDS_DEALT:
                assert other.type == ev.CARDS_DEALT
            else:
                assert mine == other
            state = GAME.evolve(state, other)
        i += len(new)


def random_history(players, options, seed, steps):
    rng = random.Random(seed)
    events = GAME.start(players, options, seed=f"contract-seed-alkort-{seed}-0-z9q")
    state = GAME.replay(events)
    for _ in range(steps):
        if not GAME.to_act(state):
            break
        seat = GAME.to_act(state)[0]
        state, new = GAME.apply(
            state, seat, rng.choice(GAME.legal_actions(state, seat))
        )
        events.extend(new)
    return events


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(4, 86, {}), (4, 1, {}), (2, 9, {}), (2, 3, {"seven_rule": "player_has_trick"})],
)
def test_alternatives_are_valid_and_different(players, seed, options):
    rng = random.Random(0)
    for steps in (1, 7, 23, 60, 150):
        events = random_history(players, options, seed, steps)
        for seat in [None, *range(players)]:
            changed = 0
            for _ in range(3):
                alt = GAME.resample_unseen(events, seat, rng)
                assert_valid(alt)
                changed += alt != events
            assert changed, f"seat {seat} after {steps} steps: nothing was resampled"


def test_exchanger_kept_card_may_move_for_the_others():
    """Seed 86: seat 2 exchanges in deal 1; others do not know the kept card."""
    events = random_history(4, {}, 86, 8)
    (exchange,) = [e for e in events if e.type == ev.STOCK_EXCHANGED]
    assert exchange.payload["seat"] == 2

    def kept(seat, i):
        alt = GAME.resample_unseen(events, seat, random.Random(i))
        (e,) = [e for e in alt if e.type == ev.STOCK_EXCHANGED]
        return e.payload["keep"]

    assert len({kept(0, i) for i in range(40)}) > 1
    assert {kept(2, i) for i in range(10)} == {exchange.payload["keep"]}


def test_a_forced_seven_lead_shows_the_rest_of_the_hand_is_sevens():
    """2p: seat 1 has won nothing and leads 7C at trick 7, so it holds only sevens."""
    tricks = [0] * 6 + [{1: "7C", 0: "QS"}, {0: "QC", 1: "7D"}, {1: "7H", 0: "QD"}]
    deck, orders = script_deal(2, 0, tricks)
    events = GAME.start(2, seed=1, deck=deck)
    state, new = pass_all(GAME.replay(events))
    events.extend(new)
    for order in orders[:7]:
        state, new = play_cards(state, order)
        events.extend(new)
    assert state.hands[1] == ("7D", "7H") and "7S" not in state.hands[0]
    k = knowledge_from([GAME.redact(e, 0) for e in deal_events(events)], 0, 2, "led")
    assert k.sevens_only == {1}
    held = [set(sample(k, random.Random(i)).hands[1]) for i in range(60)]
    assert all(h <= SEVENS and len(h) == 2 for h in held)
    assert any("7S" in h for h in held)
    for i in range(10):
        assert_valid(GAME.resample_unseen(events, 0, random.Random(i)))


def test_the_partner_reveal_bounds_the_partner_hand():
    events = random_history(4, {}, 5, 6)
    state = GAME.replay(events)
    shown = state.deal.reveals[2]  # what seat 2 showed its partner, seat 0
    k = knowledge_from([GAME.redact(e, 0) for e in deal_events(events)], 0, 4, "led")
    assert k.has_reveal and k.received == shown
    banned = reveal_forbidden(shown)
    for i in range(50):
        hand = sample(k, random.Random(i)).hands[2]
        assert banned.isdisjoint(hand) and (shown is None or shown in hand)
