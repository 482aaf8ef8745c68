"""``config.db``: the hot path's psycopg handle, its two round trips per move
(``BEGIN`` with the lock and reads, ``COMMIT`` with the write), its prepared
statements, and pools across ``fork``."""

import re
import tempfile
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import DataError as DjangoDataError
from django.db import OperationalError, connection, transaction
from django.db import ProgrammingError as DjangoProgrammingError
from psycopg import IsolationLevel, pq
from psycopg.pq import TransactionStatus

import rules
from accounts.models import User
from config import db
from games.errors import ConcurrencyConflict
from games.models import GameEvent, ProcessedCommand, SeatTimeout, Table
from games.services import action_submit
from games.services.actions import move_apply
from games.services.locking import person_seat, table_lock_seats
from games.state_cache import state_known
from tests.accounts.factories import UserFactory
from tests.games.tables import seat_users, table_started
from tests.helpers import pooled_test_database_env, run_django_json

FORK = """
import json, os
from django.db import connection

def backend():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]

before = backend()  # opens this process's pool
connection.close()  # back to the pool, as at the end of a request
read, write = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(read)
    os.write(write, json.dumps(backend()).encode())
    connection.close()
    os._exit(0)
os.close(write)
os.waitpid(pid, 0)
child = json.loads(os.read(read, 100))
after = backend()
print(json.dumps({
    "pooled": connection.pool is not None,
    "child_has_its_own": child not in (before, after),
}))
"""


@pytest.mark.timeout(60)
@pytest.mark.django_db
def test_a_forked_child_gets_a_pool_of_its_own() -> None:
    _url, env = pooled_test_database_env()

    result = run_django_json("import config.db\n" + FORK, env)

    # Without config.db's fork hook the child would borrow the parent's idle
    # pooled connection: one socket, two processes.
    assert result == {
        "pooled": True,
        "child_has_its_own": True,
    }


# ------------------------------------------------------------ a move's round trips

GAME = rules.get_game("alkort")


def _moves(table: Table) -> Iterator[tuple[User, dict[str, Any]]]:
    """The next person to act and a legal action, move after move."""
    while True:
        fresh = Table.objects.get(pk=table.pk)
        state = GAME.load_state(fresh.state)
        seat = GAME.to_act(state)[0]
        yield seat_users(fresh)[seat], GAME.legal_actions(state, seat)[0]


def _pg_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the hot path's own statements are PostgreSQL's")


@pytest.fixture
def table() -> Table:
    return table_started(seating=[UserFactory(), UserFactory()])


@pytest.mark.django_db(transaction=True)
def test_a_move_takes_two_round_trips(table: Table) -> None:
    """``BEGIN``, the lock and the reads in one; the write and ``COMMIT`` in
    the other (docs/event-store.md): each psycopg wait is one round trip."""
    _pg_only()
    moves = _moves(table)
    user, action = next(moves)
    action_submit(table_id=table.pk, user=user, action=action)  # prepares
    user, action = next(moves)
    pg = connection.connection
    with tempfile.TemporaryFile("w+") as trace:
        pg.pgconn.trace(trace.fileno())
        pg.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            result = action_submit(
                table_id=table.pk, user=user, action=action, command_id="two-trips"
            )
        finally:
            pg.pgconn.untrace()
        trace.seek(0)
        messages = re.split(r"^(?=[FB]\t\d+\t)", trace.read(), flags=re.M)
    # What the client sent that the server answers: one message each way.
    trips = [
        m.split("\t", 3)[3].strip()
        for m in messages
        if m.startswith("F\t") and m.split("\t")[2] in ("Query", "Sync")
    ]
    assert len(trips) == 2, trips
    assert (
        trips[0].startswith('"BEGIN;') and "EXECUTE cardroom_table_lock(" in (trips[0])
    )
    assert "EXECUTE cardroom_append_with_projection(" in trips[1]
    assert trips[1].endswith(';\nCOMMIT"')
    assert result["seq"] == Table.objects.get(pk=table.pk).seq
    assert ProcessedCommand.objects.filter(command_id="two-trips").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_is_committed_with_its_write_and_its_hooks_run(table: Table) -> None:
    _pg_only()
    user, action = next(_moves(table))
    ran: list[int] = []
    with transaction.atomic():
        table_now, seats, _ = table_lock_seats(table.pk)
        transaction.on_commit(lambda: ran.append(1))
        _move_ending_the_block(table_now, seats, user, action)
        # Committed already: another connection sees the move.
        assert _seq_elsewhere(table.pk) == table_now.seq
        assert ran == []
    assert ran == [1]  # Django ran the block's hooks on leaving it
    pg = connection.connection
    assert pg.pgconn.transaction_status == TransactionStatus.IDLE
    assert pg.autocommit and connection.get_autocommit()
    assert state_known(table.pk) == (table_now.seq, table_now.seed_sha256)
    # The connection goes on as usual.
    user, action = next(_moves(table))
    assert action_submit(table_id=table.pk, user=user, action=action)["seq"] > (
        table_now.seq
    )


