"""Statistics speed: counting one finished table, and a full rebuild.

Usage: ``python bench/stats.py [--tables 10000] [--distinct 250] [--sample 300]
[--quick] [--json]`` (``make bench`` runs it with no arguments).

It creates a throwaway PostgreSQL database (``cardroom_bench_stats_<pid>``) on
the server named by ``BENCH_DATABASE_URL`` (default: ``DATABASE_URL``, else
``postgres://root@127.0.0.1:5432/postgres``), migrates it and drops it at the
end. Random bots play ``--distinct`` matches in memory through the arena's
loop (``stats.simulate``), cycling through Alager 3p and 4p, Alkort 4p and 2p
and Allegra 3p with the default options; ``--tables`` finished tables are
bulk-inserted from them (``COPY`` for the events), each seated by a different
draw of 60 people and the three bot levels, all rated.

1. **Record one table**: ``stats.services.table_record`` on ``--sample``
   tables, one at a time (its own transaction each, as the task runs it),
   median and p99, beside the baseline of merely reading that table's events
   (every payload, one query) in the same run.
2. **Rebuild**: ``stats_rebuild`` over every table, beside the baseline of
   reading every event row of the database once (server-side cursor).

Goals (issue 14): ≤ 50 ms per table recorded; rebuild of 10,000 tables ≤ 60 s.
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

from event_store import throwaway_database  # noqa: E402


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("CARDROOM_ENV_FILE", os.devnull)
    os.environ.setdefault("DEBUG", "false")
    os.environ.pop("REDIS_URL", None)  # no tasks queued: the bench counts itself
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction

    from accounts.models import User
    from accounts.services import bot_accounts_ensure
    from games.models import GameEvent
    from stats.services import stats_rebuild, table_record
    from stats.simulate import matches_play, tables_insert

    call_command("migrate", verbosity=0)
    bots = [user for user, _ in bot_accounts_ensure()]
    people = [User.objects.create_user(username=f"bench{i}") for i in range(60)]
    t = time.perf_counter()
    pool = matches_play(args.distinct, seed=7, quick=args.quick)
    played = time.perf_counter() - t
    rng = random.Random(7)
    matches, seatings = [], []
    for i in range(args.tables):
        match = pool[i % len(pool)]
        seating = rng.sample(people, match.players)
        if rng.random() < 0.3:
            seating[rng.randrange(match.players)] = rng.choice(bots)
        matches.append(match)
        seatings.append(seating)
    t = time.perf_counter()
    ids: list[int] = []
    for start in range(0, args.tables, 500):
        ids += tables_insert(
            matches[start : start + 500],
            seatings[start : start + 500],
            creator=people[0],
        )
    inserted = time.perf_counter() - t
    events = GameEvent.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")

    # 1. One table at a time, alternating with the baseline read.
    record, read = [], []
    for table_id in ids[: args.sample]:
        t = time.perf_counter()
        list(GameEvent.objects.filter(table_id=table_id).values_list("payload"))
        read.append(time.perf_counter() - t)
        t = time.perf_counter()
        assert table_record(table_id=table_id)
        record.append(time.perf_counter() - t)

    # 2. The whole rebuild, after the baseline full read.
    t = time.perf_counter()
    with (
        transaction.atomic(),
        connection.cursor() as cursor,
        cursor.connection.cursor(name="all") as raw,
    ):
        del cursor
        raw.itersize = 5000
        rows = sum(1 for _ in raw.execute("SELECT payload FROM games_gameevent"))
    scan = time.perf_counter() - t
    assert rows == events
    t = time.perf_counter()
    counted = stats_rebuild()
    rebuild = time.perf_counter() - t
    assert counted == args.tables
    return {
        "tables": args.tables,
        "distinct_matches": args.distinct,
        "events": events,
        "quick_options": args.quick,
        "setup_seconds": {"play": round(played, 1), "insert": round(inserted, 1)},
        "record_ms": {
            "median": 1000 * statistics.median(record),
            "p99": 1000 * p99(record),
            "baseline_read_median": 1000 * statistics.median(read),
            "ratio_median": statistics.median(record) / statistics.median(read),
        },
        "rebuild_s": {
            "total": rebuild,
            "per_table_ms": 1000 * rebuild / args.tables,
            "baseline_scan": scan,
            "ratio": rebuild / scan,
        },
        "goals": {
            "record_median_le_50ms": statistics.median(record) <= 0.050,
            "rebuild_le_60s": rebuild <= 60,
        },
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="bench/stats.py", description=__doc__)
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=250)
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--quick", action="store_true", help="short matches")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with throwaway_database(f"cardroom_bench_stats_{os.getpid()}") as url:
        result = run(args, url)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        r, b = result["record_ms"], result["rebuild_s"]
        print(
            f"{result['tables']} tables from {result['distinct_matches']} distinct "
            f"bot matches, {result['events']:,} events"
            f" (played in {result['setup_seconds']['play']} s,"
            f" inserted in {result['setup_seconds']['insert']} s)"
        )
        print(
            f"record one table: median {r['median']:.1f} ms, p99 {r['p99']:.1f} ms"
            f" (baseline: reading its events {r['baseline_read_median']:.1f} ms;"
            f" ratio {r['ratio_median']:.1f}x)  goal <= 50 ms"
        )
        print(
            f"rebuild: {b['total']:.1f} s ({b['per_table_ms']:.2f} ms/table)"
            f" (baseline: reading every event once {b['baseline_scan']:.1f} s;"
            f" ratio {b['ratio']:.1f}x)  goal <= 60 s"
        )
    return result


if __name__ == "__main__":
    main()
