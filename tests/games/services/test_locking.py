"""``table_lock_seats``: what the previous lock holder committed is seen.

On PostgreSQL the row lock and the seats/commands read go to the server in
one message of several statements. Under READ COMMITTED a statement that waited for a row lock
re-reads that row but sees other rows as of its own start, so the seats and
commands must be read by a statement that starts after the lock is held.
Each test holds the table row in one thread, changes something under it,
makes a move wait for the lock in a second thread, then commits, and checks
that the waiting move judged the committed change (real threads, real
connections, real PostgreSQL; ``transaction=True``). The last tests check the
statements are prepared (and not, with prepared statements off).
"""

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

import rules
from accounts.models import User
from games.errors import TableError
from games.models import GameEvent, ProcessedCommand, Seat, SeatConnection, Table
from games.services import action_submit
from games.services.answers import answer_at
from games.services.locking import table_lock, table_lock_seats
from games.services.presence import Opened, connection_moved, connection_open
from tests.accounts.factories import UserFactory
from tests.games.tables import seat_users, table_started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

GAME = rules.get_game("alkort")


def _waiting_on_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        (count,) = cursor.fetchone()
    return int(count)


def _while_locked(
    table: Table, change: Callable[[], None], move: Callable[[], Any]
) -> Any:
    """``change`` under the row lock; ``move`` waits for it; then commit."""
    if connection.vendor != "postgresql":
        pytest.skip("the row lock is PostgreSQL's")
    locked, release = threading.Event(), threading.Event()
    result: list[Any] = []

    def holder() -> None:
        try:
            with transaction.atomic():
                table_lock(table.pk)
                change()
                locked.set()
                release.wait(timeout=20)
        finally:
            connection.close()

    def mover() -> None:
        try:
            result.append(("ok", move()))
        except TableError as exc:
            result.append((exc.status, exc.code, exc.message))
        finally:
            connection.close()

    first = threading.Thread(target=holder)
    first.start()
    assert locked.wait(timeout=20)
    second = threading.Thread(target=mover)
    second.start()
    deadline = time.monotonic() + 20
    while _waiting_on_a_lock() == 0:  # the move is queued behind the lock
        assert time.monotonic() < deadline, "the move never waited for the lock"
        time.sleep(0.01)
    assert result == []
    release.set()
    first.join(timeout=20)
    second.join(timeout=20)
    return result[0]


@pytest.fixture
def table() -> Table:
    return table_started(seating=[UserFactory(), UserFactory()])


def _action(table: Table) -> dict[str, Any]:
    return dict(GAME.legal_actions(GAME.load_state(table.state), 1)[0])


def test_a_command_stored_by_the_lock_holder_answers_the_waiting_retry(
    table: Table,
) -> None:
    bo = seat_users(table)[1]
    action = _action(table)
    stored = answer_at(
        game=GAME, table_id=table.pk, seed_sha256=table.seed_sha256, seat=1, seq=2
    )

    def store() -> None:
        ProcessedCommand.objects.create(
            table_id=table.pk, seat=1, command_id="c-1", action=action, seq=2
        )

    result = _while_locked(
        table,
        store,
        lambda: action_submit(
            table_id=table.pk, user=bo, action=action, command_id="c-1"
        ),
    )

    assert result == ("ok", stored)
    assert GameEvent.objects.filter(table=table).count() == 2  # nothing applied


def test_a_seat_changed_by_the_lock_holder_is_seen_by_the_waiting_move(
    table: Table,
) -> None:
    bo = seat_users(table)[1]
    action = _action(table)
    other = UserFactory()

    result = _while_locked(
        table,
        lambda: Seat.objects.filter(table=table, index=1).update(user=other),
        lambda: action_submit(table_id=table.pk, user=bo, action=action),
    )

    assert result == (403, "not_seated", f"You have no seat at table {table.pk}.")
    assert GameEvent.objects.filter(table=table).count() == 2


def test_the_table_row_is_read_as_the_lock_holder_left_it(table: Table) -> None:
    bo = seat_users(table)[1]
    action = _action(table)

    def move_first() -> None:
        action_submit(table_id=table.pk, user=bo, action=action)

    result = _while_locked(
        table,
        move_first,
        lambda: action_submit(
            table_id=table.pk, user=bo, action=action, expected_seq=2
        ),
    )

    seq = Table.objects.get(pk=table.pk).seq
    assert seq > 2
    assert result == (
        409,
        "stale",
        f"Your view is stale: table {table.pk} is at seq {seq}, not 2. "
        "Fetch the table and try again.",
    )
    assert GameEvent.objects.filter(table=table).count() == seq


def test_a_socket_registered_by_the_lock_holder_is_heard_by_the_waiting_move(
    table: Table,
) -> None:
    """The audiences the move pushes to are read after the lock is held."""

    def listening() -> Any:
        with transaction.atomic():
            locked, _, _ = table_lock_seats(table.pk)
            return locked.listening

    def register() -> None:
        SeatConnection.objects.create(
            table=table, seat=0, channel_name="ada", seen_at=timezone.now()
        )

    assert listening() == frozenset()
    assert _while_locked(table, register, listening) == ("ok", frozenset({(0, "")}))


