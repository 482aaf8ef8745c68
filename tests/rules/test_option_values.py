"""Every allowed value of every option starts a match, is recorded, and plays.

``test_option_bounds.py`` refuses the values past each bound; this is the
other half: each choice, both flags, both ends of every range and null where
an option takes it, each on the largest table those options allow, is recorded
in ``match_started`` (derived defaults resolved) and survives a stretch of
random play that replays to the same state. What each value *does* is pinned
by the games' scenario tests.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from rules.core import Option


def values(option: Option) -> list[Any]:
    if option.kind == "bool":
        out: list[Any] = [False, True]
    elif option.choices:
        out = list(option.choices)
    elif option.kind == "int":
        out = [option.minimum, option.maximum]
    else:  # Allegra's custom deck: both of its forms
        out = [{"1": 40, "2": 40}, [3] * 30 + [4] * 30]
    return out + [None] if option.nullable else out


CASES = [
    (name, option.name, value)
    for name in rules.GAMES
    for option in rules.get_game(name).OPTIONS
    for value in values(option)
]


def recorded_form(name: str, option: str, value: Any, players: int) -> Any:
    """The value ``match_started`` records: derived defaults resolved, a custom
    deck as its sorted list of card values."""
    if (name, option, value) == ("alager", "num_deals", None):
        return 2 * players
    if (name, option, value) == ("allegra", "max_turns_per_round", 0):
        return 60 * players
    if isinstance(value, dict):
        return sorted(int(k) for k, count in value.items() for _ in range(count))
    return value


@pytest.mark.parametrize(
    ("name", "option", "value"),
    CASES,
    ids=[f"{g}-{o}-{str(v)[:12]}" for g, o, v in CASES],
)
def test_every_allowed_value_starts_records_and_plays(name, option, value):
    game = rules.get_game(name)
    options = {option: value}
    players = game.player_range(game.validate_options(options))[1]
    events = game.start(players=players, options=options, seed=f"{option}={value}")
    recorded = events[0].payload["options"][option]
    assert recorded == recorded_form(name, option, value, players)
    state = game.replay(events)
    rng = random.Random(option)
    for _ in range(40):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = rng.choice(to_act)
        action = rng.choice(game.legal_actions(state, seat))
        new = game.decide(state, seat, action)
        for event in new:
            state = game.evolve(state, event)
        events += new
    assert game.replay(events) == state
