"""Event store speed: moves through ``action_submit`` next to raw INSERT commits.

Usage: ``python bench/event_store.py [--game alager] [--players 2] [--json]``
(``make bench`` runs it with no arguments).

What it measures, on PostgreSQL, with one client:

1. **Raw baseline**: single-row ``INSERT`` commits (autocommit, psycopg) into
   a table of the same shape as ``games_gameevent`` (same columns, indexes,
   unique key and foreign keys; no trigger), with payloads taken from a real
   match.
2. **Service**: a match played through ``games.services.action_submit`` (row
   lock, cached state, rules decide/evolve, append, cache update, stored
   command for idempotency, on-commit notification) up to seq 2,000. The
   moves are recorded beforehand from the same seeded match in memory, so
   choosing is not timed. Each call goes through ``sync_to_async`` from an
   event loop, as daphne runs a view. Raw and service runs alternate in
   blocks, so both see the same (shared, noisy) machine; means and medians
   are both reported.
3. **Growth**: median time per move of that match past seq 2,000 against a
   fresh match past seq 20, the two moved alternately.

Goals (issue 7): service rate >= 0.35 x raw rate; time at seq 2,000 <= 1.2 x
time at seq 20. The ratio depends mostly on what a commit costs: a raw insert
is one round trip plus the WAL flush, a move is about four round trips, the
flush and a few milliseconds of Python, so the ratio is high where fsync is
slow and low where it is nearly free. The default game's options keep its
state the same size all match long (Alager keeps only the current deal), so
any growth measured is the store's; ``--game alkort`` shows a rules state
that does grow (its history of deals).

It creates a throwaway database (``cardroom_bench_<pid>``) on the server named
by ``BENCH_DATABASE_URL`` (default: ``DATABASE_URL``, else
``postgres://root@127.0.0.1:5432/postgres``) and drops it at the end. Without
``REDIS_URL`` the channel layer is in memory (set it to include Redis
notifications in the timing).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402

OPTIONS = {
    "alager": {"end_mode": "fixed_deals", "num_deals": 200},
    "alkort": {"target": 1000},
    "allegra": {"rounds": 20},
}
SEED = "bench-event-store-seed"
LOOP = asyncio.new_event_loop()


def server_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL") or os.environ.get(
        "DATABASE_URL", "postgres://root@127.0.0.1:5432/postgres"
    )


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def record(
    game_name: str, players: int, min_seq: int
) -> list[tuple[int, dict[str, Any]]]:
    """The moves of a seeded random match, long enough to pass ``min_seq``."""
    game = rules.get_game(game_name)
    events = game.start(players=players, options=OPTIONS[game_name], seed=SEED)
    state = game.replay(events)
    seq = len(events)
    rng = random.Random(SEED)
    moves = []
    while (to_act := game.to_act(state)) and seq < min_seq:
        seat = rng.choice(to_act)
        action = rng.choice(game.legal_actions(state, seat))
        state, new = game.apply(state, seat, action)
        seq += len(new)
        moves.append((seat, action))
    if seq < min_seq:
        raise SystemExit(f"{game_name} ended at seq {seq}; raise its options")
    return moves


class RawInserts:
    """Single-row INSERT commits into a copy of games_gameevent (psycopg)."""

    def __init__(
        self, url: str, payloads: list[dict[str, Any]], table_id: int, actor_id: int
    ) -> None:
        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute("DROP TABLE IF EXISTS bench_raw_event")
        self.conn.execute(
            "CREATE TABLE bench_raw_event (LIKE games_gameevent INCLUDING ALL)"
        )
        self.conn.execute(
            "ALTER TABLE bench_raw_event ADD FOREIGN KEY (table_id) "
            "REFERENCES games_table (id) DEFERRABLE INITIALLY DEFERRED, "
            "ADD FOREIGN KEY (actor_id) REFERENCES accounts_user (id) "
            "DEFERRABLE INITIALLY DEFERRED"
        )
        self.texts = [json.dumps(p) for p in payloads]
        self.table_id, self.actor_id = table_id, actor_id
        self.seq = 0
        self.times: list[float] = []

    def run(self, count: int) -> None:
        sql = (
            "INSERT INTO bench_raw_event "
            "(table_id, seq, type, version, payload, actor_id, seat, created_at) "
            "VALUES (%s, %s, %s, 1, %s, %s, %s, now())"
        )
        for _ in range(count):
            self.seq += 1
            payload = self.texts[self.seq % len(self.texts)]
            started = time.perf_counter()
            self.conn.execute(
                sql,
                (self.table_id, self.seq, "alager.bench", payload, self.actor_id, 0),
            )
            self.times.append(time.perf_counter() - started)

    def close(self) -> None:
        self.conn.close()


class SqlFloor:
    """The move's transaction with no Python in it: the floor for any design.

    Same statements as a move on the hot path, sent straight through psycopg
    into copies of the tables: BEGIN, lock the table row, read its seats,
    one statement appending the event and rewriting the cached state, COMMIT.
    Django, the rules and JSON encoding are left out, so ``service / floor``
    shows what the Python costs and ``floor / raw`` what the transaction's
    shape costs on this machine.
    """

    def __init__(self, url: str, state: Any, payload: dict[str, Any]) -> None:
        self.conn = psycopg.connect(url, autocommit=True)
        for name, like in (
            ("bench_floor_table", "games_table"),
            ("bench_floor_event", "games_gameevent"),
            ("bench_floor_seat", "games_seat"),
        ):
            self.conn.execute(f"DROP TABLE IF EXISTS {name}")
            self.conn.execute(f"CREATE TABLE {name} (LIKE {like} INCLUDING ALL)")
        self.conn.execute(
            "INSERT INTO bench_floor_table SELECT * FROM games_table LIMIT 1"
        )
        self.conn.execute(
            "INSERT INTO bench_floor_seat SELECT s.* FROM games_seat s "
            "JOIN bench_floor_table t ON s.table_id = t.id"
        )
        row = self.conn.execute("SELECT id FROM bench_floor_table").fetchone()
        assert row is not None
        self.table_id = row[0]
        self.state = json.dumps(state)
        self.payload = json.dumps(payload)
        self.seq = 0
        self.times: list[float] = []

    def run(self, count: int) -> None:
        for _ in range(count):
            self.seq += 1
            started = time.perf_counter()
            with self.conn.transaction():
                self.conn.execute(
                    "SELECT id, seq FROM bench_floor_table WHERE id = %s FOR UPDATE",
                    (self.table_id,),
                ).fetchone()
                self.conn.execute(
                    'SELECT id, "index", user_id FROM bench_floor_seat '
                    "WHERE table_id = %s",
                    (self.table_id,),
                ).fetchall()
                self.conn.execute(
                    "WITH e AS (INSERT INTO bench_floor_event "
                    "(table_id, seq, type, version, payload, seat, created_at) "
                    "VALUES (%s, %s, 'alager.bench', 1, %s, 0, now()) RETURNING 1) "
                    "UPDATE bench_floor_table SET seq = %s, state = %s, "
                    "updated_at = now() WHERE id = %s",
                    (
                        self.table_id,
                        self.seq,
                        self.payload,
                        self.seq,
                        self.state,
                        self.table_id,
                    ),
                )
            self.times.append(time.perf_counter() - started)

    def close(self) -> None:
        self.conn.close()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="alager", choices=sorted(OPTIONS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--raw", type=int, default=3000, help="raw INSERT commits")
    parser.add_argument("--window", type=int, default=150, help="moves per window")
    parser.add_argument("--blocks", type=int, default=10, help="interleaved blocks")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    moves = record(args.game, args.players, min_seq=2000 + 3 * args.window)
    name = f"cardroom_bench_{os.getpid()}"
    server = server_url()
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        return run(args, moves, with_database(server, name))
    finally:
        from asgiref.sync import sync_to_async
        from django.db import connections

        # Django's sync thread holds a connection of its own: close it there.
        LOOP.run_until_complete(
            sync_to_async(connections.close_all, thread_sensitive=True)()
        )
        connections.close_all()
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Match:
    """One table played through ``action_submit`` with the recorded moves."""

    def __init__(
        self,
        args: argparse.Namespace,
        tag: str,
        moves: list[tuple[int, dict[str, Any]]],
    ) -> None:
        from accounts.models import User
        from games.services import table_create, table_join, table_start

        self.people = [
            User.objects.create_user(username=f"{tag}{i}") for i in range(args.players)
        ]
        self.table = table_create(
            user=self.people[0],
            game=args.game,
            players=args.players,
            options=OPTIONS[args.game],
        )
        for seat, person in enumerate(self.people[1:], start=1):
            table_join(table_id=self.table.pk, user=person, seat=seat)
        table_start(table_id=self.table.pk, user=self.people[0], seed=SEED)
        self.moves = moves
        self.next = 0
        self.seq = 0

    def play(self) -> float:
        """Play the next move; return the seconds ``action_submit`` took.

        Called as daphne calls a view: from the event loop, in Django's sync
        thread (``sync_to_async``), so the on-commit notification takes the
        same path as in production.
        """
        from asgiref.sync import sync_to_async

        from games.services import action_submit

        seat, action = self.moves[self.next]
        submit = sync_to_async(action_submit, thread_sensitive=True)
        started = time.perf_counter()
        result = LOOP.run_until_complete(
            submit(
                table_id=self.table.pk,
                user=self.people[seat],
                action=action,
                expected_seq=self.seq or None,
                command_id=f"m{self.next}",
            )
        )
        elapsed = time.perf_counter() - started
        self.seq = result["seq"]
        self.next += 1
        return elapsed


def run(
    args: argparse.Namespace, moves: list[tuple[int, dict[str, Any]]], url: str
) -> dict[str, Any]:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("CARDROOM_ENV_FILE", os.devnull)
    os.environ.setdefault("DEBUG", "false")  # no query log growing in memory
    import django

    django.setup()
    from django.core.management import call_command

    from games import event_store

    call_command("migrate", verbosity=0)
    long = Match(args, "long", moves)
    payloads = [e.payload for e in event_store.load_events(long.table)][1:] or [{}]
    raw = RawInserts(url, payloads, long.table.pk, long.people[0].pk)
    long.table.refresh_from_db()
    floor = SqlFloor(url, long.table.state, payloads[0])

    # 1. Rate: the long match up to seq 2,000, interleaved block by block with
    #    raw inserts so that both see the same machine (it is shared, noisy).
    service: list[float] = []
    for block in range(args.blocks):
        raw.run(args.raw // args.blocks)
        floor.run(args.raw // args.blocks // 2)
        while long.seq < 2000 * (block + 1) // args.blocks:
            service.append(long.play())
    raw.close()
    floor.close()

    # 2. Growth: moves near seq 2,000 (the long match) alternating with moves
    #    near seq 20 (a fresh match with the same moves), so both windows are
    #    measured at the same time.
    short = Match(args, "short", moves)
    while short.seq < 20:
        short.play()
    early, late = [], []
    for _ in range(args.window):
        late.append(long.play())
        early.append(short.play())

    raw_rate = len(raw.times) / sum(raw.times)
    floor_rate = len(floor.times) / sum(floor.times)
    service_rate = len(service) / sum(service)
    # Medians too: the machine is shared, and a few slow fsyncs or scheduler
    # stalls move the means of both runs a lot.
    raw_median = statistics.median(raw.times)
    service_median = statistics.median(service)
    early_ms = statistics.median(early) * 1000
    late_ms = statistics.median(late) * 1000
    # Each late move is timed right next to an early one: the median of the
    # pairs' ratios cancels most of the machine's drift.
    growth = statistics.median(b / a for a, b in zip(early, late, strict=True))
    out = {
        "game": args.game,
        "players": args.players,
        "channel_layer": "redis" if os.environ.get("REDIS_URL") else "in-memory",
        "raw_inserts_per_second": round(raw_rate, 1),
        "raw_ms_per_commit_median": round(raw_median * 1000, 3),
        "service_moves": len(service),
        "service_actions_per_second": round(service_rate, 1),
        "service_ms_per_action_median": round(service_median * 1000, 3),
        "ratio": round(service_rate / raw_rate, 3),
        "sql_floor_per_second": round(floor_rate, 1),
        "sql_floor_ratio": round(floor_rate / raw_rate, 3),
        "ratio_of_medians": round(raw_median / service_median, 3),
        "ms_per_action_near_seq_20": round(early_ms, 3),
        "ms_per_action_near_seq_2000": round(late_ms, 3),
        "growth": round(growth, 3),
        "early_window_seq": [20, short.seq],
        "late_window_seq": [2000, long.seq],
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{args.game}, {args.players} players "
            f"(channel layer: {out['channel_layer']})"
        )
        print(
            f"raw single-row INSERT commits: {raw_rate:,.0f}/s "
            f"(median {raw_median * 1000:.2f} ms)"
        )
        print(
            f"action_submit: {service_rate:,.0f} actions/s "
            f"(median {service_median * 1000:.2f} ms; {len(service)} moves to "
            f"seq 2,000)"
        )
        print(
            f"ratio {out['ratio']:.2f} (of medians {out['ratio_of_medians']:.2f}) "
            "(goal >= 0.35)"
        )
        print(
            f"the same transaction in bare SQL (no Python): {floor_rate:,.0f}/s, "
            f"{out['sql_floor_ratio']:.2f} x raw: the ceiling for this design here"
        )
        print(
            f"median per action, seq {20}..{short.seq}: {early_ms:.2f} ms; "
            f"seq 2,000..{long.seq}: {late_ms:.2f} ms "
            f"-> {out['growth']:.2f}x (goal <= 1.2x)"
        )
    return out


if __name__ == "__main__":
    main()
