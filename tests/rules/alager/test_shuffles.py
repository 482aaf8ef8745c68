"""Which shuffle each deal and reshuffle uses (§5, rules/dealing.py).

Deal ``j`` of a match (from 0, every deal counted, given decks included) is
``dealing.shuffle(standard, seed, j)``; the ``m``-th ``replenish_shuffle``
reshuffle has the key ``"r<m>"``, a byte stream no deal ever reads.
"""

from __future__ import annotations

import json

import pytest

from rules import dealing
from rules.cards import deck52
from tests.rules.alager.helpers import GAME, Match
from tests.rules.old_chance import OldChance

DEALT = "alager.deal_started"
REPLENISHED = "alager.stock_replenished"
DRAWING = {
    "replenish_shuffle": True,
    "end_mode": "fixed_deals",
    "num_deals": 4,
    "max_turns_per_deal": 60,
}


def play_drawing(m: Match, until_deals: int | None = None) -> Match:
    """Every turn draws (so the stock runs out and is replenished) until the
    match ends, or until ``until_deals`` deals have started."""
    while m.state.phase != "over":
        if until_deals is not None and len(of(m, DEALT)) >= until_deals:
            break
        seat = GAME.to_act(m.state)[0]
        legal = GAME.legal_actions(m.state, seat)
        draws = [a for a in legal if a["type"] == "draw"]
        m.act(seat, draws[0] if draws else legal[0])
    return m


def of(m: Match, event_type: str) -> list[dict]:
    return [e.payload for e in m.events if e.type == event_type]


def test_deal_j_uses_shuffle_j_after_reshuffles():
    m = play_drawing(Match(2, DRAWING, seed="deal-j"))
    standard = GAME.standard_deck(DRAWING)
    deals = of(m, DEALT)
    assert [d["shuffle"] for d in deals] == [0, 1, 2, 3]
    for j, dealt in enumerate(deals):
        assert dealt["deck"] == dealing.shuffle(standard, "deal-j", j)
    # The stock ran out (and was reshuffled) before the second deal: the case
    # that used to push deal 2 to shuffle 2.
    types = [e.type for e in m.events]
    first_deal_2 = [i for i, t in enumerate(types) if t == DEALT][1]
    assert REPLENISHED in types[:first_deal_2]
    reshuffles = of(m, REPLENISHED)
    assert len(reshuffles) >= 4
    assert [r["shuffle"] for r in reshuffles] == [
        f"r{i}" for i in range(len(reshuffles))
    ]
    for r in reshuffles:
        assert r["deck"] == dealing.shuffle(r["shuffled_from"], "deal-j", r["shuffle"])
    report = GAME.verify(m.events)
    assert report == {
        "ok": True,
        "checked": len(deals) + len(reshuffles),
        "problems": [],
    }


def test_reshuffle_keys_never_share_a_deals_byte_stream():
    m = play_drawing(Match(2, DRAWING, seed="streams"))
    keys = [e.payload["shuffle"] for e in m.events if "shuffle" in e.payload]
    texts = [dealing.shuffle_key_text(k) for k in keys]
    assert len(set(texts)) == len(texts)
    deal_keys = {t for t, k in zip(texts, keys, strict=True) if isinstance(k, int)}
    reshuffle_keys = {t for t, k in zip(texts, keys, strict=True) if isinstance(k, str)}
    assert deal_keys and reshuffle_keys and not deal_keys & reshuffle_keys
    # The SHA-256 inputs themselves differ: "s:0:c" is never "s:r0:c".
    assert all(t.startswith("r") for t in reshuffle_keys)
    assert all(t.isdigit() for t in deal_keys)


def test_after_a_given_deck_the_next_deal_is_shuffle_1():
    m = Match(3, {}, [deck52()], seed="given-first")
    m.quick_deals(2)
    deals = of(m, DEALT)
    assert [d["shuffle"] for d in deals] == [None, 1, 2]
    standard = GAME.standard_deck({})
    assert deals[1]["deck"] == dealing.shuffle(standard, "given-first", 1)
    assert deals[2]["deck"] == dealing.shuffle(standard, "given-first", 2)
    assert GAME.verify(m.events, seed="given-first") == {
        "ok": False,
        "checked": 2,
        "problems": ["Event 2 dealt a given deck, not a shuffle"],
    }


