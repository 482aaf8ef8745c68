"""Simulation arena: bots play whole matches against each other.

    python -m rules.arena --game alkort --players 4 \\
        --bots strong,basic,strong,basic --matches 200 --seed 1

Prints a progress bar, then a table per bot level: win rate with a 95% Wilson
interval, average score and place with 95% intervals, decision times. Seats
rotate from match to match (seat ``s`` of match ``m`` gets bot ``(s + m) % n``)
so no level keeps the first lead; with an alternating list such as
``strong,basic,strong,basic`` partners stay partners. The same loop also
measures the engine end to end (actions per second, bots included).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.bots import LEVELS, Policy, bot_input, get_bot
from rules.core import Event
from rules.registry import GAMES, get_game


@dataclass
class LevelStats:
    """What one bot level achieved, over every seat it held."""

    seats: int = 0
    wins: int = 0
    scores: list[float] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    decisions: int = 0
    think_seconds: float = 0.0
    slowest: float = 0.0


@dataclass
class ArenaResult:
    """The result of an arena run: per level, seats played, wins, scores and places."""

    game: str
    players: int
    bots: tuple[str, ...]
    matches: int
    actions: int
    seconds: float
    lower_is_better: bool
    levels: dict[str, LevelStats]

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-safe data (for reports and docs/bots.md)."""
        return {
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "matches": self.matches,
            "actions": self.actions,
            "actions_per_second": round(self.actions / self.seconds, 1),
            "levels": {
                name: {
                    "seats": s.seats,
                    "win_rate": s.wins / s.seats,
                    "win_rate_ci95": list(wilson(s.wins, s.seats)),
                    "avg_score": statistics.fmean(s.scores),
                    "avg_score_ci95": list(mean_ci(s.scores)),
                    "avg_place": statistics.fmean(s.places),
                    "avg_decision_ms": 1000 * s.think_seconds / max(1, s.decisions),
                    "max_decision_ms": 1000 * s.slowest,
                }
                for name, s in self.levels.items()
            },
        }


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """Normal-approximation 95% interval of a mean."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return (m, m)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (m - half, m + half)


def play_match(
    game_name: str,
    policies: Sequence[Policy],
    seed: str,
    options: dict[str, Any] | None = None,
    levels: Sequence[str] | None = None,
    stats: dict[str, LevelStats] | None = None,
    max_actions: int = 100_000,
) -> tuple[dict[str, Any], int]:
    """Play one match; return its outcome and the number of actions."""
    game = get_game(game_name)
    events: list[Event] = game.start(
        players=len(policies), options=options or {}, seed=seed
    )
    state = game.replay(events)
    rng = random.Random(seed)
    actions = 0
    # Each seat's history, redacted once per event (not again at every decision).
    seen = [[game.redact(e, o) for e in events] for o in range(len(policies))]
    while to_act := game.to_act(state):
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        t = time.perf_counter()
        inp = bot_input(game, state, events, seat, redacted=seen[seat])
        action = policies[seat].choose(inp, rng)
        spent = time.perf_counter() - t
        if stats is not None and levels is not None:
            s = stats[levels[seat]]
            s.decisions += 1
            s.think_seconds += spent
            s.slowest = max(s.slowest, spent)
        new = game.decide(state, seat, action)
        for event in new:
            state = game.evolve(state, event)
        events.extend(new)
        for other, history in enumerate(seen):
            history.extend(game.redact(e, other) for e in new)
        actions += 1
        if actions > max_actions:
            raise RuntimeError(f"match {seed} did not end in {max_actions} actions")
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome, actions


def run_arena(
    game_name: str,
    bots: Sequence[str],
    matches: int,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    rotate: bool = True,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play ``matches`` matches between bot levels and tally each level's results."""
    game = get_game(game_name)
    n = len(bots)
    game.validate_players(n, options)
    levels: dict[str, LevelStats] = defaultdict(LevelStats)
    policies = {level: get_bot(game_name, level) for level in set(bots)}
    actions = 0
    started = time.perf_counter()
    for m in range(matches):
        shift = m % n if rotate else 0
        seat_levels = [bots[(s + shift) % n] for s in range(n)]
        outcome, count = play_match(
            game_name,
            [policies[level] for level in seat_levels],
            seed=f"arena-{seed}-{m}",
            options=options,
            levels=seat_levels,
            stats=levels,
        )
        actions += count
        for s, level in enumerate(seat_levels):
            tally = levels[level]
            tally.seats += 1
            tally.wins += s in outcome["winners"]
            tally.scores.append(outcome["scores"][s])
            tally.places.append(outcome["places"][s])
        if progress is not None:
            progress(1)
    return ArenaResult(
        game=game_name,
        players=n,
        bots=tuple(bots),
        matches=matches,
        actions=actions,
        seconds=time.perf_counter() - started,
        lower_is_better=game.lower_score_is_better,
        levels=dict(levels),
    )


