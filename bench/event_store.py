"""Event store speed: a move through ``action_submit`` next to what bounds it.

Usage: ``python bench/event_store.py [--game alager] [--players 2] [--json]
[--quick] [--skip-http] [--skip-eventsourcing]`` (``make bench`` runs it with
no arguments). Every figure comes from the same run, on a throwaway
PostgreSQL database, and is reported next to its baseline, because the
machine is shared and noisy: ratios measured together mean more than rates.

One client (interleaved block by block, so all see the same machine):

- **raw**: single-row ``INSERT`` commits (autocommit, psycopg) into a copy of
  ``games_gameevent`` (same columns, indexes, unique key, foreign keys; no
  trigger) with payloads from a real match: what one durable write costs.
- **floor**: the move's transaction in bare SQL (psycopg, prepared) in the
  hot path's two round trips: BEGIN with the lock of the table row and the
  read of its seats; the statement appending the event and rewriting the
  cached state with COMMIT; on copies of the tables. No Python, Django or
  rules: the ceiling for this design.
- **service**: ``games.services.action_submit`` called directly (as a Celery
  worker or a management command calls it): lock, cached state, the rules'
  decide/evolve/view, append, cache rewrite, stored command, on-commit
  notification through the configured channel layer.
- **state not in memory**: the same on another table whose decoded state
  this process forgets before each move, as happens to a move made after
  another process's (a bot's turn in a Celery worker, a person whose socket
  is on another server process): the row's JSON is read and decoded, and
  the rules run only once it has arrived.
- **eventsourcing**: the same move stream through the ``eventsourcing``
  library (``pip install -e '.[bench]'``) on PostgreSQL, one aggregate per
  table, a snapshot every 20 events: each move loads the aggregate (snapshot
  + newer events), decides with the same rules, appends, commits.
- **notification**: ``games.realtime.frames_push`` alone, as the on-commit
  hook calls it with the listeners the row lock read (none here; part of
  the service figure, shown on its own), and as it was before the lock read
  them: asking Redis who listens (``PUBSUB NUMSUB``).

Eight clients on eight tables (processes, so the GIL is not measured): raw
``INSERT`` commits over 8 connections next to the floor over 8 (each on its
own copy of the table: this design's ceiling with eight clients) and
``action_submit`` over 8, and ``action_submit`` over 8 with the on-commit
notification left out (labelled as such: the share of a move that
publishing costs today). Each client connects and makes a first request
before the clock starts (steady state, not connection set-up). With the
server on this machine, each figure comes with the CPU spent per operation
by the clients and by PostgreSQL (all its processes), and the share of the
machine the hypervisor took meanwhile (steal).

HTTP: ``POST /api/tables/{id}/actions/`` with 1 and 8 clients (processes with
keep-alive connections and API tokens) on a server this script starts on a
free port, under uvicorn (uvloop, httptools) and under daphne, next to the
direct call of the same run. Each twice: with a client that writes its
requests to the socket by hand (``RawHttpClient``, the goal's figure: what
the server costs, as a load generator would measure it) and with the
standard library's ``http.client`` (labelled), which spends about half a
millisecond of CPU a request on the same two cores. The eight-client figure
comes with how its connections fell across the server's processes: each
uvicorn worker keeps the keep-alive connections it accepted, so a split such
as 7+1 leaves one worker's Python the bottleneck while a core idles.

Growth: median time per move of the match past seq 2,000 against a fresh
match past seq 20, the two moved alternately.

Goals (issue 12): service >= 0.35 x raw at 1 and at 8 clients; service >= 2 x
eventsourcing with snapshots; HTTP >= 0.5 x the direct call; time at seq
2,000 <= 1.2 x time at seq 20.

It creates ``cardroom_bench_<pid>`` on the server named by
``BENCH_DATABASE_URL`` (default: ``DATABASE_URL``, else
``postgres://root@127.0.0.1:5432/postgres``) and drops it at the end. Without
``REDIS_URL`` the channel layer is in memory (set it to include Redis in the
notification's cost).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
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
CLIENTS = 8


def server_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL") or os.environ.get(
        "DATABASE_URL", "postgres://root@127.0.0.1:5432/postgres"
    )


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@contextlib.contextmanager
def throwaway_database(name: str) -> Iterator[str]:
    """A database called ``name`` on the bench's server (``server_url``) for
    the block: its URL. Dropped at the end, once Django's connections to it
    are closed, whatever happened."""
    server = server_url()
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_database(server, name)
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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
    """The move's transaction with no Python in it: the floor for this design.

    The statements of a move on the hot path, straight through psycopg into
    copies of the tables, prepared, in the hot path's two round trips: one
    message with BEGIN, the row lock and the seats read; one with the
    statement appending the event and rewriting the cached state, and
    COMMIT. ``service / floor`` is what the Python costs, ``floor / raw``
    what the transaction's shape costs on this machine.
    """

    def __init__(
        self,
        url: str,
        table_id: int,
        state: Any,
        payload: dict[str, Any],
        seq: int = 0,
    ) -> None:
        self.conn = psycopg.connect(url, autocommit=True)
        self.table_id = table_id
        self.state = json.dumps(state)
        self.payload = json.dumps(payload)
        self.conn.execute(
            "PREPARE floor_lock AS "
            "SELECT * FROM bench_floor_table WHERE id = $1 FOR UPDATE"
        )
        self.conn.execute(
            'PREPARE floor_seats AS SELECT id, "index", user_id, bot_level '
            "FROM bench_floor_seat WHERE table_id = $1"
        )
        self.conn.execute(
            "PREPARE floor_write AS "
            "WITH e AS (INSERT INTO bench_floor_event "
            "(table_id, seq, type, version, payload, seat, created_at) "
            "VALUES ($1, $2, 'alager.bench', 1, $3::jsonb, 0, now()) "
            "RETURNING 1) "
            "UPDATE bench_floor_table SET seq = $2, state = $4::text, "
            "updated_at = now() WHERE id = $1"
        )
        self.cursor = psycopg.ClientCursor(self.conn)
        self.seq = seq
        self.times: list[float] = []

    @staticmethod
    def tables(url: str, table_id: int, copies: int) -> list[int]:
        """Copy the table ``table_id`` and its seats ``copies`` times into the
        floor's own tables (ids 1, 2, ...); returns their ids."""
        with psycopg.connect(url, autocommit=True) as conn:
            for name, like in (
                ("bench_floor_table", "games_table"),
                ("bench_floor_event", "games_gameevent"),
                ("bench_floor_seat", "games_seat"),
            ):
                conn.execute(f"DROP TABLE IF EXISTS {name}")
                conn.execute(f"CREATE TABLE {name} (LIKE {like} INCLUDING ALL)")
            conn.execute(
                "INSERT INTO bench_floor_table SELECT (jsonb_populate_record("
                "NULL::bench_floor_table, to_jsonb(t) || jsonb_build_object("
                "'id', k))).* FROM games_table t, generate_series(1, %s) k "
                "WHERE t.id = %s",
                (copies, table_id),
            )
            conn.execute(
                "INSERT INTO bench_floor_seat SELECT (jsonb_populate_record("
                "NULL::bench_floor_seat, to_jsonb(s) || jsonb_build_object("
                "'id', s.id * 1000 + k, 'table_id', k))).* FROM games_seat s, "
                "generate_series(1, %s) k WHERE s.table_id = %s",
                (copies, table_id),
            )
        return list(range(1, copies + 1))

    def run(self, count: int) -> None:
        cursor = self.cursor
        for _ in range(count):
            self.seq += 1
            started = time.perf_counter()
            cursor.execute(
                "BEGIN; EXECUTE floor_lock(%(table)s); EXECUTE floor_seats(%(table)s)",
                {"table": self.table_id},
            )
            cursor.nextset()
            cursor.fetchone()
            cursor.nextset()
            cursor.fetchall()
            cursor.execute(
                "EXECUTE floor_write(%s, %s, %s, %s); COMMIT",
                (self.table_id, self.seq, self.payload, self.state),
            )
            self.times.append(time.perf_counter() - started)

    def close(self) -> None:
        self.conn.close()


