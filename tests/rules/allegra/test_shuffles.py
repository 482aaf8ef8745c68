"""Which shuffle each round's deal and each reshuffle uses (§5, §11, rules/dealing.py).

Round ``k`` (1-based) is deal ``j = k − 1`` of the match and uses the shuffle
key ``j``; the ``m``-th reshuffle of the match uses ``"r<m>"``.
"""

from __future__ import annotations

import random

import pytest

from rules import dealing
from rules.allegra import GAME
from rules.core import Event
from tests.rules.old_chance import OldChance

DEALT = "allegra.round_dealt"
RESHUFFLED = "allegra.deck_reshuffled"
#: 26 cards for 2 players: 1 discard and 1 card to draw, so reshuffles are frequent.
SMALL = {
    "deck_composition": [v for v in range(1, 14) for _ in range(2)],
    "max_turns_per_round": 40,
    "rounds": 3,
}


def play(events: list[Event], seed: str, until_rounds: int | None = None):
    """Random legal moves until the match ends (or ``until_rounds`` have been dealt)."""
    rng = random.Random(seed)
    state = GAME.replay(events)
    while to_act := GAME.to_act(state):
        dealt = sum(e.type == DEALT for e in events)
        if until_rounds is not None and dealt >= until_rounds:
            break
        seat = to_act[0]
        new = GAME.decide(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        for event in new:
            state = GAME.evolve(state, event)
        events = events + new
    return events, state


def of(events: list[Event], event_type: str) -> list[dict]:
    return [e.payload for e in events if e.type == event_type]


def test_rounds_use_their_deal_number_and_reshuffles_their_own_keys():
    events, _ = play(GAME.start(2, options=SMALL, seed="rounds"), "moves")
    standard = GAME.standard_deck(GAME.validate_options(SMALL))
    deals = of(events, DEALT)
    assert [d["shuffle"] for d in deals] == [0, 1, 2]
    for j, dealt in enumerate(deals):
        assert dealt["deck"] == dealing.shuffle(standard, "rounds", j)
    reshuffles = of(events, RESHUFFLED)
    assert len(reshuffles) >= 3
    assert [r["shuffle"] for r in reshuffles] == [
        f"r{m}" for m in range(len(reshuffles))
    ]
    for r in reshuffles:
        assert r["deck"] == dealing.shuffle(r["shuffled_from"], "rounds", r["shuffle"])
    # Reshuffles happened in round 1, and round 2 still uses shuffle 1.
    types = [e.type for e in events]
    assert RESHUFFLED in types[: [i for i, t in enumerate(types) if t == DEALT][1]]
    assert GAME.verify(events) == {
        "ok": True,
        "checked": 3 + len(reshuffles),
        "problems": [],
    }


def test_a_given_deck_counts_as_deal_0():
    deck = sorted(SMALL["deck_composition"], reverse=True)
    events, _ = play(GAME.start(2, options=SMALL, seed="given", deck=deck), "m")
    assert [d["shuffle"] for d in of(events, DEALT)] == [None, 1, 2]
    report = GAME.verify(events)
    assert report["problems"] == ["Event 2 dealt a given deck, not a shuffle"]


def record_the_old_way(monkeypatch: pytest.MonkeyPatch, until_rounds=None):
    """Events as the earlier engine recorded them: one counter for deals and
    reshuffles, a reshuffle's ``shuffle`` an int."""
    monkeypatch.setattr("rules.allegra.evolve.Chance", OldChance)
    events, _ = play(GAME.start(2, options=SMALL, seed="old"), "moves", until_rounds)
    monkeypatch.undo()
    return events


def test_a_match_recorded_the_old_way_replays_and_verifies(monkeypatch):
    events = record_the_old_way(monkeypatch)
    reshuffles = of(events, RESHUFFLED)
    assert reshuffles and all(type(r["shuffle"]) is int for r in reshuffles)
    assert of(events, DEALT)[1]["shuffle"] > 1  # the old numbering
    state = GAME.replay(events)
    assert state.phase == "over" and state.chance.legacy is not None
    assert GAME.outcome(state) == events[-1].payload["outcome"]
    report = GAME.verify(events)
    assert report == {"ok": True, "checked": 3 + len(reshuffles), "problems": []}


def test_a_match_recorded_the_old_way_goes_on_with_its_counter(monkeypatch):
    events = record_the_old_way(monkeypatch, until_rounds=2)
    assert GAME.replay(events).chance.legacy is not None
    events, state = play(events, "more moves")
    assert state.phase == "over"
    keys = [e.payload["shuffle"] for e in events if "shuffle" in e.payload]
    assert keys == list(range(len(keys)))  # the one old counter, never reused
    assert GAME.verify(events)["ok"]
