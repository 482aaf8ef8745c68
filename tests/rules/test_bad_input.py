"""Any JSON a client sends as an action is either accepted or refused cleanly.

A move arrives from the network as arbitrary JSON. Whatever its shape, every
game must answer with events or an ``IllegalAction`` carrying a message —
never a ``TypeError`` or ``KeyError`` that the service would have to turn into
a 500.
"""

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.text(max_size=4)
    | st.sampled_from(["QS", "7h", "TC", "10d", "AS"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["seat", "row", "col", "x"]), inner, max_size=3
        )
    ),
    max_leaves=8,
)
KEYS = [
    "type",
    "discard",
    "give",
    "take",
    "keep",
    "card",
    "cell",
    "flip",
    "to",
    "konec",
]
TYPES = [
    "draw", "swap", "swap_all", "pass", "konec", "exchange", "play", "reveal",
    "take_discard", "discard", "knock", "give", "place", "take", "put",
]  # fmt: skip
actions = st.one_of(
    json_values,
    st.dictionaries(
        st.sampled_from(KEYS),
        st.one_of(st.sampled_from(TYPES), json_values),
        max_size=4,
    ),
)


@functools.cache
def positions(name):
    """A few positions of a seeded random match: the start and later steps."""
    game = rules.get_game(name)
    rng = random.Random(name)
    state = game.replay(game.start(players=3 if name != "alkort" else 2, seed=5))
    found = [state]
    for step in range(60):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = rng.choice(to_act)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if step % 15 == 14:
            found.append(state)
    return game, found


@pytest.mark.parametrize("name", rules.GAMES)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(action=actions, pick=st.integers(0, 10))
def test_any_json_action_is_accepted_or_refused_with_a_message(name, action, pick):
    game, found = positions(name)
    state = found[pick % len(found)]
    for seat in game.to_act(state):
        try:
            events = game.decide(state, seat, action)
        except rules.IllegalAction as exc:
            assert str(exc), "a refusal must say why"
        else:  # accepted (e.g. a lower-case card): it must fold cleanly
            assert events
            for event in events:
                state = game.evolve(state, event)


@pytest.mark.parametrize("name", rules.GAMES)
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"deck": 5}, "A given deck is a list of cards, or a list of decks"),
        ({"deck": "AS KS"}, "A given deck is a list of cards, or a list of decks"),
        ({"seed": 1.5}, "A seed is an integer or a string"),
        ({"seed": [1]}, "A seed is an integer or a string"),
        ({"seed": True}, "A seed is an integer or a string"),
    ],
)
def test_a_bad_seed_or_deck_is_refused_as_invalid_options(name, kwargs, message):
    """``start`` refuses every bad input with InvalidOptions, never a TypeError."""
    game = rules.get_game(name)
    with pytest.raises(rules.InvalidOptions) as info:
        game.start(players=2, **kwargs)
    assert str(info.value) == message


@pytest.mark.parametrize("name", rules.GAMES)
def test_unknown_option_names_of_mixed_types_are_refused_by_name(name):
    """Options from Python may carry non-string keys; the refusal still names one."""
    game = rules.get_game(name)
    known = ", ".join(sorted(o.name for o in game.OPTIONS))
    with pytest.raises(rules.InvalidOptions) as info:
        game.validate_options({1: 2, "x": 3})
    assert str(info.value) == f"Unknown option 'x'; this game knows: {known}"