def test_a_socket_registers_only_once_the_move_in_progress_committed(
    table: Table,
) -> None:
    """A socket's registration waits for the row lock a move holds, so a move
    that did not see it has committed before the socket's first read."""
    result = _while_locked(
        table,
        lambda: None,
        lambda: connection_open(
            table_id=table.pk, user=seat_users(table)[0], channel_name="ada"
        ),
    )
    assert result == ("ok", Opened(seat=0))
    assert list(
        SeatConnection.objects.filter(table=table).values_list("channel_name", "seat")
    ) == [("ada", 0)]


def test_a_socket_changes_audience_only_once_the_move_in_progress_committed(
    table: Table,
) -> None:
    assert connection_open(table_id=table.pk, user=None, channel_name="w") == Opened(
        seat=None
    )
    result = _while_locked(
        table,
        lambda: None,
        lambda: connection_moved(table_id=table.pk, channel_name="w", seat=1),
    )
    assert result == ("ok", None)
    assert SeatConnection.objects.get(channel_name="w").seat == 1


def test_an_unknown_table_is_not_found() -> None:
    with pytest.raises(TableError) as caught:
        action_submit(
            table_id=987654, user=User.objects.create_user("x"), action={"type": "a"}
        )

    assert (caught.value.status, caught.value.code, caught.value.message) == (
        404,
        "not_found",
        "Table 987654 does not exist.",
    )


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements ORDER BY name")
        return [row[0] for row in cursor.fetchall()]


def test_a_move_runs_its_statements_prepared(table: Table, settings: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    bo = seat_users(table)[1]
    connection.ensure_connection()
    assert settings.DB_PREPARED_STATEMENTS  # the settings' default

    action_submit(table_id=table.pk, user=bo, action=_action(table), command_id="p")

    # (Earlier tests on this connection may have prepared others: a bot's
    # turn reads the table unlocked first, cardroom_table_read.)
    ours = [name for name in _prepared() if name.startswith("cardroom_")]
    assert {
        "cardroom_append_with_projection",
        "cardroom_table_listening",
        "cardroom_table_lock",
        "cardroom_table_seats",
    } <= set(ours)
    # The next move on this connection runs them again, prepared once.
    table.refresh_from_db()
    al = seat_users(table)[GAME.to_act(GAME.load_state(table.state))[0]]
    seat = GAME.to_act(GAME.load_state(table.state))[0]
    action = GAME.legal_actions(GAME.load_state(table.state), seat)[0]
    assert action_submit(table_id=table.pk, user=al, action=action)["seq"] > 0
    assert [n for n in _prepared() if n.startswith("cardroom_")] == ours


def test_without_prepared_statements_a_move_prepares_nothing(
    table: Table, settings: Any
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    bo = seat_users(table)[1]
    connection.close()  # a fresh connection: nothing prepared on it yet
    connection.ensure_connection()
    settings.DB_PREPARED_STATEMENTS = False
    try:
        result = action_submit(table_id=table.pk, user=bo, action=_action(table))

        assert result["seq"] == Table.objects.get(pk=table.pk).seq
        assert _prepared() == []
    finally:
        connection.close()


def test_a_remembered_state_stays_in_the_database(table: Table) -> None:
    """When this process remembers the table's decoded state at the row's seq,
    the lock leaves the cached JSON unread (deferred); a reader still gets it."""
    from django.db import transaction

    from games import state_cache
    from games.services.locking import table_lock_seats

    if connection.vendor != "postgresql":
        pytest.skip("the ORM's lock (SQLite) reads every field")
    bo = seat_users(table)[1]
    action_submit(table_id=table.pk, user=bo, action=_action(table))
    stored = Table.objects.get(pk=table.pk).state
    with transaction.atomic():
        locked, _, _ = table_lock_seats(table.pk)
        assert "state" in locked.get_deferred_fields()
        assert locked.state == stored  # read on first access
    state_cache.clear()
    with transaction.atomic():
        locked, _, _ = table_lock_seats(table.pk)
        assert "state" not in locked.get_deferred_fields()
        assert locked.state == stored


def test_a_bots_unlocked_read_gives_the_row_its_state_and_seats(table: Table) -> None:
    """``table_read_seats`` (a bot's turn, before it chooses): the row with
    its cached state even when this process remembers it (read later, it
    could come from a later move), the seats, the events after a seq, no
    lock taken or waited for."""
    from games import event_store
    from games.errors import NotFound
    from games.services.locking import table_read_seats
    from games.state_cache import state_put
    from tests.helpers import another_session

    table.refresh_from_db()
    state_put(table.pk, table.seq, table.seed_sha256, GAME.load_state(table.state))
    holder = another_session()
    try:
        if connection.vendor == "postgresql":  # a move in progress elsewhere
            holder.execute(
                "SELECT 1 FROM games_table WHERE id = %s FOR UPDATE", [table.pk]
            )
        started = time.monotonic()
        read, seats, events = table_read_seats(table.pk)
        assert time.monotonic() - started < 1
    finally:
        holder.close()

    assert (read.pk, read.seq, read.status) == (table.pk, table.seq, table.status)
    assert "state" not in read.get_deferred_fields()
    assert read.state == table.state
    assert [(s.index, s.user_id, s.table_id) for s in seats] == [
        (s.index, s.user_id, s.table_id) for s in table.seats.order_by("index")
    ]
    assert events == event_store.load_events(table)
    assert table_read_seats(table.pk, events_after=2)[2] == events[2:]
    for missing in (table.pk + 10_000, 2**63):
        with pytest.raises(NotFound):
            table_read_seats(missing)