class Match:
    """One table played through ``action_submit`` with the recorded moves."""

    def __init__(
        self,
        args: argparse.Namespace,
        tag: str,
        moves: list[tuple[int, dict[str, Any]]],
    ) -> None:
        from accounts.models import User
        from accounts.services import token_get_or_create
        from games.services import table_create, table_join, table_start

        self.people = [
            User.objects.create_user(username=f"{tag}{i}") for i in range(args.players)
        ]
        self.tokens = [token_get_or_create(user=p) for p in self.people]
        self.table = table_create(
            user=self.people[0],
            game=args.game,
            players=args.players,
            options=OPTIONS[args.game],
        )
        for seat, person in enumerate(self.people[1:], start=1):
            table_join(table_id=self.table.pk, user=person, seat=seat)
        table_start(table_id=self.table.pk, user=self.people[0], seed=SEED)
        self.table_id = self.table.pk
        self.moves = moves
        self.next = 0
        self.seq = 0

    def play(self) -> float:
        """Play the next move by calling ``action_submit``; return its seconds."""
        from games.services import action_submit

        seat, action = self.moves[self.next]
        started = time.perf_counter()
        result = action_submit(
            table_id=self.table_id,
            user=self.people[seat],
            action=action,
            expected_seq=self.seq or None,
            command_id=f"m{self.next}",
        )
        elapsed = time.perf_counter() - started
        self.seq = result["seq"]
        self.next += 1
        return elapsed


