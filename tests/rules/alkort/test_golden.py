"""Golden playthroughs: seeded matches, every event compared with a checked-in file.

Any change to dealing, rules or event payloads shows up here. After an
intended change, regenerate with ``UPDATE_GOLDEN=1`` and review the diff.
"""

import json
import os
import random
from pathlib import Path

import pytest

from rules.core import Event
from tests.rules.alkort.helpers import GAME

GOLDEN = Path(__file__).parent / "golden"

# Seeds chosen so that each match includes a stock exchange.
MATCHES = {
    "four_players": (4, "golden-4p-13", {"target": 5}),
    "two_players": (2, "golden-2p-23", {"target": 5}),
}


def play(players: int, seed: str, options: dict) -> list[Event]:
    """Random legal play driven by ``random.Random(seed)``."""
    rng = random.Random(seed)
    events = GAME.start(players, options, seed=seed)
    state = GAME.replay(events)
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state, new = GAME.apply(
            state, seat, rng.choice(GAME.legal_actions(state, seat))
        )
        events.extend(new)
    return events


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_golden_playthrough(name):
    players, seed, options = MATCHES[name]
    events = [e.to_json() for e in play(players, seed, options)]
    path = GOLDEN / f"{name}.json"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        lines = ",\n".join(json.dumps(e, separators=(",", ":")) for e in events)
        path.write_text(f"[\n{lines}\n]\n")  # one event per line: readable diffs
    expected = json.loads(path.read_text())
    assert events == expected
    assert "alkort.stock_exchanged" in {e["type"] for e in expected}
    replayed = GAME.replay([Event.from_json(e) for e in expected])
    assert GAME.verify([Event.from_json(e) for e in expected])["ok"]
    assert GAME.outcome(replayed) == expected[-1]["payload"]["outcome"]
