"""Alkort bots: legal, deterministic, blind to unseen cards, and quick enough."""

import random
import time

import pytest

import rules
from rules.alkort.determinise import determinise
from rules.bots import RandomPolicy, bot_input
from rules.bots.alkort import BasicPolicy, StrongPolicy
from tests.rules.bots import checks

GAME = rules.get_game("alkort")
# A small budget keeps the tests quick; the search is the same.
LEVELS = {
    "random": RandomPolicy(),
    "basic": BasicPolicy(),
    "strong": StrongPolicy(rollouts=12),
}


def play_match(policies, seed, options=None):
    return checks.play_match(GAME, policies, seed, options)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_legal_moves_only(level, players):
    """Seeded matches against basic: every choice is among the legal actions."""
    matches = 4 if level == "strong" else 20
    base = [{"target": 3}, {"target": 3, "lead_rule": "winner"}]
    # Both lead rules, and every third match the other seven rule: six in a cycle.
    options = [
        {**base[m % 2], "seven_rule": "player_has_trick"} if m % 3 == 2 else base[m % 2]
        for m in range(6)
    ]
    kinds = checks.check_legal_play(
        GAME,
        players,
        LEVELS[level],
        LEVELS["basic"],
        matches=matches,
        seed="legal",
        options=options,
    )
    assert kinds.total() > 15 * matches


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_bots_are_deterministic_given_the_rng(level):
    plays = play_match([LEVELS["basic"]] * 4, "same", {"target": 2})
    checks.check_deterministic(GAME, LEVELS[level], plays)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", ["basic", "strong"])
def test_no_peeking(level, players):
    """Reshuffling the cards a seat cannot see never changes its bot's choice."""
    # Seed "contract-seed-alkort-86-0-z9q" deals an eligible hand (stock exchange).
    seeds = ["contract-seed-alkort-86-0-z9q", "peek-1"]
    matches = [play_match([LEVELS["basic"]] * players, s, {"target": 3}) for s in seeds]
    renamed = checks.check_no_peeking(
        GAME, LEVELS[level], matches, rng=random.Random(players), every=3
    )
    assert renamed > 10


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
            # CPU time of this thread: what the budget costs, whatever else the
            # machine runs (the deadline only caps wall time between samples).
            started = time.thread_time()
            action = policy.choose(inp, random.Random(1))
            slowest = max(slowest, time.thread_time() - started)
            assert action in inp.legal
            decisions += 1
    assert decisions == 6 and slowest < 1.0
