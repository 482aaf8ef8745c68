"""Pieces every table service shares: the row lock and recording.

Writes to a table always happen inside ``transaction.atomic`` with the table
row locked (``table_lock``), so moves, joins and starts on one table are
serialised; what other processes must hear about (live play, bot turns,
statistics) is scheduled with ``transaction.on_commit`` by
``games.services.followups`` and never runs for a rolled-back change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

import rules
from accounts.models import User
from games import event_store
from games.errors import Conflict, Forbidden, NotFound
from games.models import Seat, Table, TableStatus
from games.state_cache import state_get, state_put


def table_lock(table_id: int) -> Table:
    """The table row, locked until the surrounding transaction ends."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound("not_found", f"Table {table_id} does not exist.") from None


_SEATS_SQL = """
SELECT s.id, s."index", s.user_id, s.bot_level, s.away, s.timeouts,
       c.action, c.response
FROM games_seat s
LEFT JOIN games_processedcommand c
    ON c.table_id = s.table_id AND c.seat = s."index" AND c.command_id = %s
WHERE s.table_id = %s
ORDER BY s."index"
"""


@dataclass(frozen=True)
class DoneCommand:
    """A command a seat already sent: the action and the answer it got."""

    action: Any
    response: dict[str, Any]


def table_lock_seats(
    table_id: int, *, command_id: str | None = None
) -> tuple[Table, list[Seat], dict[int, DoneCommand]]:
    """Lock the table row, then read its seats (the hot path: two queries).

    Also returns, per seat index, the command with ``command_id`` that seat
    already sent, if any (for idempotent retries). One plain query reads both
    (it runs once per move, so it is written in SQL rather than composed by
    the ORM each time).

    The seats are read by a second statement on purpose: a statement that
    waited for the row lock still sees every other row as it was when it
    began (READ COMMITTED), so seats or commands joined into the locking
    query could miss what the previous lock holder just committed.
    """
    table = table_lock(table_id)
    with connection.cursor() as cursor:
        cursor.execute(_SEATS_SQL, [command_id, table_id])
        rows = cursor.fetchall()
    seats = []
    done: dict[int, DoneCommand] = {}
    for pk, index, user_id, bot_level, away, timeouts, action, response in rows:
        seat = Seat(id=pk, table=table, index=index, user_id=user_id)
        seat.bot_level = bot_level
        seat.away, seat.timeouts = bool(away), timeouts
        seats.append(seat)
        if response is not None:
            done[index] = DoneCommand(_json(action), _json(response))
    return table, seats, done


def _json(value: Any) -> Any:
    """A JSON column read by a raw query: text on some backends, parsed on others."""
    return json.loads(value) if isinstance(value, str) else value


def person_seat(seats: list[Seat], user: User, table: Table) -> Seat:
    """``user``'s own seat (not a bot seat) among ``seats``; else 403."""
    for seat in seats:
        if seat.user_id == user.pk and seat.bot_level is None:
            return seat
    raise Forbidden("not_seated", f"You have no seat at table {table.pk}.")


def require_creator(table: Table, user: User) -> None:
    if table.created_by_id != user.pk:
        raise Forbidden(
            "not_creator", f"Only the creator of table {table.pk} can do that."
        )


def require_lobby(table: Table) -> None:
    """Seats change and matches start only in the lobby."""
    if table.status == TableStatus.LOBBY:
        return
    if table.status == TableStatus.ABORTED:
        raise Conflict("table_aborted", f"Table {table.pk} was aborted.")
    raise Conflict("already_started", f"Table {table.pk} has already started.")


def require_playing(table: Table) -> None:
    """Moves are made only while the match is in play."""
    if table.status == TableStatus.PLAYING:
        return
    if table.status == TableStatus.LOBBY:
        raise Conflict("not_started", f"Table {table.pk} has not started yet.")
    if table.status == TableStatus.ABORTED:
        raise Conflict("table_aborted", f"Table {table.pk} was aborted.")
    raise Conflict("table_finished", f"The match at table {table.pk} has ended.")


def state_load(game: rules.Game[Any], table: Table) -> Any:
    """The table's current state, from its cached projection (never a replay).

    The decoded state is usually still in this process's memo
    (``games.state_cache``); otherwise the row's JSON is decoded.
    """
    state = state_get(table.pk, table.seq, table.seed_sha256)
    if state is None:
        state = game.load_state(table.state)
    return state


def record(
    *,
    table: Table,
    game: rules.Game[Any],
    state: Any,
    events: list[rules.Event],
    actor_id: int | None,
    seat: int | None,
    command: dict[str, Any] | None = None,
    also_save: tuple[str, ...] = (),
) -> None:
    """Append ``events`` and save the table's cached state, seq and outcome.

    Lock: the caller holds the table row (``table_lock``); ``state`` is the
    fold of the table's state through ``events``. ``command`` (``{"command_id",
    "action", "response"}``) is stored with them for idempotent retries.
    ``also_save`` names other table fields the caller changed (table_start).
    On the hot path (no ``also_save``) everything is written by one statement
    (``event_store.append_with_projection``).
    """
    table.state = game.dump_state(state)
    outcome = game.outcome(state)
    if outcome is not None:
        table.status = TableStatus.FINISHED
        table.outcome = outcome
        table.finished_at = timezone.now()
    if also_save:
        assert command is None, "commands are recorded on the hot path only"
        table.seq = event_store.append(
            table=table,
            expected_seq=table.seq,
            events=events,
            actor_id=actor_id,
            seat=seat,
        )
        table.save(update_fields=[*event_store.PROJECTION_FIELDS, *also_save])
    else:
        event_store.append_with_projection(
            table=table,
            expected_seq=table.seq,
            events=events,
            actor_id=actor_id,
            seat=seat,
            command=command,
        )
    transaction.on_commit(
        partial(state_put, table.pk, table.seq, table.seed_sha256, state), robust=True
    )
