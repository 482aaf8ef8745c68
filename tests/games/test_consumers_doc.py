"""The example sessions of docs/live-protocol.md say what the socket sends.

They are captured from a running server and presented as unedited, so every
frame they show must still be one the consumer can send: a ``state`` frame
has exactly the documented fields, its view has the keys the game's
``view`` gives, and its ``phase`` is one of the game's phases (``"over"``
once the match has ended, in every game: docs/rules-api.md).
"""

from __future__ import annotations

import json
import random
import typing
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

import rules
from rules.alager.state import PHASES as ALAGER_PHASES
from rules.alkort.state import Phase as AlkortPhase
from rules.allegra.state import Phase as AllegraPhase

DOC = Path(settings.BASE_DIR) / "docs" / "live-protocol.md"
PHASES = {
    "alager": set(ALAGER_PHASES),
    "alkort": set(typing.get_args(AlkortPhase)),
    "allegra": set(typing.get_args(AllegraPhase)),
}
STATE_FIELDS = {
    "type",
    "seq",
    "status",
    "seat",
    "full",
    "view",
    "legal_actions",
    "deadline",
    "events",
}


def _received() -> list[dict[str, Any]]:
    """Every frame the example sessions show the client receiving."""
    text = DOC.read_text(encoding="utf-8")
    sessions = text.split("## Example sessions", 1)[1]
    return [
        json.loads(line[2:]) for line in sessions.splitlines() if line.startswith("← ")
    ]


def _view_keys(name: str) -> set[str]:
    """The keys of ``name``'s view, in play and once the match is over."""
    game = rules.get_game(name)
    players = 2
    state = game.replay(game.start(players=players, seed=1))
    keys = set(game.view(state, 0))
    rng = random.Random(1)
    while game.outcome(state) is None:
        seat = rng.choice(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return keys | set(game.view(state, 0))


def test_the_doc_shows_a_session_of_every_game() -> None:
    games = {f["view"]["game"] for f in _received() if f["type"] == "state"}
    assert games == set(rules.GAMES)


@pytest.mark.parametrize("name", rules.GAMES)
def test_every_state_frame_of_the_sessions_is_one_the_server_sends(
    name: str,
) -> None:
    frames = [
        f
        for f in _received()
        if f["type"] == "state" and f["view"] and f["view"]["game"] == name
    ]
    assert frames
    keys = _view_keys(name)
    for frame in frames:
        assert set(frame) == STATE_FIELDS
        view = frame["view"]
        assert set(view) <= keys, set(view) - keys
        assert view["phase"] in PHASES[name], view["phase"]
        if frame["status"] == "finished":
            assert view["phase"] == "over"
            assert view["to_act"] == []
            assert view["outcome"] is not None