class HttpClient:
    """Moves of one table by ``POST /api/tables/{id}/actions/`` (keep-alive),
    through the standard library's ``http.client``."""

    def __init__(self, port: int, match: Match) -> None:
        self.port = port
        self.match = match
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def next_request(self) -> tuple[str, bytes, dict[str, str]]:
        """The path, body and headers of the table's next move."""
        match = self.match
        seat, action = match.moves[match.next]
        body = json.dumps(
            {
                "action": action,
                "expected_seq": match.seq or None,
                "command_id": f"m{match.next}",
            }
            if match.seq
            else {"action": action, "command_id": f"m{match.next}"}
        ).encode()
        headers = {
            "Authorization": f"Token {match.tokens[seat]}",
            "Content-Type": "application/json",
        }
        return f"/api/tables/{match.table_id}/actions/", body, headers

    def exchange(self, path: str, body: bytes, headers: dict[str, str]) -> bytes:
        """Send one request; its answer's body (an error unless 200)."""
        self.conn.request("POST", path, body, headers)
        response = self.conn.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}: {data[:300]!r}")
        return data

    def play(self) -> float:
        request = self.next_request()
        started = time.perf_counter()
        data = self.exchange(*request)
        elapsed = time.perf_counter() - started
        self.match.seq = json.loads(data)["seq"]
        self.match.next += 1
        return elapsed

    def close(self) -> None:
        self.conn.close()


class RawHttpClient(HttpClient):
    """The same requests written to the socket by hand, reading only the
    status line, ``Content-Length`` and the body: a load generator's few
    microseconds a request, where ``http.client`` spends about half a
    millisecond of CPU (its header parsing), on the same two cores as the
    server."""

    def __init__(self, port: int, match: Match) -> None:
        self.port = port
        self.match = match
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.unread = b""

    def exchange(self, path: str, body: bytes, headers: dict[str, str]) -> bytes:
        head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "".join(
            f"{name}: {value}\r\n" for name, value in headers.items()
        )
        self.sock.sendall(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
        data = self.unread
        while (end := data.find(b"\r\n\r\n")) < 0:
            data += self._recv()
        head_bytes, data = data[:end].lower(), data[end + 4 :]
        status = int(head_bytes[9:12])
        at = head_bytes.index(b"\r\ncontent-length:") + 17
        line_end = head_bytes.find(b"\r\n", at)
        length = int(head_bytes[at : line_end if line_end >= 0 else None])
        while len(data) < length:
            data += self._recv()
        answer, self.unread = data[:length], data[length:]
        if status != 200:
            raise RuntimeError(f"HTTP {status}: {answer[:300]!r}")
        return answer

    def close(self) -> None:
        self.sock.close()

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise RuntimeError("the server closed the connection")
        return chunk


# ------------------------------------------------------------ eventsourcing


def eventsourcing_factory(game_name: str, url: str) -> Callable[[], Any] | None:
    """A player of the move stream through the eventsourcing library, or None.

    One aggregate per match holding the rules' state; a snapshot every 20
    events (the state encoded as the table's cache is, ``rules.codec.dump``).
    """
    try:
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event
        from eventsourcing.persistence import Transcoding
    except ImportError:
        return None
    from games.state_codec import json_value
    from rules.codec import dump as state_dump

    game = rules.get_game(game_name)
    parts = urlsplit(url)

    class StateAsJson(Transcoding):
        type = game.state_type
        name = f"{game_name}_state"

        def encode(self, obj: Any) -> Any:
            return state_dump(obj)

        def decode(self, data: Any) -> Any:
            return game.load_state(data)

    class EsMatch(Aggregate):
        @event("Started")
        def __init__(self, events: list[dict[str, Any]]) -> None:
            self.state = game.replay([rules.Event.from_json(e) for e in events])

        @event("Moved")
        def moved(self, events: list[dict[str, Any]]) -> None:
            for e in events:
                self.state = game.evolve(self.state, rules.Event.from_json(e))

    class Tables(Application[Any]):
        snapshotting_intervals = {EsMatch: 20}  # noqa: RUF012

        def register_transcodings(self, transcoder: Any) -> None:
            super().register_transcodings(transcoder)
            transcoder.register(StateAsJson())

    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": parts.path.lstrip("/"),
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": parts.username or "root",
        "POSTGRES_PASSWORD": parts.password or "",
        "CREATE_TABLE": "y",
    }

    def plain(events: list[rules.Event]) -> list[dict[str, Any]]:
        return [json_value(json.dumps(e.to_json())) for e in events]

    def start(moves: list[tuple[int, dict[str, Any]]]) -> Callable[[], float]:
        app = Tables(env=env)
        opening = game.start(
            players=len({seat for seat, _ in moves[:50]}) or 2,
            options=OPTIONS[game_name],
            seed=SEED,
        )
        aggregate = EsMatch(plain(opening))
        app.save(aggregate)
        cursor = iter(moves)

        def play() -> float:
            seat, action = next(cursor)
            started = time.perf_counter()
            match = app.repository.get(aggregate.id)
            match.moved(plain(game.decide(match.state, seat, action)))
            app.save(match)
            return time.perf_counter() - started

        return play

    return start  # type: ignore[return-value]