def _move_ending_the_block(
    table: Table, seats: list[Any], user: User, action: dict[str, Any]
) -> None:
    """``move_apply`` as ``action_submit`` calls it: the block's last work."""
    move_apply(
        table=table,
        seats=seats,
        seat=person_seat(seats, user, table).index,
        actor_id=user.pk,
        action=action,
        last=True,
    )


def _seq_elsewhere(table_id: int) -> int:
    """The table's seq as another connection reads it."""
    seen: list[int] = []

    def read() -> None:
        try:
            seen.append(Table.objects.get(pk=table_id).seq)
        finally:
            connection.close()

    thread = threading.Thread(target=read)
    thread.start()
    thread.join(timeout=20)
    return seen[0]


@pytest.mark.django_db(transaction=True)
def test_a_move_inside_an_outer_block_commits_with_it(table: Table) -> None:
    """Not the outermost ``atomic``: the write sends no ``COMMIT``, and the
    move rolls back with the block around it."""
    _pg_only()
    user, action = next(_moves(table))
    with pytest.raises(RuntimeError), transaction.atomic():
        action_submit(table_id=table.pk, user=user, action=action)
        assert connection.connection.pgconn.transaction_status == (
            TransactionStatus.INTRANS
        )
        raise RuntimeError("the outer block fails")
    assert Table.objects.get(pk=table.pk).seq == table.seq
    assert GameEvent.objects.filter(table=table).count() == table.seq


@pytest.mark.django_db(transaction=True)
def test_a_write_refused_with_its_commit_leaves_nothing(table: Table) -> None:
    """The event's unique seq refuses the write that carries the ``COMMIT``:
    a conflict, the whole transaction rolled back, the connection usable."""
    _pg_only()
    user, action = next(_moves(table))
    with pytest.raises(ConcurrencyConflict), transaction.atomic():
        table_now, seats, _ = table_lock_seats(table.pk)
        SeatTimeout.objects.create(
            table=table_now, seq=table_now.seq + 1, seat=1, user_id=user.pk
        )
        GameEvent.objects.create(  # another writer's event at the next seq
            table=table_now, seq=table_now.seq + 1, type="alkort.intruder", payload={}
        )
        _move_ending_the_block(table_now, seats, user, action)
    assert Table.objects.get(pk=table.pk).seq == table.seq
    assert GameEvent.objects.filter(table=table).count() == table.seq
    assert not SeatTimeout.objects.exists()
    assert action_submit(table_id=table.pk, user=user, action=action)["seq"] > (
        table.seq
    )


@pytest.mark.django_db(transaction=True)
def test_statements_prepared_before_a_failed_move_serve_the_next(
    table: Table,
) -> None:
    """The lock waits past ``lock_timeout`` on a fresh connection: the
    statements prepared in that message stay prepared, and the next move on
    the same connection uses them (no 'already exists', no 'does not exist')."""
    _pg_only()
    user, action = next(_moves(table))
    connection.close()
    connection.ensure_connection()
    locked, release = threading.Event(), threading.Event()

    def holder() -> None:
        try:
            with transaction.atomic():
                table_lock_seats(table.pk)
                locked.set()
                release.wait(timeout=20)
        finally:
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    assert locked.wait(timeout=20)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '50ms'")
        with pytest.raises(OperationalError):
            action_submit(table_id=table.pk, user=user, action=action)
    finally:
        release.set()
        thread.join(timeout=20)
    with connection.cursor() as cursor:
        cursor.execute("RESET lock_timeout")
        cursor.execute("SELECT name FROM pg_prepared_statements")
        assert {"cardroom_table_lock", "cardroom_table_seats"} <= {
            name for (name,) in cursor.fetchall()
        }
    result = action_submit(table_id=table.pk, user=user, action=action)
    assert result["seq"] == Table.objects.get(pk=table.pk).seq > table.seq


