"""Bot turns: what a bot's move costs early in a match and deep into it.

Usage: ``python bench/bot_turns.py [--level basic] [--deep 2000] [--json]``
(``make bench`` runs it with no arguments).

A person (random legal moves through ``action_submit``) plays Alager against
a bot of ``--level``; every bot move is ``games.services.bot_turn_play``, as
the scheduled job runs it, and is timed. Two matches with the same seed, in
turn: one as the service runs it (the history memo,
``games.history_cache``: a turn reads and redacts only the events it has not
seen) and one that reads the whole log afresh for every turn, as every turn
did before the memo. Reported: the median bot turn before seq 100 and past
seq ``--deep`` - 100, and the ratio of the two (how a turn's cost grows with
the match).

It creates ``cardroom_bench_bots_<pid>`` on the server named by
``BENCH_DATABASE_URL`` (default: ``DATABASE_URL``, else
``postgres://root@127.0.0.1:5432/postgres``) and drops it at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from event_store import OPTIONS, throwaway_database  # noqa: E402


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="basic")
    parser.add_argument("--deep", type=int, default=2000, help="the deep seq")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with throwaway_database(f"cardroom_bench_bots_{os.getpid()}") as url:
        out = run(args, url)
    report(out)
    if args.json:
        print(json.dumps(out))
    return out


def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("CARDROOM_ENV_FILE", os.devnull)
    os.environ.setdefault("DEBUG", "false")
    os.environ["DB_POOL"] = "false"
    # The bot turns the moves schedule are held, not run by a scheduler
    # thread behind the bench's back: the bench plays each one itself.
    os.environ["TASK_RUNNER"] = "inline"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games import history_cache

    out: dict[str, Any] = {"game": "alager", "level": args.level, "deep": args.deep}
    capacity = history_cache.CAPACITY
    for mode, keep in (("memo", capacity), ("afresh", 0)):
        history_cache.CAPACITY = keep
        early, deep = play(args, mode)
        out[f"{mode}_ms_early"] = round(statistics.median(early) * 1000, 2)
        out[f"{mode}_ms_deep"] = round(statistics.median(deep) * 1000, 2)
        out[f"{mode}_growth"] = round(
            out[f"{mode}_ms_deep"] / out[f"{mode}_ms_early"], 2
        )
    history_cache.CAPACITY = capacity
    out["deep_afresh_to_memo"] = round(out["afresh_ms_deep"] / out["memo_ms_deep"], 2)
    return out


def play(args: argparse.Namespace, tag: str) -> tuple[list[float], list[float]]:
    """One match to past ``--deep``; the bot turns' seconds before seq 100
    and past ``--deep`` - 100."""
    import rules
    from accounts.models import User
    from games import services
    from games.models import Table

    game = rules.get_game("alager")
    person = User.objects.create_user(username=f"bench-{tag}")
    table_id = services.table_create(
        user=person, game="alager", players=2, options=OPTIONS["alager"]
    ).pk
    services.table_add_bot(table_id=table_id, user=person, seat=1, level=args.level)
    services.table_start(table_id=table_id, user=person, seed="bench-bot-turns")
    rng = random.Random(tag)
    early: list[float] = []
    deep: list[float] = []
    while True:
        table = Table.objects.get(pk=table_id)
        if table.status != "playing" or table.seq > args.deep:
            break
        state = game.load_state(table.state)
        if 0 in game.to_act(state):
            action = rng.choice(game.legal_actions(state, 0))
            services.action_submit(
                table_id=table_id, user=person, action=action, expected_seq=table.seq
            )
            continue
        started = time.perf_counter()
        services.bot_turn_play(table_id=table_id, seq=table.seq)
        took = time.perf_counter() - started
        if table.seq < 100:
            early.append(took)
        elif table.seq > args.deep - 100:
            deep.append(took)
    if not early or not deep:
        raise SystemExit(f"the match ended at seq {table.seq}; lower --deep")
    return early, deep


def report(out: dict[str, Any]) -> None:
    print(f"{out['game']}, a person against a {out['level']} bot")
    for mode, label in (
        ("memo", "history memo (the service)"),
        ("afresh", "whole log read every turn"),
    ):
        print(
            f"  {label:<27} bot turn: median {out[f'{mode}_ms_early']:.2f} ms "
            f"before seq 100, {out[f'{mode}_ms_deep']:.2f} ms past seq "
            f"{out['deep'] - 100:,} ({out[f'{mode}_growth']:.2f} x)"
        )
    print(
        f"  deep into the match the memo's turn is "
        f"{out['deep_afresh_to_memo']:.2f} x faster"
    )


if __name__ == "__main__":
    main()