# ------------------------------------------------------------ processes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


#: A client of the eight: made in its own process before the clock starts
#: (connected, and warmed by a first request where that matters), it then
#: runs its share and returns how many operations it did.
Job = Callable[[], Callable[[], int]]


def in_processes(
    jobs: list[Job],
    cpu: dict[str, float] | None = None,
    ready_hook: Callable[[], None] | None = None,
) -> float:
    """Run each job in its own forked process at once; operations per second.

    Each child sets up (connects, warms) before the clock starts, so the
    figure is steady-state throughput, as a long-running worker sees it, not
    connection set-up. ``cpu``, when given, receives the CPU seconds the
    clients (each measuring its own) and PostgreSQL (``CpuMeter``) spent
    while the clock ran. ``ready_hook`` runs once every child has set up,
    before the clock starts.
    """
    from django.db import connections

    connections.close_all()  # each child opens its own connection
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Barrier(len(jobs) + 1)
    go = ctx.Barrier(len(jobs) + 1)
    done = ctx.Queue()

    def child(job: Job) -> None:
        try:
            run = job()
        except BaseException as exc:  # report, never hang the parent
            ready.abort()
            done.put(("error", repr(exc)))
            raise
        ready.wait()
        go.wait()
        try:
            started = time.process_time()
            count = run()
            # This process's CPU while the clock ran (not its set-up).
            done.put(("ok", count, time.process_time() - started))
        except BaseException as exc:
            done.put(("error", repr(exc)))
        finally:
            connections.close_all()

    procs = [ctx.Process(target=child, args=(job,)) for job in jobs]
    for proc in procs:
        proc.start()
    try:
        ready.wait(timeout=300)
    except threading.BrokenBarrierError:
        results = [done.get(timeout=60)]
    else:
        if ready_hook is not None:
            ready_hook()
        meter = CpuMeter()
        go.wait()
        started = time.perf_counter()
        results = [done.get(timeout=300) for _ in procs]
        elapsed = time.perf_counter() - started
    for proc in procs:
        proc.join()
    errors = [r[1] for r in results if r[0] != "ok"]
    if errors:
        raise RuntimeError(f"a client failed: {errors[0]}")
    if cpu is not None:
        cpu.update(meter.spent(), clients=sum(r[2] for r in results))
    return sum(r[1] for r in results) / elapsed


class CpuMeter:
    """CPU seconds spent from now on by the PostgreSQL server when it runs on
    this machine (every process of its cluster, those that exited included),
    and the share of the machine's time the hypervisor took (steal). The
    clients report their own (``in_processes``)."""

    def __init__(self) -> None:
        self.postmaster = _postmaster_pid()
        self.start = self._read()

    def _read(self) -> dict[str, float]:
        out: dict[str, float] = {}
        if self.postmaster is not None:
            out["postgresql"] = _cluster_cpu(self.postmaster)
        with open("/proc/stat") as stat:
            ticks = [int(v) for v in stat.readline().split()[1:9]]
        out["_all"], out["_steal"] = sum(ticks), ticks[7]
        return out

    def spent(self) -> dict[str, float]:
        if self.postmaster is not None:
            _backends_gone()
        end = self._read()
        out = {k: end[k] - self.start[k] for k in end if not k.startswith("_")}
        all_ticks = end["_all"] - self.start["_all"]
        out["steal"] = (end["_steal"] - self.start["_steal"]) / max(all_ticks, 1)
        return out


def _postmaster_pid() -> int | None:
    """The local PostgreSQL server's main process, or None when it is not
    on this machine (its CPU is then not measured)."""
    url = os.environ["DATABASE_URL"]
    if urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1", None):
        return None
    try:
        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT pg_backend_pid()").fetchone()
            # Read while the backend lives: it exits once the connection closes.
            with open(f"/proc/{row[0]}/status") as status:  # type: ignore[index]
                ppid = next(
                    int(line.split()[1]) for line in status if line.startswith("PPid:")
                )
        with open(f"/proc/{ppid}/comm") as comm:
            return ppid if comm.read().strip() == "postgres" else None
    except (OSError, psycopg.Error, StopIteration):
        return None


def _cluster_cpu(postmaster: int) -> float:
    """CPU seconds of the server: the postmaster with its exited children,
    and every live child."""
    tick = os.sysconf("SC_CLK_TCK")

    def fields(pid: int | str) -> list[str]:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()

    total = sum(int(v) for v in fields(postmaster)[11:15])
    with open(f"/proc/{postmaster}/task/{postmaster}/children") as kids:
        for pid in kids.read().split():
            # One that exited meanwhile is counted in the postmaster's next read.
            with contextlib.suppress(OSError):
                total += sum(int(v) for v in fields(pid)[11:13])
    return total / tick


