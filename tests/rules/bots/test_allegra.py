"""Allegra bots: legal, deterministic, blind to unseen cards, and quick enough."""

import random
import time
from collections import Counter

import pytest

import rules
from rules.allegra.determinise import determinise
from rules.bots import RandomPolicy, bot_input, get_bot
from rules.bots.allegra import BasicPolicy, StrongPolicy
from tests.rules.bots import checks

GAME = rules.get_game("allegra")
# A small budget keeps the tests quick; the search is the same.
LEVELS = {
    "random": RandomPolicy(),
    "basic": BasicPolicy(),
    "strong": StrongPolicy(rollouts=8, horizon=3),
}
SHORT = {"rounds": 1}


def play_match(policies, seed, options=None):
    """A whole match; in a knock window a random seat answers first."""
    return checks.play_match(GAME, policies, seed, options)


def test_the_registry_knows_both_levels():
    assert isinstance(get_bot("allegra", "basic"), BasicPolicy)
    assert isinstance(get_bot("allegra", "strong"), StrongPolicy)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_legal_moves_only(level, players):
    """Seeded matches against basic: every choice, knock answers included, is legal."""
    matches = 1 if level == "strong" else 3
    kinds = checks.check_legal_play(
        GAME,
        players,
        LEVELS[level],
        LEVELS["basic"],
        matches=matches,
        seed=f"legal-{level}-{players}",
        options=[SHORT, {**SHORT, "deck": "published"}],
    )
    assert kinds["reveal"] == 2 * players * matches
    assert kinds["pass"] > 0 and kinds["draw"] > 0


def test_basic_knocks_and_gives_when_it_helps():
    """Over a few matches the heuristic uses the whole knock procedure."""
    kinds: Counter[str] = Counter()
    for m in range(4):
        for _state, _events, _seat, _inp, action in play_match(
            [LEVELS["basic"]] * 4, f"knocks-{m}"
        ):
            kinds[action["type"]] += 1
    assert kinds["knock"] > 0 and kinds["give"] > 0
    assert kinds["place"] == kinds["take"] == kinds["put"] == kinds["give"]


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_bots_are_deterministic_given_the_rng(level):
    plays = play_match([LEVELS["basic"]] * 3, "same")
    checks.check_deterministic(GAME, LEVELS[level], plays)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", ["basic", "strong"])
def test_no_peeking(level, players):
    """Reshuffling the cards a seat cannot see never changes its bot's choice."""
    plays = play_match([LEVELS["basic"]] * players, f"peek-{players}", SHORT)
    renamed = checks.check_no_peeking(
        GAME, LEVELS[level], [plays], rng=random.Random(players), every=3
    )
    assert renamed > 10


def test_determinised_states_look_the_same_to_the_seat():
    """view(determinise(view, history)) == view, with every card of the deck."""
    rng = random.Random(0)
    options = [
        (3, {"deck": "published", **SHORT}),
        (2, {"deck_composition": [v for v in range(1, 14) for _ in range(2)]}),
    ]
    checked = 0
    for players, opts in options:
        plays = play_match([LEVELS["basic"]] * players, "worlds", opts)
        for n, (state, events, _seat, _inp, _) in enumerate(plays):
            if n % 5:
                continue
            deck = Counter(GAME.inventory(state))
            for other in range(players):
                inp = bot_input(GAME, state, events, other)
                world = determinise(inp.view, inp.history, rng)
                assert GAME.view(world, other) == inp.view
                assert GAME.legal_actions(world, other) == list(inp.legal)
                assert Counter(GAME.inventory(world)) == deck
                checked += 1
    assert checked > 100


def test_strong_decides_within_a_second_at_full_budget():
    policy = StrongPolicy()  # the default budget
    slowest = 0.0
    decisions = 0
    for _state, _events, _seat, inp, _ in play_match(
        [LEVELS["basic"]] * 4, "clock", SHORT
    ):
        if inp.view["phase"] in ("turn_start", "decide_deck_card") and decisions < 6:
            # CPU time of this thread: what the budget costs, whatever else the
            # machine runs (the deadline only caps wall time between samples).
            started = time.thread_time()
            action = policy.choose(inp, random.Random(1))
            slowest = max(slowest, time.thread_time() - started)
            assert action in inp.legal
            decisions += 1
    assert decisions == 6 and slowest < 1.0
