"""Properties of every game on random action sequences (Hypothesis).

Hypothesis picks a match (game, player count, options, seed) and a sequence of
choices among the legal actions. Along the way:

- every legal action chosen is accepted and its events fold without error;
- every *mutation* of a legal action (another card, cell, seat or type; a key
  dropped or added) that ``legal_actions`` does not list is refused with an
  ``IllegalAction`` carrying a message, and the state is left as it was: the
  engine accepts exactly what it lists (lower-case cards and an explicit
  ``"konec": false`` aside, which name a listed action);
- a seat that may not act is refused with ``NotYourTurn``;
- replaying the events, also after a JSON round trip, gives the live state,
  and so does replaying any prefix of them give the state at that point.

The shared contract test plays whole matches; this one searches the space of
short sequences and of near-miss actions around them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.alkort.tables import DECK as ALKORT_DECK
from rules.cards import deck32, deck52
from rules.core import Event

CONFIGS = [
    ("alager", 3, {}),
    ("alager", 4, {"konec_after_exchange": True, "konec_min_round": 2, "deck": 32}),
    ("alager", 2, {"a1_discard_to": "stock_bottom", "max_turns_per_deal": 6}),
    ("alkort", 2, {}),
    ("alkort", 4, {}),
    ("alkort", 4, {"seven_rule": "player_has_trick", "lead_rule": "winner"}),
    ("allegra", 2, {}),
    ("allegra", 3, {"deck": "published", "triple_cards_to": "discard"}),
    ("allegra", 6, {"knock_min_players": 3}),
]
TYPES = {name: rules.get_game(name) for name in rules.GAMES}
ACTION_TYPES = [
    "draw", "swap", "swap_all", "pass", "konec", "exchange", "play", "reveal",
    "take_discard", "discard", "knock", "give", "place", "take", "put",
]  # fmt: skip
CARD_KEYS = ("discard", "give", "take", "keep", "card")
CELL_KEYS = ("cell", "flip")


def cards_of(name: str, options: dict[str, Any]) -> list[str]:
    if name == "alkort":
        return list(ALKORT_DECK)
    return deck32() if options.get("deck") == 32 else deck52()


def key(action: Any) -> str:
    """A listed action and the forms that name it compare equal."""
    if isinstance(action, dict) and action.get("konec") is False:
        action = {k: v for k, v in action.items() if k != "konec"}
    return json.dumps(action, sort_keys=True)


def mutations(
    name: str, players: int, options: dict[str, Any], action: dict[str, Any]
) -> st.SearchStrategy[dict[str, Any]]:
    """Near misses of ``action``: one field changed, dropped or added."""
    cells = st.fixed_dictionaries(
        {
            "seat": st.integers(0, players - 1),
            "row": st.integers(0, 2),
            "col": st.integers(0, 3),
        }
    )
    choices: list[st.SearchStrategy[dict[str, Any]]] = [
        st.sampled_from(ACTION_TYPES).map(lambda t: {**action, "type": t})
    ]
    for k, v in action.items():
        if k == "type":
            continue
        choices.append(st.just({x: y for x, y in action.items() if x != k}))
        if k in CARD_KEYS:
            cards = st.sampled_from(cards_of(name, options))
            choices.append(cards.map(lambda c, k=k: {**action, k: c}))
        elif k in CELL_KEYS:
            choices.append(cells.map(lambda c, k=k: {**action, k: c}))
        elif k == "to":
            seats = st.integers(0, players - 1)
            choices.append(seats.map(lambda s: {**action, "to": s}))
        elif k == "konec":
            choices.append(st.just({**action, "konec": not v}))
    if name == "alager":
        choices.append(st.just({**action, "konec": True}))
    if name == "allegra":
        for k in ("cell", "flip"):
            if k not in action:
                choices.append(cells.map(lambda c, k=k: {**action, k: c}))
        choices.append(st.integers(0, players - 1).map(lambda s: {**action, "to": s}))
    if name == "alkort":
        cards = st.sampled_from(cards_of(name, options))
        for k in ("card", "keep"):
            if k not in action:
                choices.append(cards.map(lambda c, k=k: {**action, k: c}))
    return st.one_of(choices)


def dump(game: Any, state: Any) -> str:
    return json.dumps(game.dump_state(state), sort_keys=True)


# Shrinking a failure replays many sequences; give it room on a busy machine.
@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("name", "players", "options"),
    CONFIGS,
    ids=[f"{n}-{p}p-{i}" for i, (n, p, _) in enumerate(CONFIGS)],
)
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), seed=st.integers(0, 10**6), steps=st.integers(1, 120))
def test_random_sequences_keep_the_contract(name, players, options, data, seed, steps):
    game = TYPES[name]
    events = game.start(players=players, options=options, seed=seed)
    state = game.replay(events)
    marks: list[tuple[int, Any]] = [(len(events), state)]
    for _ in range(steps):
        to_act = game.to_act(state)
        if not to_act:
            assert game.outcome(state) is not None
            break
        for idle in (s for s in range(players) if s not in to_act):
            assert game.legal_actions(state, idle) == []
            sample = game.legal_actions(state, to_act[0])[0]
            with pytest.raises(rules.NotYourTurn):
                game.decide(state, idle, sample)
        seat = data.draw(st.sampled_from(to_act), label="seat")
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act but may do nothing"
        listed = {key(a) for a in legal}
        action = data.draw(st.sampled_from(legal), label="action")
        for _ in range(3):
            near = data.draw(mutations(name, players, options, action), label="near")
            if key(near) in listed:
                continue
            before = dump(game, state)
            with pytest.raises(rules.IllegalAction) as info:
                game.decide(state, seat, near)
            assert str(info.value), f"{near!r} was refused without a message"
            assert dump(game, state) == before, f"refusing {near!r} changed the state"
        new = game.decide(state, seat, action)
        assert new, f"{action!r} produced no event"
        for event in new:
            state = game.evolve(state, event)
        events.extend(new)
        if data.draw(st.booleans(), label="mark"):
            marks.append((len(events), state))
    assert game.replay(events) == state
    stored = [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in events]
    assert game.replay(stored) == state
    for length, seen in marks:
        assert game.replay(events[:length]) == seen