def _backends_gone(timeout: float = 5.0) -> None:
    """Wait until the clients' backends have exited (and been counted)."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                "current_database() AND pid <> pg_backend_pid() "
                "AND backend_type = 'client backend'"
            ).fetchone()
            if row is not None and row[0] == 0:
                break
            time.sleep(0.02)
    time.sleep(0.05)  # the postmaster reaps them


def raw_job(url: str, table_id: int, actor_id: int, base: int, count: int) -> Job:
    sql = (
        "INSERT INTO bench_raw_event (table_id, seq, type, version, "
        "payload, actor_id, seat, created_at) VALUES "
        "(%s, %s, 'alager.bench', 1, '{\"seat\": 0}', %s, 0, now())"
    )

    def job() -> Callable[[], int]:
        conn = psycopg.connect(url, autocommit=True)
        conn.execute(sql, (table_id, base, actor_id))  # warm

        def run() -> int:
            with conn:
                for i in range(1, count + 1):
                    conn.execute(sql, (table_id, base + i, actor_id))
            return count

        return run

    return job


def floor_job(
    url: str, table_id: int, state: Any, payload: dict[str, Any], count: int, seq: int
) -> Job:
    def job() -> Callable[[], int]:
        floor = SqlFloor(url, table_id, state, payload, seq=seq)
        floor.run(1)  # warm

        def run() -> int:
            floor.run(count)
            floor.close()
            return count

        return run

    return job


def service_job(match: Match, count: int, notify: bool = True) -> Job:
    def job() -> Callable[[], int]:
        if not notify:  # only in this child process
            from games import realtime

            realtime.table_changed = lambda table_id, seq, *, seats=False: None  # type: ignore[assignment]
            realtime.frames_push = lambda *args, **kwargs: None  # type: ignore[assignment]
        match.play()  # warm: the connection, its prepared statements, the memo

        def run() -> int:
            for _ in range(count):
                match.play()
            return count

        return run

    return job


def http_job(
    port: int, match: Match, count: int, client_class: type[HttpClient]
) -> Job:
    def job() -> Callable[[], int]:
        client = client_class(port, match)
        client.play()  # warm: the keep-alive connection, the server's thread

        def run() -> int:
            for _ in range(count):
                client.play()
            return count

        return run

    return job


#: How the bench starts each server: uvicorn exactly as ``make up`` and the
#: containers do (``scripts/web.sh``), daphne as ``make run`` does.
SERVERS = {
    "uvicorn": ["scripts/web.sh"],
    "daphne": [
        "{bin}/daphne",
        "--bind",
        "127.0.0.1",
        "--port",
        "{port}",
        "config.asgi:application",
    ],
}


class Server:
    """An ASGI server on a free port, with the bench database."""

    def __init__(self, kind: str, url: str) -> None:
        self.port = free_port()
        bin_dir = Path(sys.executable).parent
        argv = [a.format(port=self.port, bin=bin_dir) for a in SERVERS[kind]]
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "DEBUG": "false",
            "CARDROOM_ENV_FILE": os.devnull,
            "DB_POOL": "true",
            # The throttle runs but does not refuse the bench's clients.
            "THROTTLE_USER_RATE": "1000000/minute",
            "BIN": str(bin_dir),
            "PORT": str(self.port),
            "LOG_LEVEL": "WARNING",  # both log every request at INFO
        }
        self.proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
                conn.getresponse().read()
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.close()
                    raise RuntimeError(f"{kind} did not start") from None
                time.sleep(0.2)

    def connections_per_worker(self) -> list[int]:
        """How the clients' open connections fall across the server's
        processes, most first: uvicorn's workers (each accepts connections
        from the one listening socket, and a keep-alive connection stays
        where it landed), or daphne's one process. Empty where ``/proc``
        cannot tell (another OS)."""
        try:
            with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as kids:
                children = [int(pid) for pid in kids.read().split()]
            workers = [pid for pid in children if b"spawn_main" in _cmdline(pid)] or [
                self.proc.pid
            ]
            established = _established_sockets(self.port)
            counts = []
            for pid in workers:
                fds = Path(f"/proc/{pid}/fd")
                links = {os.readlink(fd) for fd in fds.iterdir()}
                counts.append(sum(f"socket:[{i}]" in links for i in established))
        except OSError:
            return []
        return sorted(counts, reverse=True)

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _split_note(server: Server, into: list[int]) -> None:
    into.extend(server.connections_per_worker())


def _cmdline(pid: int) -> bytes:
    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
        return cmdline.read()


def _established_sockets(port: int) -> set[str]:
    """The inodes of established TCP sockets whose local port is ``port``."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as rows:
            next(rows)  # the header
            for row in rows:
                fields = row.split()
                local, state, inode = fields[1], fields[3], fields[9]
                if state == "01" and int(local.rsplit(":", 1)[1], 16) == port:
                    inodes.add(inode)
    return inodes