def format_table(result: ArenaResult) -> str:
    """A plain-text table of the result, one line per level."""
    better = "lower" if result.lower_is_better else "higher"
    lines = [
        f"{result.game}, {result.players} players, {result.matches} matches "
        f"({result.actions} actions, {result.actions / result.seconds:,.0f} actions/s "
        f"with bots thinking); scores: {better} is better",
        f"{'bot':8} {'seats':>5} {'win rate':>9} {'95% CI':>15} {'avg score':>10} "
        f"{'95% CI':>17} {'avg place':>9} {'ms/move':>8} {'max ms':>7}",
    ]
    for name, s in sorted(result.levels.items()):
        lo, hi = wilson(s.wins, s.seats)
        mlo, mhi = mean_ci(s.scores)
        lines.append(
            f"{name:8} {s.seats:>5} {s.wins / s.seats:>9.1%} "
            f"{f'[{lo:.1%}, {hi:.1%}]':>15} {statistics.fmean(s.scores):>10.2f} "
            f"{f'[{mlo:.2f}, {mhi:.2f}]':>17} {statistics.fmean(s.places):>9.2f} "
            f"{1000 * s.think_seconds / max(1, s.decisions):>8.1f} {1000 * s.slowest:>7.0f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> ArenaResult:
    """Command line entry point (``python -m rules.arena``)."""
    parser = argparse.ArgumentParser(prog="python -m rules.arena", description=__doc__)
    parser.add_argument("--game", required=True, choices=GAMES)
    parser.add_argument("--players", type=int, help="defaults to the number of bots")
    parser.add_argument(
        "--bots", required=True, help=f"comma-separated levels ({', '.join(LEVELS)})"
    )
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}", help="match options as JSON")
    parser.add_argument(
        "--no-rotate", action="store_true", help="keep bots in their seats"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.players and len(bots) == 1:
        bots = bots * args.players
    if args.players and len(bots) != args.players:
        parser.error(f"--bots lists {len(bots)} bots for {args.players} players")
    for b in bots:
        if b not in LEVELS:
            parser.error(f"unknown bot level {b!r}; levels: {', '.join(LEVELS)}")
    try:
        options = json.loads(args.options)
        get_game(args.game).validate_players(len(bots), options)
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    bar = _progress_bar(args.matches)
    try:
        result = run_arena(
            args.game,
            bots,
            args.matches,
            args.seed,
            options,
            rotate=not args.no_rotate,
            progress=bar.update,
        )
    finally:
        bar.close()
    print(json.dumps(result.to_json(), indent=2) if args.json else format_table(result))
    return result


class _progress_bar:
    """tqdm when it is installed (it is in the service's environment), else a line."""

    def __init__(self, total: int) -> None:
        try:
            from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

            self._bar: Any = tqdm(total=total, unit="match", file=sys.stderr)
        except ImportError:  # the rules package stands alone without tqdm
            self._bar = None
            self.total, self.done = total, 0

    def update(self, n: int) -> None:
        if self._bar is not None:
            self._bar.update(n)
            return
        self.done += n
        filled = 30 * self.done // max(1, self.total)
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total}"
        )

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        else:
            sys.stderr.write("\n")


if __name__ == "__main__":
    main()
