"""What each seat sees (docs/rules/alkort.md B11), and the package's docstring examples."""

import doctest
import importlib

import pytest

from tests.rules.alkort.helpers import GAME, deck_for, pass_all, play_cards
from tests.rules.alkort.test_illegal import HANDS


@pytest.mark.parametrize(
    "module", ["__init__", "tables", "tricks", "scoring"], ids=lambda m: m
)
def test_doctests(module):
    name = "rules.alkort" if module == "__init__" else f"rules.alkort.{module}"
    assert doctest.testmod(importlib.import_module(name)).failed == 0


def test_view_mid_trick():
    """Seat 0's view after trick 1 and the first card of trick 2, in full."""
    events = GAME.start(4, seed="view", deck=deck_for(4, 0, HANDS))
    state, _ = pass_all(GAME.replay(events))
    state, _ = play_cards(state, ["3H", "3C", "KD", "2C", "9S"])
    assert GAME.view(state, 0) == {
        "game": "alkort",
        "players": 4,
        "options": GAME.default_options(),
        "seat": 0,
        "phase": "play",
        "to_act": [3],
        "outcome": None,
        "seed_sha256": events[0].payload["seed_sha256"],
        "sides": [[0, 2], [1, 3]],
        "scores": [0, 0],
        "seat_scores": [0, 0, 0, 0],
        "target": 10,
        "results": [],
        "deal": 1,
        "dealer": 0,
        "forehand": 1,
        "hand": ["9C", "QC", "QD", "2S", "3S", "7S", "JS", "AS"],
        "hand_sizes": [8, 8, 7, 8],
        "exchange": {"passed": [1, 2, 3, 0], "exchanger": None, "shown": None},
        "partner_reveal": True,
        "reveal": {"partner": 2, "shown": "AS", "received": None},  # KH is rubbish
        "leader": 2,
        "trick": [{"seat": 2, "card": "9S"}],
        "winning": 2,
        "tricks": [{"leader": 1, "cards": ["3H", "3C", "KD", "2C"], "winner": 3}],
        "tricks_won": {"sides": [0, 1], "seats": [0, 0, 0, 1]},
        "has_won": [False, False, False, True],
    }


def test_hands_are_private():
    events = GAME.start(4, seed="view", deck=deck_for(4, 0, HANDS))
    state = GAME.replay(events)
    for seat in range(4):
        assert GAME.view(state, seat)["hand"] == sorted(
            HANDS[seat],
            key=lambda c: "CDHS".index(c[1]) * 20 + "2346789JQKA".index(c[0]),
        )
        dealt = GAME.redact(events[1], seat).payload
        assert set(dealt) == {"deal", "dealer", "forehand", "hands", "shuffle"}
        assert [h is not None for h in dealt["hands"]] == [s == seat for s in range(4)]
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None and spectator["seat"] is None
    assert GAME.redact(events[1], None).payload["hands"] == [None] * 4
    assert "seed" not in GAME.redact(events[0], 0).payload