def test_given_decks_then_reshuffles_then_seeded_deals():
    m = play_drawing(Match(2, DRAWING, [deck52(), deck52()], seed="mixed"))
    assert [d["shuffle"] for d in of(m, DEALT)] == [None, None, 2, 3]
    reshuffles = of(m, REPLENISHED)
    assert [r["shuffle"] for r in reshuffles] == [
        f"r{i}" for i in range(len(reshuffles))
    ]
    given = [i + 1 for i, e in enumerate(m.events) if e.type == DEALT][:2]
    report = GAME.verify(m.events, seed="mixed")
    assert report["checked"] == 2 + len(reshuffles)
    assert report["problems"] == [
        f"Event {n} dealt a given deck, not a shuffle" for n in given
    ]


def test_verify_refuses_a_shuffle_key_used_twice():
    m = Match(2, {}, None, seed="twice")
    m.quick_deals(2)
    events = list(m.events)
    first, second = [i for i, e in enumerate(events) if e.type == DEALT][:2]
    # A dishonest dealer repeats the first deal's stream for the second deal.
    events[second] = events[second].with_payload(
        shuffle=0, deck=events[first].payload["deck"]
    )
    report = GAME.verify(events, seed="twice")
    assert report["problems"] == [
        f"Event {second + 1} (alager.deal_started) reuses shuffle 0 of event "
        f"{first + 1}"
    ]


def test_verify_reports_a_bad_shuffle_key():
    m = Match(2, {}, None, seed="bad-key")
    m.quick_deals(1)
    events = list(m.events)
    events[1] = events[1].with_payload(shuffle=True)
    report = GAME.verify(events, seed="bad-key")
    assert report["problems"] == [
        "Event 2 (alager.deal_started) has a bad shuffle True"
    ]


def record_the_old_way(
    monkeypatch: pytest.MonkeyPatch, until_deals: int | None = None
) -> Match:
    """A match recorded by the earlier engine (one counter for seeded deals
    and reshuffles, a reshuffle's ``shuffle`` an int), played to the end or
    until ``until_deals`` deals have started."""
    monkeypatch.setattr("rules.alager.evolve.Chance", OldChance)
    m = play_drawing(Match(2, DRAWING, seed="old-way"), until_deals=until_deals)
    monkeypatch.undo()
    return m


def test_a_match_recorded_the_old_way_replays_and_verifies(monkeypatch):
    old = record_the_old_way(monkeypatch)
    reshuffles = of(old, REPLENISHED)
    assert reshuffles and all(type(r["shuffle"]) is int for r in reshuffles)
    assert of(old, DEALT)[1]["shuffle"] > 1  # the old numbering
    state = GAME.replay(old.events)
    assert state.phase == "over" and state.chance.legacy is not None
    assert GAME.outcome(state) == GAME.outcome(old.state)
    report = GAME.verify(old.events)
    assert report["ok"] and report["checked"] == 4 + len(reshuffles)


def test_a_match_recorded_the_old_way_goes_on_with_its_counter(monkeypatch):
    """Replayed mid-match by the new engine, it keeps the old numbering, so a
    later deal never reuses the stream of an earlier reshuffle or deal."""
    old = record_the_old_way(monkeypatch, until_deals=2)
    assert any(type(r["shuffle"]) is int for r in of(old, REPLENISHED))
    m = Match(2, DRAWING, seed="unused")
    m.events = list(old.events)
    m.state = GAME.replay(m.events)
    assert m.state.chance.legacy is not None
    cached = json.loads(json.dumps(GAME.dump_state(m.state)))
    assert GAME.load_state(cached) == m.state  # the state cache keeps the counter
    play_drawing(m)
    keys = [e.payload["shuffle"] for e in m.events if "shuffle" in e.payload]
    assert all(type(k) is int for k in keys)
    assert keys == list(range(len(keys)))  # the one old counter, never reused
    report = GAME.verify(m.events)
    assert report["ok"], report
