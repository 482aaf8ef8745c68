"""``games.state_codec``: the hot path's JSON is the JSON the columns store."""

import json
import random

import pytest

import rules
from games.state_codec import json_text, json_value

PLAYERS = {"alager": 2, "alkort": 4, "allegra": 3}


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_json_text_of_a_state_is_its_json_over_a_whole_match(name: str) -> None:
    game = rules.get_game(name)
    rng = random.Random(f"codec-{name}")
    state = game.replay(game.start(players=PLAYERS[name], options={}, seed="codec"))
    checked = 0
    while (to_act := game.to_act(state)) and checked < 400:
        dumped = game.dump_state(state)
        assert json.loads(json_text(dumped)) == json.loads(json.dumps(dumped))
        seat = rng.choice(to_act)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        checked += 1
    assert game.load_state(json_value(json_text(game.dump_state(state)))) == state
    assert checked > 50


def test_json_text_is_the_json_of_anything_json_dumps_takes() -> None:
    # orjson refuses integers beyond 64 bits (a player may send one): the
    # stored JSON is still exact.
    big = {"type": "bid", "amount": 10**30, 7: "seven"}

    assert json.loads(json_text(big)) == {"type": "bid", "amount": 10**30, "7": "seven"}
    assert json_value(json_text(big))["amount"] == 10**30
    assert json_value('{"a": [1, 2.5, null]}') == {"a": [1, 2.5, None]}
    assert json_value({"already": "parsed"}) == {"already": "parsed"}
