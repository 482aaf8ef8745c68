"""Golden playthroughs: seeded matches whose full event lists are checked in.

A change that alters any event of these matches (a payload key, an order, a
shuffle) fails here. If the change is intended, regenerate on purpose with
``UPDATE_GOLDEN=1 pytest tests/rules/alager/test_golden.py`` and review the diff.
"""

import json
import os
import random
from pathlib import Path

import pytest

from rules.core import Event
from tests.rules.alager.helpers import GAME

GOLDEN = Path(__file__).parent / "golden"

CASES = {
    "alager-3p-default": {
        "players": 3,
        "options": {"penalty_limit": 3},
        "seed": "golden-1",
    },
    "alager-4p-deck32-variants": {
        "players": 4,
        "options": {
            "deck": 32,
            "hori_enabled": True,
            "konec_after_exchange": True,
            "replenish_shuffle": True,
            "dealer_rule": "loser_deals",
            "penalty_limit": 2,
        },
        "seed": "golden-2",
    },
}


def play(players, options, seed):
    """A seeded random match: the (seat, action) list and every event."""
    rng = random.Random(seed)
    events = GAME.start(players=players, options=options, seed=seed)
    state = GAME.replay(events)
    actions = []
    while to_act := GAME.to_act(state):
        seat = to_act[0]
        action = rng.choice(GAME.legal_actions(state, seat))
        actions.append([seat, action])
        new = GAME.decide(state, seat, action)
        for event in new:
            state = GAME.evolve(state, event)
        events += new
    return actions, events


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    case = CASES[name]
    actions, events = play(case["players"], case["options"], case["seed"])
    record = {**case, "actions": actions, "events": [e.to_json() for e in events]}
    path = GOLDEN / f"{name}.json"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    golden = json.loads(path.read_text())
    assert record["actions"] == golden["actions"]
    for i, (got, want) in enumerate(
        zip(record["events"], golden["events"], strict=True)
    ):
        assert got == want, f"event {i} differs"
    # The checked-in events replay to the same final state, with no RNG.
    state = GAME.replay([Event.from_json(e) for e in golden["events"]])
    assert GAME.outcome(state) == golden["events"][-1]["payload"]["outcome"]