def test_begin_carries_the_connections_transaction_settings() -> None:
    def pg(**settings: Any) -> Any:
        base = {
            "autocommit": False,
            "isolation_level": None,
            "read_only": None,
            "deferrable": None,
            "pgconn": SimpleNamespace(transaction_status=TransactionStatus.IDLE),
        }
        return SimpleNamespace(**{**base, **settings})

    plain = pg()
    assert db.transaction_begin(plain) == "BEGIN"
    assert plain.autocommit  # psycopg sends no BEGIN of its own now
    assert (
        db.transaction_begin(
            pg(isolation_level=IsolationLevel.SERIALIZABLE, read_only=False)
        )
        == "BEGIN ISOLATION LEVEL SERIALIZABLE READ WRITE"
    )
    assert db.transaction_begin(pg(autocommit=True)) == ""
    begun = pg(pgconn=SimpleNamespace(transaction_status=TransactionStatus.INTRANS))
    assert db.transaction_begin(begun) == ""
    assert not begun.autocommit


@pytest.mark.django_db
def test_the_commit_never_goes_with_a_statement_inside_a_test_or_a_savepoint() -> None:
    # The test runs in a transaction it rolls back: never committed early.
    assert len(connection.atomic_blocks) == 1
    assert not db.commit_folds()
    with transaction.atomic():
        assert not db.commit_folds()


@pytest.mark.django_db(transaction=True)
def test_the_commit_goes_with_the_outermost_blocks_last_statement() -> None:
    _pg_only()
    assert not db.commit_folds()  # no block at all
    with transaction.atomic():
        assert db.commit_folds()
        with transaction.atomic():
            assert not db.commit_folds()  # a savepoint
        assert db.commit_folds()


def test_a_statement_is_prepared_under_its_name_with_numbered_parameters() -> None:
    statement = db.Statement(
        "cardroom_example",
        "SELECT %(b)s, %(a)s WHERE %(a)s > 0",
        ("a", "b"),
    )
    assert (
        statement.prepare_sql
        == "PREPARE cardroom_example AS SELECT $2, $1 WHERE $1 > 0"
    )
    assert statement.execute_bytes({"a": b"1", "b": b"'x'"}) == (
        b"EXECUTE cardroom_example(1, 'x')"
    )
    assert db.Statement("cardroom_none", "SELECT 1", ()).execute_bytes({}) == (
        b"EXECUTE cardroom_none"
    )
    with pytest.raises(ValueError, match="not in params"):
        db.Statement("cardroom_bad", "SELECT %(a)s, %(c)s", ("a",))


def test_a_statement_without_preparing_is_its_sql_with_literals_in_place() -> None:
    statement = db.Statement("cardroom_example", "SELECT %(b)s, %(a)s", ("a", "b"))
    assert statement.plain_bytes({"a": b"1", "b": b"'x'"}) == b"SELECT 'x', 1"
    assert statement.execute_bytes({"a": b"1", "b": b"NULL"}) == (
        b"EXECUTE cardroom_example(1, NULL)"
    )


_ROUND_TRIP = db.Statement(
    "cardroom_test_round_trip",
    "SELECT %(text)s::text, %(quote)s::text, %(count)s::bigint, %(negative)s::int,"
    " %(yes)s::boolean, %(nothing)s::text, %(at)s::timestamptz, %(json)s::jsonb",
    ("text", "quote", "count", "negative", "yes", "nothing", "at", "json"),
)
_VALUES: dict[str, Any] = {
    "text": "Ærø — ♠♥ \\ 'x' \"y\" $1 %(a)s ;",
    "quote": "'; DROP TABLE games_gameevent; --",
    "count": 2**62,
    "negative": -7,
    "yes": True,
    "nothing": None,
    "at": datetime(2026, 12, 2, 17, 5, 48, 123456, tzinfo=UTC),
    "json": '{"a": [1, "it\'s"]}',
}


@pytest.mark.django_db
@pytest.mark.parametrize("prepared", [True, False])
def test_parameters_travel_as_literals_and_come_back_unchanged(
    prepared: bool, settings: Any
) -> None:
    """What the hot path sends is read back by PostgreSQL as sent, quotes,
    backslashes and placeholder look-alikes included; rows come back through
    Django's adapters (JSON as text), timestamps in UTC."""
    _pg_only()
    settings.DB_PREPARED_STATEMENTS = prepared
    connection.ensure_connection()

    [rows] = db.send(connection.connection, [_ROUND_TRIP], _VALUES)

    assert rows == [
        (
            _VALUES["text"],
            _VALUES["quote"],
            2**62,
            -7,
            True,
            None,
            _VALUES["at"],
            '{"a": [1, "it\'s"]}',
        )
    ]
    assert rows[0][6].tzinfo is UTC


