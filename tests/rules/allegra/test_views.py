"""What each seat sees, and the module examples."""

import doctest
import json

import pytest

from rules.allegra import GAME, geometry, options, rounds

from .helpers import cell, play, position


@pytest.mark.parametrize("module", [geometry, options, rounds])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_a_fresh_deal_shows_only_face_down_cards_and_the_first_discard():
    events = GAME.start(3, seed="views")
    state = GAME.replay(events)
    view = GAME.view(state, None)
    assert view["seat"] is None and view["game"] == "allegra"
    assert view["phase"] == "initial_reveal" and view["to_act"] == [0]
    assert view["grids"] == [[["down"] * 4] * 3] * 3
    assert view["discard_pile"] == [events[1].payload["discard"]]
    assert view["draw_pile"] == 110 - 37 and view["drawn"] is None
    assert view["reveals_left"] == 2 and view["knock"] is None
    assert view["scores"] == [0, 0, 0] and view["outcome"] is None
    blob = json.dumps([view, [GAME.redact(e, 0).to_json() for e in events]])
    assert "views" not in blob  # the seed
    assert GAME.redact(events[1], 0).payload == {
        "round": 1,
        "start_seat": 0,
        "shuffle": 0,
        "discard": events[1].payload["discard"],
        "draw_pile": 73,
    }


def test_the_drawn_card_and_the_exchange_are_shown():
    state = position(
        3, grids={0: "3 4 5 6 \n (1) (2) (3) (4) \n 7 8 9 10"}, draw=(7, 5)
    )
    state, _ = play(state, (0, {"type": "draw"}))
    view = GAME.view(state, 1)
    assert view["drawn"] == 7 and view["phase"] == "knock_window"
    assert view["grids"][0][0] == [3, 4, 5, 6]
    assert view["grids"][0][1] == ["down"] * 4
    state, _ = play(state, (1, {"type": "knock"}), (2, {"type": "pass"}))
    assert GAME.view(state, 0)["knock"]["knockers"] == [1]
    assert GAME.view(state, 2)["knock"]["your_answer"] == "pass"
    state, _ = play(
        state,
        (0, {"type": "give", "to": 1}),
        (1, {"type": "place", "cell": cell(1, 0, 0)}),
        (0, {"type": "take", "cell": cell(1, 1, 0)}),
    )
    view = GAME.view(state, 2)
    assert view["phase"] == "drawer_place" and view["to_act"] == [0]
    assert view["grids"][1][0][0] == 7 and view["grids"][1][1][0] is None
    knock = view["knock"]
    assert knock["knocker"] == 1 and knock["k1"] == cell(1, 0, 0)
    assert knock["k2"] == cell(1, 1, 0) and knock["taken"] == 0
    assert knock["hand"] is None and knock["hand_hidden"] is True
    assert GAME.view(state, 1)["knock"]["hand"] == 0


def test_the_end_of_a_match_reveals_the_seed_and_the_outcome():
    state = GAME.replay(GAME.start(2, options={"rounds": 1}, seed="end"))
    events = []
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state, new = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        events.extend(new)
    view = GAME.view(state, 0)
    assert view["phase"] == "over" and view["to_act"] == []
    assert view["outcome"] == events[-1].payload["outcome"]
    assert view["outcome"]["scores"] == view["scores"]
    assert len(view["round_results"]) == 1
    assert GAME.redact(events[-1], 1).payload["seed"] == "end"