# ------------------------------------------------------------ the run


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="alager", choices=sorted(OPTIONS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--raw", type=int, default=3000, help="raw INSERT commits")
    parser.add_argument("--window", type=int, default=150, help="moves per window")
    parser.add_argument("--blocks", type=int, default=10, help="interleaved blocks")
    parser.add_argument(
        "--per-client", type=int, default=250, help="moves per client (8 clients)"
    )
    parser.add_argument("--quick", action="store_true", help="fewer of everything")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--skip-eventsourcing", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.raw, args.blocks, args.window, args.per_client = 1200, 4, 80, 100

    moves = record(args.game, args.players, min_seq=2000 + 3 * args.window)
    with throwaway_database(f"cardroom_bench_{os.getpid()}") as url:
        return run(args, moves, url)


def rate(times: list[float]) -> float:
    return len(times) / sum(times)


def run(
    args: argparse.Namespace, moves: list[tuple[int, dict[str, Any]]], url: str
) -> dict[str, Any]:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("CARDROOM_ENV_FILE", os.devnull)
    os.environ.setdefault("DEBUG", "false")  # no query log growing in memory
    # This process and its forked clients each hold one connection for the
    # whole run (no request ends to return it): no pool, whose threads a
    # forked child would not have. The servers below keep the default pool.
    os.environ["DB_POOL"] = "false"
    import django

    django.setup()
    from django.core.management import call_command

    from games import event_store, realtime
    from games.state_cache import state_forget

    call_command("migrate", verbosity=0)
    out: dict[str, Any] = {
        "game": args.game,
        "players": args.players,
        "channel_layer": "redis" if os.environ.get("REDIS_URL") else "in-memory",
    }
    long = Match(args, "long", moves)
    payloads = [e.payload for e in event_store.load_events(long.table)][1:] or [{}]
    raw = RawInserts(url, payloads, long.table_id, long.people[0].pk)
    long.table.refresh_from_db()
    floor_ids = SqlFloor.tables(url, long.table_id, CLIENTS)
    floor = SqlFloor(url, floor_ids[0], long.table.state, payloads[0])
    es_start = (
        None if args.skip_eventsourcing else eventsourcing_factory(args.game, url)
    )
    es_play = es_start(moves) if es_start else None
    es_times: list[float] = []
    notify: list[float] = []
    notify_asking: list[float] = []

    # 1. One client: raw, floor, service, eventsourcing, block by block; and
    #    the service on a table whose state this process does not remember,
    #    as for a move after another process's (a bot's turn in a Celery
    #    worker, a seat on another server process).
    service: list[float] = []
    cold = Match(args, "cold", moves)
    cold_times: list[float] = []
    per_block = args.raw // args.blocks
    for block in range(args.blocks):
        raw.run(per_block)
        floor.run(per_block)
        while long.seq < 2000 * (block + 1) // args.blocks:
            service.append(long.play())
        for _ in range(per_block // 3):
            state_forget(cold.table_id)
            cold_times.append(cold.play())
        if es_play is not None:
            es_times.extend(es_play() for _ in range(per_block // 6))
        for _ in range(per_block // 6):
            # What the on-commit hook costs the mover's thread: with the
            # registered listeners the lock read (nobody), and asking Redis.
            started = time.perf_counter()
            realtime.frames_push(
                long.table_id, [0, 1, None], lambda only: [], listening=frozenset()
            )
            notify.append(time.perf_counter() - started)
            started = time.perf_counter()
            realtime.frames_push(long.table_id, [0, 1, None], lambda only: [])
            notify_asking.append(time.perf_counter() - started)
    raw.close()
    floor.close()
    raw_rate, floor_rate, service_rate = (
        rate(raw.times),
        rate(floor.times),
        rate(service),
    )
    out.update(
        raw_per_second=round(raw_rate, 1),
        raw_ms_median=round(statistics.median(raw.times) * 1000, 3),
        floor_per_second=round(floor_rate, 1),
        floor_ratio=round(floor_rate / raw_rate, 3),
        service_per_second=round(service_rate, 1),
        service_ms_median=round(statistics.median(service) * 1000, 3),
        service_ratio=round(service_rate / raw_rate, 3),
        service_to_floor=round(service_rate / floor_rate, 3),
        cold_per_second=round(rate(cold_times), 1),
        cold_ms_median=round(statistics.median(cold_times) * 1000, 3),
        cold_ratio=round(rate(cold_times) / raw_rate, 3),
        notification_ms_median=round(statistics.median(notify) * 1000, 3),
        notification_asking_ms_median=round(statistics.median(notify_asking) * 1000, 3),
    )
    if es_times:
        es_rate = rate(es_times)
        out.update(
            eventsourcing_per_second=round(es_rate, 1),
            eventsourcing_ms_median=round(statistics.median(es_times) * 1000, 3),
            service_to_eventsourcing=round(service_rate / es_rate, 2),
        )

    # 2. Growth: moves near seq 2,000 alternating with moves near seq 20.
    short = Match(args, "short", moves)
    while short.seq < 20:
        short.play()
    early, late = [], []
    for _ in range(args.window):
        late.append(long.play())
        early.append(short.play())
    # Each late move is timed next to an early one: the median of the pairs'
    # ratios cancels most of the machine's drift.
    out.update(
        ms_near_seq_20=round(statistics.median(early) * 1000, 3),
        ms_near_seq_2000=round(statistics.median(late) * 1000, 3),
        growth=round(
            statistics.median(b / a for a, b in zip(early, late, strict=True)), 3
        ),
    )

    # 3. Eight clients on eight tables: raw, floor, service, quiet service,
    #    twice, each with the CPU it spent.
    n = args.per_client
    runs: dict[str, list[float]] = {
        "raw8": [],
        "floor8": [],
        "service8": [],
        "quiet8": [],
    }
    cpu8: dict[str, list[dict[str, float]]] = {k: [] for k in runs}

    def eight(kind: str, jobs: list[Job], ops: int) -> None:
        cpu: dict[str, float] = {}
        runs[kind].append(in_processes(jobs, cpu))
        cpu8[kind].append({k: v / ops if k != "steal" else v for k, v in cpu.items()})

    for rnd in range(2):
        base = 10_000_000 * (rnd + 1)
        eight(
            "raw8",
            [
                raw_job(
                    url, long.table_id, long.people[0].pk, base + 100_000 * c, n * 4
                )
                for c in range(CLIENTS)
            ],
            CLIENTS * n * 4,
        )
        eight(
            "floor8",
            [
                floor_job(
                    url,
                    table_id,
                    long.table.state,
                    payloads[0],
                    n * 2,
                    base + 100_000 * table_id,
                )
                for table_id in floor_ids
            ],
            CLIENTS * n * 2,
        )
        tables = [Match(args, f"c{rnd}x{c}", moves) for c in range(CLIENTS)]
        eight("service8", [service_job(t, n) for t in tables], CLIENTS * n)
        # The same without the on-commit notification: what publishing costs.
        tables = [Match(args, f"q{rnd}x{c}", moves) for c in range(CLIENTS)]
        eight("quiet8", [service_job(t, n, False) for t in tables], CLIENTS * n)

    def ratio(kind: str, base: str = "raw8") -> float:
        pairs = zip(runs[kind], runs[base], strict=True)
        return round(statistics.median(a / b for a, b in pairs), 3)

    out.update(
        raw8_per_second=round(statistics.median(runs["raw8"]), 1),
        floor8_per_second=round(statistics.median(runs["floor8"]), 1),
        floor8_ratio=ratio("floor8"),
        service8_per_second=round(statistics.median(runs["service8"]), 1),
        service8_ratio=ratio("service8"),
        service8_to_floor8=ratio("service8", "floor8"),
        service8_no_notification_per_second=round(statistics.median(runs["quiet8"]), 1),
        service8_no_notification_ratio=ratio("quiet8"),
    )
    # CPU per operation while the clock ran (medians of the two rounds), in
    # ms: the clients' processes, and PostgreSQL when it runs here.
    for kind, spent in cpu8.items():
        for part in spent[0]:
            value = statistics.median(s[part] for s in spent)
            out[f"{kind}_cpu_{part}" + ("" if part == "steal" else "_ms")] = round(
                value * (1 if part == "steal" else 1000), 3
            )

    # 4. HTTP, each server next to a direct run of the same size, with each
    #    client: the hand-written one (the goal's figure: what the server
    #    costs) and http.client (what a plain Python client gets).
    clients: dict[str, type[HttpClient]] = {
        "": RawHttpClient,
        "_httpclient": HttpClient,
    }
    if not args.skip_http:
        for kind in SERVERS:
            srv = Server(kind, url)
            try:
                for suffix, client_class in clients.items():
                    one = Match(args, f"{kind}1{suffix}", moves)
                    client = client_class(srv.port, one)
                    for _ in range(10):  # warm the server's connections and memo
                        client.play()
                    direct_one = Match(args, f"{kind}d{suffix}", moves)
                    http1, direct1 = [], []
                    for _ in range(n):
                        http1.append(client.play())
                        direct1.append(direct_one.play())
                    client.close()
                    # Eight clients over HTTP right after eight direct ones,
                    # so that the ratio compares the same minute's machine.
                    tables = [
                        Match(args, f"{kind}8d{c}{suffix}", moves)
                        for c in range(CLIENTS)
                    ]
                    direct8 = in_processes([service_job(t, n) for t in tables])
                    tables = [
                        Match(args, f"{kind}8x{c}{suffix}", moves)
                        for c in range(CLIENTS)
                    ]
                    # Where the eight connections landed, once all are open.
                    split: list[int] = []
                    http8 = in_processes(
                        [http_job(srv.port, t, n, client_class) for t in tables],
                        ready_hook=partial(_split_note, srv, split),
                    )
                    key = f"http_{kind}{suffix}"
                    out[f"{key}_1_per_second"] = round(rate(http1), 1)
                    out[f"{key}_1_ms_median"] = round(
                        statistics.median(http1) * 1000, 3
                    )
                    out[f"{key}_1_ratio"] = round(
                        statistics.median(
                            d / h for d, h in zip(direct1, http1, strict=True)
                        ),
                        3,
                    )
                    out[f"{key}_8_per_second"] = round(http8, 1)
                    out[f"{key}_8_direct_per_second"] = round(direct8, 1)
                    out[f"{key}_8_ratio"] = round(http8 / direct8, 3)
                    out[f"{key}_8_connections"] = split
            finally:
                srv.close()

    report(out)
    if args.json:
        print(json.dumps(out))
    return out


def report(out: dict[str, Any]) -> None:
    print(
        f"{out['game']}, {out['players']} players "
        f"(channel layer: {out['channel_layer']})"
    )
    print("1 client:")
    print(
        f"  raw INSERT commits      {out['raw_per_second']:>8,.0f}/s "
        f"(median {out['raw_ms_median']:.2f} ms)"
    )
    print(
        f"  bare-SQL move (floor)   {out['floor_per_second']:>8,.0f}/s "
        f"{out['floor_ratio']:.2f} x raw"
    )
    print(
        f"  action_submit           {out['service_per_second']:>8,.0f}/s "
        f"{out['service_ratio']:.2f} x raw (goal >= 0.35), "
        f"{out['service_to_floor']:.2f} x floor, "
        f"median {out['service_ms_median']:.2f} ms"
    )
    print(
        f"  action_submit, state not in memory {out['cold_per_second']:,.0f}/s "
        f"{out['cold_ratio']:.2f} x raw, median {out['cold_ms_median']:.2f} ms "
        "(a move after another process's)"
    )
    if "eventsourcing_per_second" in out:
        print(
            f"  eventsourcing, snapshots every 20 "
            f"{out['eventsourcing_per_second']:,.0f}/s (median "
            f"{out['eventsourcing_ms_median']:.2f} ms): action_submit "
            f"{out['service_to_eventsourcing']:.2f} x (goal >= 2)"
        )
    print(
        f"  notification alone: median {out['notification_ms_median']:.3f} ms "
        f"(asking Redis who listens: {out['notification_asking_ms_median']:.3f} ms)"
    )
    print(
        f"8 clients: raw {out['raw8_per_second']:,.0f}/s, floor "
        f"{out['floor8_per_second']:,.0f}/s ({out['floor8_ratio']:.2f} x raw), "
        f"action_submit {out['service8_per_second']:,.0f}/s -> "
        f"{out['service8_ratio']:.2f} x raw (goal >= 0.35), "
        f"{out['service8_to_floor8']:.2f} x floor"
    )
    print(
        f"  without the notification: action_submit "
        f"{out['service8_no_notification_per_second']:,.0f}/s -> "
        f"{out['service8_no_notification_ratio']:.2f} x raw"
    )
    if "raw8_cpu_postgresql_ms" in out:
        parts = ", ".join(
            f"{label} {out[f'{kind}_cpu_clients_ms']:.2f} + "
            f"{out[f'{kind}_cpu_postgresql_ms']:.2f} ms"
            for kind, label in (
                ("raw8", "raw"),
                ("floor8", "floor"),
                ("service8", "action_submit"),
            )
        )
        print(
            f"  CPU per operation, clients + PostgreSQL: {parts} "
            f"(hypervisor steal {out['service8_cpu_steal']:.0%} of the machine)"
        )
    for kind in SERVERS:
        for suffix, label in (("", "(goal >= 0.5)"), ("_httpclient", "http.client")):
            key = f"http_{kind}{suffix}"
            if f"{key}_1_per_second" in out:
                split = "+".join(map(str, out.get(f"{key}_8_connections", [])))
                print(
                    f"HTTP {kind}: 1 client {out[f'{key}_1_per_second']:,.0f}/s "
                    f"(median {out[f'{key}_1_ms_median']:.2f} ms, "
                    f"{out[f'{key}_1_ratio']:.2f} x direct); 8 clients "
                    f"{out[f'{key}_8_per_second']:,.0f}/s "
                    f"({out[f'{key}_8_ratio']:.2f} x direct, "
                    f"{out[f'{key}_8_direct_per_second']:,.0f}/s just before"
                    + (f"; connections per process {split}" if split else "")
                    + f") {label}"
                )
    print(
        f"growth: median {out['ms_near_seq_20']:.2f} ms near seq 20, "
        f"{out['ms_near_seq_2000']:.2f} ms near seq 2,000 -> "
        f"{out['growth']:.2f} x (goal <= 1.2)"
    )


if __name__ == "__main__":
    main()