@pytest.mark.django_db
def test_timestamps_read_by_the_hot_path_equal_the_orms(table: Table) -> None:
    _pg_only()
    with transaction.atomic():
        locked, _, _ = table_lock_seats(table.pk)
    orm = Table.objects.get(pk=table.pk)
    for field in ("created_at", "started_at", "updated_at"):
        assert getattr(locked, field) == getattr(orm, field)
        assert getattr(locked, field).tzinfo is getattr(orm, field).tzinfo


@pytest.mark.django_db(transaction=True)
def test_a_refused_value_sends_nothing_and_changes_nothing() -> None:
    """A NUL character (PostgreSQL cannot store it) or a type the hot path
    does not send is refused before the message is built: the statement is
    not counted as prepared, and the transaction's ``BEGIN`` is still due."""
    _pg_only()
    statement = db.Statement(
        "cardroom_test_refused", "SELECT %(text)s::text", ("text",)
    )
    with transaction.atomic():
        connection.ensure_connection()
        pg = connection.connection
        with pytest.raises(DjangoDataError, match="NUL"):
            db.send(pg, [statement], {"text": "a\x00b"})
        with pytest.raises(TypeError, match="float"):
            db.send(pg, [statement], {"text": 1.5})
        assert pg.pgconn.transaction_status == TransactionStatus.IDLE

        assert db.send(pg, [statement], {"text": "ab"}) == [[("ab",)]]
        assert pg.pgconn.transaction_status == TransactionStatus.INTRANS


@pytest.mark.django_db
def test_the_servers_errors_arrive_as_djangos() -> None:
    _pg_only()
    connection.ensure_connection()
    bad = db.Statement("cardroom_test_bad", "SELECT 1 / %(zero)s", ("zero",))
    with (
        pytest.raises(DjangoDataError, match="division by zero"),
        transaction.atomic(),
    ):
        db.send(connection.connection, [bad], {"zero": 0})
    assert Table.objects.count() >= 0  # the block rolled back; usable again


@pytest.mark.django_db
def test_meanwhile_runs_while_the_message_is_on_its_way() -> None:
    """``meanwhile`` runs after the message is sent and before its answer
    is read; what it raises comes once the answer is read, and the
    connection is left ready for the next statement."""
    _pg_only()
    connection.ensure_connection()
    pg = connection.connection
    seen: list[TransactionStatus] = []
    statement = db.Statement("cardroom_test_meanwhile", "SELECT %(n)s::int", ("n",))

    def meanwhile() -> None:
        seen.append(pg.pgconn.transaction_status)

    assert db.send(pg, [statement], {"n": 1}, meanwhile=meanwhile) == [[(1,)]]
    assert seen == [TransactionStatus.ACTIVE]

    def broken() -> None:
        raise RuntimeError("a bug in the caller")

    with pytest.raises(RuntimeError, match="a bug"):
        db.send(pg, [statement], {"n": 2}, meanwhile=broken)
    assert pg.pgconn.transaction_status == TransactionStatus.INTRANS
    assert db.send(pg, [statement], {"n": 3}) == [[(3,)]]


@pytest.mark.django_db
def test_seats_read_by_the_hot_path_equal_the_orms(table: Table) -> None:
    """Every field of every seat, the join date read on first access."""
    with transaction.atomic():
        locked, seats, _ = table_lock_seats(table.pk)
    orm = list(table.seats.order_by("index"))
    fields = [f.attname for f in orm[0]._meta.concrete_fields]
    assert [[getattr(s, f) for f in fields] for s in seats] == [
        [getattr(s, f) for f in fields] for s in orm
    ]
    assert all(s.table is locked for s in seats)


@pytest.mark.django_db(transaction=True)
def test_a_prepare_that_failed_is_sent_again() -> None:
    """Only a ``PREPARE`` the server accepted counts as prepared: one that
    failed (here its table did not exist yet, as during a deploy before
    migrating) is sent again with the next message."""
    _pg_only()
    statement = db.Statement(
        "cardroom_test_later", "SELECT x FROM cardroom_test_later_t", ()
    )
    with pytest.raises(DjangoProgrammingError), transaction.atomic():
        connection.ensure_connection()
        db.send(connection.connection, [statement], {})
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE cardroom_test_later_t (x int)")
        cursor.execute("INSERT INTO cardroom_test_later_t VALUES (7)")
    try:
        with transaction.atomic():
            assert db.send(connection.connection, [statement], {}) == [[(7,)]]
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE cardroom_test_later_t")
