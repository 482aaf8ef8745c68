"""The shared records helpers: the fast copy equals dataclasses.replace; options round-trip."""

import dataclasses

import pytest

import rules
from rules.alager.state import replace_state as alager_replace
from rules.allegra.state import replace_knock
from rules.allegra.state import replace_state as allegra_replace
from rules.records import replacer


@pytest.mark.parametrize(
    ("name", "copy", "changes"),
    [
        ("alager", alager_replace, {"current": 2, "pass_streak": 1, "table": ("AS",)}),
        ("allegra", allegra_replace, {"phase": "over", "drawn": 5, "turn": 9}),
    ],
)
def test_the_fast_copy_equals_dataclasses_replace(name, copy, changes):
    game = rules.get_game(name)
    state = game.replay(game.start(3, seed=1))
    assert copy(state, **changes) == dataclasses.replace(state, **changes)
    assert copy(state) == state and copy(state) is not state
    with pytest.raises(TypeError):
        copy(state, no_such_field=1)


def test_every_record_class_gets_its_own_copy():
    from rules.allegra.state import Knock

    knock = Knock(eligible=(1, 2), pending=(1, 2))
    assert replace_knock(knock, pending=(2,)) == Knock((1, 2), (2,))
    assert replacer(Knock)(knock, knockers=(1,)).knockers == (1,)


@pytest.mark.parametrize("name", rules.GAMES)
def test_options_round_trip_through_the_rules_record(name):
    game = rules.get_game(name)
    start = game.start(2 if name != "alager" else 3, seed=1)
    options = start[0].payload["options"]
    state = game.replay(start)
    record = state.rules
    assert record.to_options() == options
    assert type(record).from_options(options) == record


def test_list_options_become_tuples_and_back():
    game = rules.get_game("allegra")
    deck = [v for v in range(1, 6) for _ in range(6)]
    state = game.replay(game.start(2, options={"deck_composition": deck}, seed=1))
    assert state.rules.deck_composition == tuple(deck)
    assert state.rules.to_options()["deck_composition"] == deck
