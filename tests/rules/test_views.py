"""The fields every game's view has (docs/rules-api.md), with one meaning in every game."""

import random

import pytest

import rules

COMMON = {"game", "players", "options", "seat", "phase", "to_act", "outcome"}
PLAYERS = {"alager": 3, "alkort": 2, "allegra": 2}
SHORT = {
    "alager": {"penalty_limit": 1},
    "alkort": {"target": 1},
    "allegra": {"rounds": 1},
}


@pytest.mark.parametrize("name", rules.GAMES)
def test_every_view_has_the_common_fields_and_ends_over(name):
    game = rules.get_game(name)
    n = PLAYERS[name]
    events = game.start(n, options=SHORT[name], seed=f"views-{name}")
    state = game.replay(events)
    rng = random.Random(name)
    options = events[0].payload["options"]
    while True:
        for seat in [None, *range(n)]:
            view = game.view(state, seat)
            assert set(view) >= COMMON
            assert view["game"] == name and view["players"] == n
            assert view["seat"] == seat and view["options"] == options
            assert view["to_act"] == list(game.to_act(state))
            assert view["outcome"] == game.outcome(state)
            assert (view["phase"] == "over") == (view["to_act"] == [])
        if not game.to_act(state):
            break
        seat = rng.choice(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert game.view(state, None)["phase"] == "over"
    assert game.outcome(state) is not None
