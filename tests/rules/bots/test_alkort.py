"""Alkort bots: legal, deterministic, blind to unseen cards, and quick enough."""

import random
import time

import pytest

import rules
from rules.alkort.determinise import determinise
from rules.bots import RandomPolicy, bot_input
from rules.bots.alkort import BasicPolicy, StrongPolicy

GAME = rules.get_game("alkort")
# A small budget keeps the tests quick; the search is the same.
LEVELS = {
    "random": RandomPolicy(),
    "basic": BasicPolicy(),
    "strong": StrongPolicy(rollouts=12),
}


def play_match(policies, seed, options=None):
    """A whole match; yields (state, events, seat, input, action) at every decision."""
    events = GAME.start(len(policies), options or {}, seed=seed)
    state = GAME.replay(events)
    rng = random.Random(seed)
    while to_act := GAME.to_act(state):
        seat = rng.choice(to_act)
        inp = bot_input(GAME, state, events, seat)
        action = policies[seat].choose(inp, rng)
        yield state, events, seat, inp, action
        state, new = GAME.apply(state, seat, action)
        events = [*events, *new]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_legal_moves_only(level, players):
    """Seeded matches against basic: every choice is among the legal actions."""
    matches = 4 if level == "strong" else 20
    options = [{"target": 3}, {"target": 3, "lead_rule": "winner"}]
    decisions = 0
    for m in range(matches):
        policies = [
            LEVELS[level] if s % 2 == m % 2 else LEVELS["basic"] for s in range(players)
        ]
        opts = (
            {**options[m % 2], "seven_rule": "player_has_trick"}
            if m % 3 == 2
            else options[m % 2]
        )
        for _state, _events, _seat, inp, action in play_match(
            policies, f"legal-{m}", opts
        ):
            assert action in inp.legal
            decisions += 1
    assert decisions > 15 * matches


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_bots_are_deterministic_given_the_rng(level):
    policy = LEVELS[level]
    checked = 0
    for state, events, seat, inp, _ in play_match(
        [LEVELS["basic"]] * 4, "same", {"target": 2}
    ):
        if len(inp.legal) > 1 and checked < 12:
            first = policy.choose(inp, random.Random(5))
            again = policy.choose(
                bot_input(GAME, state, events, seat), random.Random(5)
            )
            assert first == again
            checked += 1
    assert checked == 12


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", ["basic", "strong"])
def test_no_peeking(level, players):
    """Reshuffling the cards a seat cannot see never changes its bot's choice."""
    policy = LEVELS[level]
    rng = random.Random(players)
    compared = 0
    # Seed "contract-seed-alkort-86-0-z9q" deals an eligible hand (stock exchange).
    for seed in ["contract-seed-alkort-86-0-z9q", "peek-1"]:
        plays = play_match([LEVELS["basic"]] * players, seed, {"target": 3})
        for n, (_state, events, seat, inp, _) in enumerate(plays):
            if n % 3 or len(inp.legal) == 1:
                continue
            alt_events = GAME.resample_unseen(events, seat, rng)
            alt = bot_input(GAME, GAME.replay(alt_events), alt_events, seat)
            assert alt.view == inp.view and alt.legal == inp.legal
            assert alt.history == inp.history
            assert policy.choose(alt, random.Random(n)) == policy.choose(
                inp, random.Random(n)
            )
            compared += 1
    assert compared > 10


def test_determinised_states_look_the_same_to_the_seat():
    """view(determinise(view, history)) == view, for every seat, all along a match."""
    rng = random.Random(0)
    for players, seed in [
        (4, "contract-seed-alkort-86-0-z9q"),
        (2, "contract-seed-alkort-9-0-z9q"),
    ]:
        for n, (state, events, _seat, _inp, _) in enumerate(
            play_match([LEVELS["basic"]] * players, seed, {"target": 2})
        ):
            if n % 3:
                continue
            for other in range(players):
                inp = bot_input(GAME, state, events, other)
                world = determinise(inp.view, inp.history, rng)
                assert GAME.view(world, other) == inp.view
                assert GAME.legal_actions(world, other) == list(inp.legal)


def test_strong_decides_within_a_second_at_full_budget():
    policy = StrongPolicy()  # the default budget
    slowest = 0.0
    decisions = 0
    for _state, _events, _seat, inp, _ in play_match(
        [LEVELS["basic"]] * 4, "clock", {"target": 1}
    ):
        if len(inp.legal) > 1 and decisions < 6:
            started = time.perf_counter()
            action = policy.choose(inp, random.Random(1))
            slowest = max(slowest, time.perf_counter() - started)
            assert action in inp.legal
            decisions += 1
    assert decisions == 6 and slowest < 1.0
