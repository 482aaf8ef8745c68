"""A golden playthrough: a seeded match and its full event list, checked in.

Any change to dealing, the rules or the event payloads shows up here as a
diff. Regenerate deliberately with ``UPDATE_GOLDEN=1``.
"""

import json
import os
import random
from pathlib import Path

from rules.allegra import GAME
from rules.core import Event

GOLDEN = Path(__file__).parent / "golden"


def playthrough(players, options, seed):
    """Play by choosing an action type uniformly, then an action of that type.

    Grouping by type makes draws, knocks and gifts common enough to appear in
    a short match (uniform over actions would nearly always take the discard).
    """
    rng = random.Random(seed)
    events = GAME.start(players, options=options, seed=seed)
    state = GAME.replay(events)
    while to_act := GAME.to_act(state):
        seat = to_act[0]
        legal = GAME.legal_actions(state, seat)
        kinds = sorted({a["type"] for a in legal})
        kind = rng.choice(kinds)
        action = rng.choice([a for a in legal if a["type"] == kind])
        state, new = GAME.apply(state, seat, action)
        events.extend(new)
    return events


def check_golden(name, events):
    path = GOLDEN / f"{name}.json"
    data = [e.to_json() for e in events]
    if os.environ.get("UPDATE_GOLDEN") == "1":
        lines = ",\n".join(json.dumps(e, separators=(",", ":")) for e in data)
        path.write_text(f"[\n{lines}\n]\n")  # one event per line: readable diffs
    expected = json.loads(path.read_text())
    assert data == expected


def test_golden_three_players_published_deck():
    """Three players, the published deck, two rounds: a full seeded match."""
    events = playthrough(3, {"deck": "published", "rounds": 2}, "golden-allegra-1")
    kinds = {e.type for e in events}
    assert {"allegra.knock_hole_filled", "allegra.triples_removed"} <= kinds
    check_golden("three_players_published", events)
    assert GAME.verify(events)["ok"]
    stored = json.loads((GOLDEN / "three_players_published.json").read_text())
    state = GAME.replay([Event.from_json(e) for e in stored])
    assert GAME.outcome(state) == events[-1].payload["outcome"]
