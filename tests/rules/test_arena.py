"""The simulation arena plays whole matches and reports with error bars."""

import json

import pytest

from rules import arena


@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("alager", "random,random,random"),
        ("alkort", "random,random"),
        ("allegra", "random,random,random"),
    ],
)
def test_arena_plays_full_matches_and_counts_every_seat(game, bots):
    """Every seat of every match is counted once; wins follow the outcomes."""
    result = arena.run_arena(game, bots.split(","), matches=4, seed=3)
    levels = result.levels
    assert set(levels) == {"random"}
    assert levels["random"].seats == 4 * len(bots.split(","))
    assert 4 <= levels["random"].wins <= levels["random"].seats
    assert result.actions > 0


def test_arena_is_deterministic_for_a_seed():
    """The same seed gives the same matches, so figures can be reproduced."""
    a = arena.run_arena("alkort", ["random", "random"], matches=3, seed=9)
    b = arena.run_arena("alkort", ["random", "random"], matches=3, seed=9)
    assert a.levels["random"].scores == b.levels["random"].scores
    assert a.actions == b.actions


def test_cli_prints_a_results_table(capsys):
    arena.main(
        ["--game", "alager", "--players", "3", "--bots", "random", "--matches", "2"]
    )
    out = capsys.readouterr().out
    assert "alager, 3 players, 2 matches" in out
    assert "win rate" in out and "random" in out


def test_cli_json_output(capsys):
    arena.main(
        ["--game", "allegra", "--bots", "random,random", "--matches", "2", "--json"]
    )
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] == 2 and data["levels"]["random"]["seats"] == 4


def test_cli_rejects_a_bot_count_that_does_not_fit(capsys):
    with pytest.raises(SystemExit):
        arena.main(["--game", "alkort", "--players", "3", "--bots", "random,random"])
    assert "--bots lists 2 bots for 3 players" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        arena.main(["--game", "alkort", "--bots", "random,clever"])
    assert "unknown bot level 'clever'" in capsys.readouterr().err


def test_wilson_interval_contains_the_rate():
    lo, hi = arena.wilson(30, 200)
    assert lo < 0.15 < hi
    assert arena.wilson(0, 0) == (0.0, 1.0)
