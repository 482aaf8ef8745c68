"""Live play under load: frames to every seat of many tables, next to a floor.

Usage: ``python bench/ws_load.py [--tables 200] [--moves 40] [--json]``
(``make bench`` runs it with the defaults; ``--tables 50`` for a quick run).

What it does, on PostgreSQL and Redis, with one server process (uvicorn through
``scripts/web.sh``, as ``make up`` runs it; ``--server daphne`` for ``make run``'s):

1. Sets up a throwaway database (``cardroom_ws_bench_<pid>``, dropped at the
   end) with ``--tables`` four-player Alkort tables in play, a person with an
   API token at every seat.
2. **Cardroom**: opens one real WebSocket per seat (``websockets`` client,
   ``?token=``). Every seat plays at full speed: as soon as a frame offers it
   moves, it sends one (random, ``expected_seq`` set), until its table has
   played ``--moves`` moves. For every event, the delay from its commit (the
   event's ``created_at``, written in the move's transaction just before the
   commit) to the arrival of the frame carrying it, at every seat. Every
   connection must receive every seq after its first frame once, in order:
   lost and duplicated events are counted.
3. **Floor**: in the same server process and Redis, a bare Channels consumer
   (``bench/ws_relay.py``) joined to one group per table relays group
   messages to the same number of sockets; this process sends as many
   messages, at the rate Cardroom's moves were played, and measures send to
   arrival. It is what the channel layer and the server cost with no database,
   rules or redaction.

Goal (issue 13): Cardroom's p99 <= 3 x the floor's p99 and <= 60 ms, with no
lost or duplicated frames. This process keeps its own cyclic garbage
collector still while it measures (``instrument_gc_paused``): its pauses would
otherwise be counted as the server's. The client runs on the same (shared, two-core)
machine as the server and the database, so absolute figures are pessimistic;
the ratio is measured in the same run.

Environment: ``BENCH_DATABASE_URL`` (default ``postgres://root@127.0.0.1:5432/
postgres``, the server the throwaway database is made on) and
``BENCH_REDIS_URL`` (default ``redis://127.0.0.1:6379/12``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
#: The channel layer prefix of the server under test and of the relay.
LAYER_PREFIX = f"cardroom-ws-bench-{os.getpid()}"
sys.path.insert(0, str(ROOT))

GAME, PLAYERS, OPTIONS = "alkort", 4, {"target": 10}
#: Seconds without a frame after which a finished table's socket closes.
QUIET = 1.5
#: A seat that hears nothing this long pings (a ping also catches up).
PING_AFTER = 5.0
#: Handshakes in flight at once (a storm of 800 at once is not what we measure).
CONNECTING = 32


#: How the bench starts its one server process: ``scripts/web.sh`` as ``make up``
#: and the containers run it (uvicorn), or daphne as ``make run`` does.
SERVERS = {
    "uvicorn": lambda port: ["scripts/web.sh"],
    "daphne": lambda port: [
        sys.executable,
        "-m",
        "daphne",
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        "bench.ws_relay:application",
    ],
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        admin = os.environ.get(
            "BENCH_DATABASE_URL", "postgres://root@127.0.0.1:5432/postgres"
        )
        self.admin_url = admin
        self.db_name = f"cardroom_ws_bench_{os.getpid()}"
        parts = urlsplit(admin)
        self.db_url = urlunsplit(parts._replace(path=f"/{self.db_name}"))
        self.redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": os.environ.get("HOME", ""),
            "CARDROOM_ENV_FILE": os.devnull,
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "SECRET_KEY": secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_COOKIES": "false",
            "DATABASE_URL": self.db_url,
            "REDIS_URL": self.redis_url,
            # The bare relay below publishes under the same prefix.
            "CHANNEL_LAYER_PREFIX": LAYER_PREFIX,
            "TASK_RUNNER": "celery",
            "BOT_MOVE_DELAY": "0",
            "CELERY_QUEUE": f"cardroom-ws-bench-{os.getpid()}",
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
        }
        self.server: subprocess.Popen[bytes] | None = None

    # --- set-up ---------------------------------------------------------------

    def create_db(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )

    def drop_db(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')

    def tables(self) -> list[tuple[int, list[str]]]:
        """The tables in play and their seats' tokens, made through the services."""
        os.environ.update(self.env)
        import django

        django.setup()
        from rest_framework.authtoken.models import Token

        from accounts.models import User
        from games import services

        out = []
        for t in range(self.args.tables):
            people = [
                User.objects.create_user(username=f"b{t}-{s}") for s in range(PLAYERS)
            ]
            table = services.table_create(
                user=people[0], game=GAME, players=PLAYERS, options=OPTIONS
            )
            for s, user in enumerate(people[1:], start=1):
                services.table_join(table_id=table.pk, user=user, seat=s)
            services.table_start(table_id=table.pk, user=people[0])
            tokens = [Token.objects.create(user=u).key for u in people]
            out.append((table.pk, tokens))
        from django.db import connection

        connection.close()
        return out

    def start_server(self) -> None:
        self.server = subprocess.Popen(
            SERVERS[self.args.server](self.port),
            cwd=ROOT,
            env={
                **self.env,
                "ASGI_APP": "bench.ws_relay:application",
                "WEB_WORKERS": "1",  # one server process, as the floor has
                "BIN": str(Path(sys.executable).parent),
                "HOST": "127.0.0.1",
                "PORT": str(self.port),
            },
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{self.base}/api/games/", timeout=2).close()
                return
            except OSError:
                time.sleep(0.2)
        raise SystemExit("daphne did not start")

    def stop_server(self) -> None:
        if self.server and self.server.poll() is None:
            os.killpg(self.server.pid, signal.SIGTERM)
            self.server.wait(timeout=15)

    # --- Cardroom ---------------------------------------------------------------

    async def cardroom(self, tables: list[tuple[int, list[str]]]) -> dict[str, Any]:
        from websockets.asyncio.client import connect

        ws_base = self.base.replace("http", "ws", 1)
        arrivals: list[tuple[int, int, float]] = []  # (table, seq, arrival)
        per_conn: dict[tuple[int, int], list[int]] = defaultdict(list)
        firsts: dict[tuple[int, int], int] = {}
        moves = defaultdict(int)
        last_act: dict[int, int] = {}  # table -> the seq its last move was sent at
        done = {table_id: asyncio.Event() for table_id, _ in tables}
        errors: list[str] = []
        pings = [0]
        rng = random.Random(7)

        sockets = len(tables) * PLAYERS
        opening = asyncio.Semaphore(CONNECTING)
        all_open = asyncio.Event()
        opened = 0

        async def seat(table_id: int, index: int, token: str) -> None:
            nonlocal opened
            url = f"{ws_base}/ws/tables/{table_id}/?token={token}"
            async with opening:
                ws = await connect(url, open_timeout=120, max_queue=None)
                # Connected means the server has sent the first state frame
                # (the handshake alone only says the socket was accepted).
                backlog = [await ws.recv()]
                while json.loads(backlog[-1])["type"] != "state":
                    backlog.append(await ws.recv())
            opened += 1
            if opened == sockets:
                all_open.set()
            await all_open.wait()  # play starts once every seat is connected
            async with ws:
                while True:
                    try:
                        raw = backlog.pop(0) if backlog else None
                        if raw is None:
                            raw = await asyncio.wait_for(ws.recv(), PING_AFTER)
                    except TimeoutError:
                        # As real clients do: a ping also catches up.
                        pings[0] += 1
                        await ws.send('{"type": "ping"}')
                        continue
                    now = time.time()
                    frame = json.loads(raw)
                    if frame["type"] == "error":
                        if frame["code"] not in ("stale",):
                            errors.append(frame["code"])
                        continue
                    if frame["type"] != "state":
                        continue
                    key = (table_id, index)
                    if key not in firsts:
                        firsts[key] = frame["seq"]
                    for event in frame["events"]:
                        per_conn[key].append(event["seq"])
                        arrivals.append((table_id, event["seq"], now))
                    # Done once the table's last move has come back (it may
                    # wait behind other tables' moves for a while).
                    if frame["status"] != "playing" or frame["seq"] > last_act.get(
                        table_id, frame["seq"]
                    ):
                        done[table_id].set()
                        break
                    if frame["legal_actions"] and table_id not in last_act:
                        moves[table_id] += 1
                        if moves[table_id] >= self.args.moves:
                            last_act[table_id] = frame["seq"]
                        action = rng.choice(frame["legal_actions"])
                        await ws.send(
                            json.dumps(
                                {
                                    "type": "act",
                                    "action": action,
                                    "expected_seq": frame["seq"],
                                }
                            )
                        )
                # The table is done: take the frames still in flight, then go.
                try:
                    while True:
                        raw = await asyncio.wait_for(ws.recv(), QUIET)
                        now = time.time()
                        frame = json.loads(raw)
                        for event in frame.get("events", ()):
                            per_conn[key].append(event["seq"])
                            arrivals.append((table_id, event["seq"], now))
                except TimeoutError:
                    return

        began = time.monotonic()
        play = asyncio.gather(
            *(
                seat(table_id, i, token)
                for table_id, tokens in tables
                for i, token in enumerate(tokens)
            )
        )
        await all_open.wait()
        began = time.monotonic()
        assert self.server is not None
        cpu_began = cpu_seconds(self.server.pid)
        await play
        took = time.monotonic() - began - QUIET
        cpu = cpu_seconds(self.server.pid) - cpu_began
        return {
            "arrivals": arrivals,
            "per_conn": per_conn,
            "firsts": firsts,
            "moves": sum(moves.values()),
            "seconds": took,
            "server_cpu_seconds": cpu,
            "errors": errors,
            "pings": pings[0],
        }

    def commit_times(self) -> tuple[dict[tuple[int, int], float], dict[int, int]]:
        with psycopg.connect(self.db_url) as conn:
            rows = conn.execute(
                "SELECT table_id, seq, extract(epoch from created_at) FROM games_gameevent"
            ).fetchall()
            seqs = dict(conn.execute("SELECT id, seq FROM games_table").fetchall())
        return {(t, s): float(at) for t, s, at in rows}, seqs

    # --- floor ------------------------------------------------------------------

    async def floor(self, groups: int, messages: int, rate: float) -> dict[str, Any]:
        from websockets.asyncio.client import connect

        from config.channel_layer import LocalFirstPubSubLayer

        # The server's own channel layer (config/settings/base.py), publishing
        # from this process as a Celery worker or a second server would.
        layer = LocalFirstPubSubLayer(hosts=[self.redis_url], prefix=LAYER_PREFIX)
        ws_base = self.base.replace("http", "ws", 1)
        delays: list[float] = []
        received: dict[tuple[int, int], list[int]] = defaultdict(list)
        ready = asyncio.Event()
        opened = 0
        total = groups * PLAYERS

        opening = asyncio.Semaphore(CONNECTING)

        async def sock(group: int, index: int) -> None:
            nonlocal opened
            async with opening:
                ws = await connect(
                    f"{ws_base}/ws/bench/relay/{group}/",
                    open_timeout=120,
                    max_queue=None,
                )
            async with ws:
                opened += 1
                if opened == total:
                    ready.set()
                await ready.wait()
                try:
                    while True:
                        raw = await asyncio.wait_for(ws.recv(), 10)
                        now = time.time()
                        msg = json.loads(raw)
                        delays.append(now - msg["t"])
                        received[(group, index)].append(msg["n"])
                except TimeoutError:
                    return

        async def publish() -> None:
            await ready.wait()
            await asyncio.sleep(0.5)
            interval = 1.0 / rate if rate > 0 else 0
            start = time.monotonic()
            for n in range(messages):
                group = n % groups
                await layer.group_send(
                    f"bench-relay-{group}", {"type": "relay", "t": time.time(), "n": n}
                )
                lag = start + (n + 1) * interval - time.monotonic()
                if lag > 0:
                    await asyncio.sleep(lag)

        await asyncio.gather(
            publish(), *(sock(g, i) for g in range(groups) for i in range(PLAYERS))
        )
        expected = defaultdict(list)
        for n in range(messages):
            expected[n % groups].append(n)
        lost = dup = 0
        for (group, _), got in received.items():
            want = expected[group]
            dup += len(got) - len(set(got))
            lost += len(set(want) - set(got))
        lost += sum(
            len(expected[g])
            for g in range(groups)
            for i in range(PLAYERS)
            if (g, i) not in received
        )
        await layer.flush()
        return {"delays": delays, "lost": lost, "dup": dup}

    # --- run --------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        self.create_db()
        try:
            tables = self.tables()
            self.start_server()
            try:
                with instrument_gc_paused():
                    live = asyncio.run(self.cardroom(tables))
                rate = live["moves"] / live["seconds"] if live["seconds"] > 0 else 0
                with instrument_gc_paused():
                    floor = asyncio.run(self.floor(len(tables), live["moves"], rate))
            finally:
                self.stop_server()
            commits, final_seq = self.commit_times()
        finally:
            self.drop_db()
        delays = [
            at - commits[(t, s)] for t, s, at in live["arrivals"] if (t, s) in commits
        ]
        lost = dup = 0
        for (table_id, _), seqs in live["per_conn"].items():
            first = live["firsts"][(table_id, _)]
            want = list(range(first + 1, final_seq[table_id] + 1))
            dup += len(seqs) - len(set(seqs))
            lost += len(set(want) - set(seqs))
            if seqs != sorted(seqs):
                dup += 1  # out of order counts as a delivery fault
        result = {
            "tables": len(tables),
            "sockets": len(tables) * PLAYERS,
            "moves": live["moves"],
            "moves_per_s": round(rate, 1),
            # What one move costs the server process (every thread): steadier
            # from run to run than the latencies, which ride on the machine.
            "server_cpu_ms_per_move": (
                round(live["server_cpu_seconds"] * 1000 / live["moves"], 2)
                if live["moves"]
                else None
            ),
            "cardroom_p50_ms": round(pct(delays, 0.5) * 1000, 1),
            "cardroom_p99_ms": round(pct(delays, 0.99) * 1000, 1),
            "cardroom_frames": len(delays),
            "cardroom_lost": lost,
            "cardroom_duplicated": dup,
            "cardroom_errors": len(live["errors"]),
            "cardroom_idle_pings": live["pings"],
            "floor_p50_ms": round(pct(floor["delays"], 0.5) * 1000, 1),
            "floor_p99_ms": round(pct(floor["delays"], 0.99) * 1000, 1),
            "floor_frames": len(floor["delays"]),
            "floor_lost": floor["lost"],
            "floor_duplicated": floor["dup"],
        }
        fp99 = result["floor_p99_ms"]
        result["p99_ratio"] = (
            round(result["cardroom_p99_ms"] / fp99, 2) if fp99 else None
        )
        result["mean_cardroom_ms"] = (
            round(statistics.fmean(delays) * 1000, 1) if delays else None
        )
        return result


@contextlib.contextmanager
def instrument_gc_paused() -> Iterator[None]:
    """Keep this process's cyclic garbage collector still while it measures.

    This process is the instrument: it stamps each frame's arrival when its
    loop gets to it, so its own pauses are counted as the server's delay. Its
    heap holds every arrival of the run, and a collection of it took 20-36 ms
    (young generations) to 190 ms (a full one) in the middle of play,
    stretching the measured p99 from about 5 ms to 30-90 ms. Collected and
    frozen before, off during: reference counting still frees everything
    that is not a cycle. Both phases, Cardroom and the floor, run under it.
    """
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(f"stopped by signal {signum}")


def main() -> None:
    signal.signal(signal.SIGTERM, _stop)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=40, help="moves per table")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--server",
        choices=sorted(SERVERS),
        default="uvicorn",
        help="the ASGI server (uvicorn: as make up runs it)",
    )
    args = parser.parse_args()
    result = Bench(args).run()
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"live play: {result['tables']} tables, {result['sockets']} sockets, "
        f"{result['moves']} moves at {result['moves_per_s']}/s, "
        f"{result['server_cpu_ms_per_move']} ms of server CPU per move"
    )
    print(
        f"  cardroom: commit->frame p50 {result['cardroom_p50_ms']} ms, "
        f"p99 {result['cardroom_p99_ms']} ms over {result['cardroom_frames']} "
        f"frames; lost {result['cardroom_lost']}, duplicated "
        f"{result['cardroom_duplicated']}, errors {result['cardroom_errors']}, "
        f"idle pings {result['cardroom_idle_pings']}"
    )
    print(
        f"  floor (bare relay): p50 {result['floor_p50_ms']} ms, p99 "
        f"{result['floor_p99_ms']} ms over {result['floor_frames']} frames; lost "
        f"{result['floor_lost']}, duplicated {result['floor_duplicated']}"
    )
    print(
        f"  p99 ratio cardroom/floor: {result['p99_ratio']} (goal <= 3, and <= 60 ms)"
    )


if __name__ == "__main__":
    main()
