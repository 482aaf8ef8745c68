"""Engine speed: applied actions per second (decide + evolve) in random playouts.

Usage: ``python bench/rules_playouts.py [--game alager] [--players 4] [--matches 30]``

Random matches are played first to record action sequences (choosing among
``legal_actions`` is not timed); then the same sequences are applied again with
only ``decide`` and ``evolve`` on the clock. The machine is shared and noisy, so
the figure is also given as a ratio to a baseline measured in the same run: a
pure-Python reference loop (``dataclasses.replace`` of a small frozen record).
Both are timed in CPU time of this process (``time.process_time``), which other
processes on a loaded machine disturb far less than wall-clock time.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules  # noqa: E402


@dataclasses.dataclass(frozen=True)
class _Ref:
    a: int
    b: tuple[int, ...]


def baseline_ops_per_second(n: int = 200_000) -> float:
    r = _Ref(0, (1, 2, 3))
    t = time.process_time()
    for i in range(n):
        r = dataclasses.replace(r, a=i)
    return n / (time.process_time() - t)


def record(game, players, options, matches, seed):
    games = []
    for m in range(matches):
        rng = random.Random(f"{seed}:{m}")
        start = game.start(players=players, options=options, seed=f"bench-{seed}-{m}")
        state = game.replay(start)
        moves = []
        while to_act := game.to_act(state):
            seat = rng.choice(to_act)
            action = rng.choice(game.legal_actions(state, seat))
            moves.append((seat, action))
            for e in game.decide(state, seat, action):
                state = game.evolve(state, e)
        games.append((start, moves))
    return games


def timed_apply(game, games) -> tuple[int, float]:
    count, elapsed = 0, 0.0
    for start, moves in games:
        state = game.replay(start)
        t = time.process_time()
        for seat, action in moves:
            for e in game.decide(state, seat, action):
                state = game.evolve(state, e)
        elapsed += time.process_time() - t
        count += len(moves)
    return count, elapsed


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=rules.GAMES, action="append")
    parser.add_argument("--players", type=int)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    defaults = {"alager": 4, "alkort": 4, "allegra": 4}
    results = {}
    base = baseline_ops_per_second()
    for name in args.game or rules.GAMES:
        try:
            game = rules.get_game(name)
        except (ImportError, AttributeError):
            continue
        players = args.players or defaults[name]
        games = record(game, players, {}, args.matches, args.seed)
        count, elapsed = timed_apply(game, games)
        rate = count / elapsed
        results[name] = {
            "players": players,
            "actions": count,
            "actions_per_second": round(rate),
            "ratio_to_baseline": round(rate / base, 4),
        }
    out = {"baseline_replace_ops_per_second": round(base), "games": results}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"baseline (dataclasses.replace): {base:,.0f} ops/s")
        for name, r in results.items():
            print(
                f"{name:8} {r['players']} players: {r['actions_per_second']:>9,} actions/s"
                f"  ({r['actions']} actions; {r['ratio_to_baseline']:.3f} x baseline)"
            )
    return out


if __name__ == "__main__":
    main()
