"""The table row lock and the seats read under it.

Writes to a table always happen inside ``transaction.atomic`` with the table
row locked (``table_lock``, or ``table_lock_seats`` on the hot path), so
moves, joins and starts on one table are serialised. The ``require_*``
checks and ``person_seat`` answer a request that may not act with the 403 or
409 it deserves before anything is written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db import connection

from accounts.models import User
from games.errors import Conflict, Forbidden, NotFound
from games.models import Seat, Table, TableStatus


def table_lock(table_id: int) -> Table:
    """The table row, locked until the surrounding transaction ends."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound("not_found", f"Table {table_id} does not exist.") from None


_SEATS_SQL = """
SELECT s.id, s."index", s.user_id, s.bot_level, c.action, c.response
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
    for pk, index, user_id, bot_level, action, response in rows:
        seat = Seat(id=pk, table=table, index=index, user_id=user_id)
        seat.bot_level = bot_level
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
