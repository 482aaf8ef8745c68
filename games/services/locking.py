"""The table row lock and the seats read under it.

Writes to a table always happen inside ``transaction.atomic`` with the table
row locked (``table_lock``, or ``table_lock_seats`` on the hot path), so
moves, joins and starts on one table are serialised. The ``require_*``
checks and ``person_seat`` answer a request that may not act with the 403 or
409 it deserves before anything is written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models.base import DEFERRED

import rules
from accounts.models import User
from config import db
from games import event_store
from games.errors import Conflict, Forbidden, TableNotFound
from games.models import Seat, Table, TableStatus
from games.state_cache import state_known
from games.state_codec import json_value


def table_lock(table_id: int) -> Table:
    """The table row, locked until the surrounding transaction ends."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableNotFound(table_id) from None


#: The ids a table can have (a bigint): the ORM answers a lookup outside them
#: with nothing found; the hot path's own statements must too, not a 500.
_BIGINT = range(-(2**63), 2**63)

_SEATS_SQL = """
SELECT s.id, s."index", s.user_id, s.bot_level, s.replaced_user_id, s.away,
       s.timeouts, c.action, c.seq
FROM games_seat s
LEFT JOIN games_processedcommand c
    ON c.table_id = s.table_id AND c.seat = s."index"
    AND c.command_id = %(command_id)s
WHERE s.table_id = %(table)s
ORDER BY s."index"
"""


class Vouch(Protocol):
    """What a request brings to be checked in its move's first message: a
    statement sent with the lock, and the check of its rows, run before
    anything else in the answer is used; ``confirm`` checks on its own where
    there is no such message (the API token not yet checked:
    ``accounts.authentication.PendingToken``)."""

    @property
    def statement(self) -> db.Statement: ...

    @property
    def params(self) -> dict[str, Any]: ...

    def check(self, rows: list[tuple[Any, ...]]) -> None: ...

    def confirm(self) -> None: ...


@dataclass(frozen=True)
class DoneCommand:
    """A command a seat already sent: the action, and the seq it left the
    table at (where its answer is rebuilt: ``games.services.answers``)."""

    action: Any
    seq: int


def table_lock_seats(
    table_id: int,
    *,
    command_id: str | None = None,
    meanwhile: Callable[[], None] | None = None,
    vouch: Vouch | None = None,
) -> tuple[Table, list[Seat], dict[int, DoneCommand]]:
    """Lock the table row and read it, its seats and a processed command.

    The hot path of every move: also returns, per seat index, the command
    with ``command_id`` that seat already sent, if any (for idempotent
    retries). Lock: the table row (``SELECT ... FOR UPDATE``) until the
    surrounding transaction ends.

    On PostgreSQL both statements go in one round trip (one message of
    several statements, with the transaction's ``BEGIN``: ``config.db``). The
    seats and commands are read by the second statement on purpose: under
    READ COMMITTED a statement that waited for the row lock re-reads the
    locked row itself but sees every other row as it was when the statement
    began, so seats or commands joined into the locking query could miss
    what the previous lock holder just committed. The server runs a
    message's statements one after the other, each with a snapshot of its
    own, so the second one starts, and takes its snapshot, only once the
    first holds the lock (``tests/games/services/test_locking.py`` holds it
    to that). Elsewhere (SQLite) the ORM locks and the same seats query
    follows.

    On PostgreSQL the same round trip also reads which audiences have an
    open socket, and in which server process (``SeatConnection``), as
    ``table.listening``: the move's frames are built for those only, and
    published through Redis only for audiences another process holds, with
    no round trip to ask Redis who listens (``games.realtime.frames_push``). A
    socket registers under ``table_share_lock``, so a move that does not see
    its row commits before the socket's first read.

    ``meanwhile`` runs while the round trip is on its way (on PostgreSQL;
    elsewhere before the lock): it must not touch the database. ``vouch``'s
    statement goes in the same message, and its check runs first of all, so
    a request it refuses learns nothing of the table (elsewhere, and for an
    id no table can have, it checks on its own first).
    """
    pg = db.pg_connection()
    if vouch is not None and (pg is None or table_id not in _BIGINT):
        vouch.confirm()  # no message of the lock's to carry it
    if table_id not in _BIGINT:  # no such id; PostgreSQL would refuse it
        raise TableNotFound(table_id)
    if pg is not None:
        table, rows, _ = _read_postgresql(
            pg, table_id, command_id=command_id, meanwhile=meanwhile, vouch=vouch
        )
    else:
        if meanwhile is not None:
            meanwhile()
        table = table_lock(table_id)
        rows = _seat_rows(table_id, command_id)
    return table, *_seats(table, rows)


def table_read_seats(
    table_id: int, *, events_after: int = 0
) -> tuple[Table, list[Seat], list[rules.Event]]:
    """The table row, its seats and its events after seq ``events_after`` as
    they stand, with no lock: what a bot's turn reads before it chooses its
    move without holding the table (``games.services.bots``), checking the
    row again under the lock after.

    The same reads as ``table_lock_seats`` (the cached state's JSON always
    included), and the events, in one round trip on PostgreSQL. The events
    are read after the row and may go past its seq. ``NotFound`` when there
    is no such table.
    """
    if table_id not in _BIGINT:
        raise TableNotFound(table_id)
    pg = db.pg_connection()
    if pg is not None:
        table, rows, stored = _read_postgresql(
            pg, table_id, lock=False, events_after=events_after
        )
        events = [
            event_store.upcast(type_, version, json_value(payload))
            for type_, version, payload in stored
        ]
    else:
        found = Table.objects.filter(pk=table_id).order_by().first()
        if found is None:
            raise TableNotFound(table_id)
        table, rows = found, _seat_rows(table_id, None)
        events = event_store.load_events(table_id, after=events_after)
    return table, _seats(table, rows)[0], events


def _seat_rows(table_id: int, command_id: str | None) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(_SEATS_SQL, {"command_id": command_id, "table": table_id})
        return cursor.fetchall()


def _seats(
    table: Table, rows: list[tuple[Any, ...]]
) -> tuple[list[Seat], dict[int, DoneCommand]]:
    """The seats of ``_SEATS_SQL``'s rows, and the commands they sent."""
    table_id = table.pk
    seats = []
    done: dict[int, DoneCommand] = {}
    for pk, index, user_id, bot, replaced, away, timeouts, action, done_seq in rows:
        # As the ORM builds a row (a tenth of the time of Seat(...)); the
        # join date stays in the database, read on first access.
        seat = Seat.from_db(
            DEFAULT_DB_ALIAS,
            _SEAT_ATTNAMES,
            (
                pk,
                table_id,
                index,
                user_id,
                bot,
                replaced,
                bool(away),
                timeouts,
                DEFERRED,
            ),
        )
        _SEAT_TABLE.set_cached_value(seat, table)
        seats.append(seat)
        if done_seq is not None:
            done[index] = DoneCommand(json_value(action), done_seq)
    return seats, done


_SEAT_ATTNAMES = [f.attname for f in Seat._meta.concrete_fields]
assert _SEAT_ATTNAMES == [
    "id", "table_id", "index", "user_id", "bot_level", "replaced_user_id",
    "away", "timeouts", "joined_at",
], "the seats query's columns follow Seat's fields"  # fmt: skip
_SEAT_TABLE = Seat._meta.get_field("table")
_TABLE_FIELDS = list(Table._meta.concrete_fields)
_TABLE_ATTNAMES = [f.attname for f in _TABLE_FIELDS]
_TABLE_JSON = frozenset(
    i for i, f in enumerate(_TABLE_FIELDS) if f.get_internal_type() == "JSONField"
)
_SEQ, _SEED, _STATE, _OPTIONS = (
    _TABLE_ATTNAMES.index(n) for n in ("seq", "seed_sha256", "state", "options")
)
# The cached state's JSON stays in the database when this process remembers
# the decoded state at the row's seq (games.state_cache), and the options'
# JSON always (a match reads them when it starts, not on a move): the fields
# are then left deferred, and Django reads them on first access should
# anything need them.
_LOCK_COLUMNS = {
    "state": 'CASE WHEN "seq" = %(known_seq)s AND "seed_sha256" = %(known_seed)s '
    'THEN NULL ELSE "state" END',
    "options": "NULL",
}
_LOCK = db.Statement(
    "cardroom_table_lock",
    "SELECT {} FROM games_table WHERE id = %(table)s FOR UPDATE".format(
        ", ".join(_LOCK_COLUMNS.get(f.attname, f'"{f.column}"') for f in _TABLE_FIELDS)
    ),
    ("table", "known_seq", "known_seed"),
)
_READ = db.Statement(
    "cardroom_table_read", _LOCK.sql.removesuffix(" FOR UPDATE"), _LOCK.params
)
_SEATS = db.Statement("cardroom_table_seats", _SEATS_SQL, ("table", "command_id"))
_EVENTS = db.Statement(
    "cardroom_table_events",
    "SELECT type, version, payload FROM games_gameevent "
    "WHERE table_id = %(table)s AND seq > %(after)s ORDER BY seq",
    ("table", "after"),
)
_LISTENING = db.Statement(
    "cardroom_table_listening",
    "SELECT DISTINCT seat, process FROM games_seatconnection "
    "WHERE table_id = %(table)s",
    ("table",),
)


def _read_postgresql(
    pg: Any,
    table_id: int,
    *,
    lock: bool = True,
    command_id: str | None = None,
    meanwhile: Callable[[], None] | None = None,
    vouch: Vouch | None = None,
    events_after: int = 0,
) -> tuple[Table, list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Lock and read the table row, then its seats and listening audiences:
    one message of several statements with the transaction's ``BEGIN``, one
    round trip (``config.db``). Each statement after the lock takes its own
    snapshot once the lock is held, so it reads what the previous holder
    committed (``table_lock_seats``). Without ``lock``, the row, its seats
    and its events after ``events_after`` (``table_read_seats``), each
    statement with a snapshot of its own. Returns the table, the seats'
    rows and the events' rows."""
    # Unlocked, the state is always read: left in the database, it would be
    # read on first access, possibly from a later move than the row's.
    known_seq, known_seed = (lock and state_known(table_id)) or (-1, "")
    params = {
        "table": table_id,
        "known_seq": known_seq,
        "known_seed": known_seed,
        "command_id": command_id,
    }
    listening: list[tuple[Any, ...]] = []
    stored: list[tuple[Any, ...]] = []
    if not lock:
        params["after"] = events_after
        locked, rows, stored = db.send(pg, (_READ, _SEATS, _EVENTS), params)
    elif vouch is None:
        locked, rows, listening = db.send(
            pg, (_LOCK, _SEATS, _LISTENING), params, meanwhile=meanwhile
        )
    else:
        vouched, locked, rows, listening = db.send(
            pg,
            (vouch.statement, _LOCK, _SEATS, _LISTENING),
            {**params, **vouch.params},
            meanwhile=meanwhile,
        )
        vouch.check(vouched)
    if not locked:
        raise TableNotFound(table_id)
    row = locked[0]
    heard = frozenset((seat, process) for seat, process in listening)
    # Django reads JSON columns as text and parses them itself; so do we.
    values = [
        json_value(v) if i in _TABLE_JSON and v is not None else v
        for i, v in enumerate(row)
    ]
    if (values[_SEQ], values[_SEED]) == (known_seq, known_seed):
        values[_STATE] = DEFERRED
    values[_OPTIONS] = DEFERRED
    table = Table.from_db(DEFAULT_DB_ALIAS, _TABLE_ATTNAMES, values)
    table.listening = heard
    return table, rows, stored


def table_share_lock(table_id: int) -> None:
    """Wait for a move in progress on the table, and hold off the next one,
    until the surrounding transaction ends (``FOR KEY SHARE``: it conflicts
    with a move's row lock, not with other share locks or foreign keys).

    Taken where a socket registers the audience it listens to
    (``games.services.presence``): a move that locks the row later sees the
    registration, one that held it committed first, so the socket's next read
    has it. Nothing to do where moves do not read the registrations (SQLite).
    """
    if connection.vendor == "postgresql" and table_id in _BIGINT:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT 1 FROM games_table WHERE id = %s FOR KEY SHARE", [table_id]
            )


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


def table_over(table: Table) -> Conflict:
    """The refusal for a table past play: aborted, or its match ended."""
    if table.status == TableStatus.ABORTED:
        return Conflict("table_aborted", f"Table {table.pk} was aborted.")
    return Conflict("table_finished", f"The match at table {table.pk} has ended.")


def require_lobby(table: Table) -> None:
    """Seats change and matches start only in the lobby."""
    if table.status == TableStatus.LOBBY:
        return
    if table.status == TableStatus.PLAYING:
        raise Conflict("already_started", f"Table {table.pk} has already started.")
    raise table_over(table)


def require_playing(table: Table) -> None:
    """Moves are made only while the match is in play."""
    if table.status == TableStatus.PLAYING:
        return
    if table.status == TableStatus.LOBBY:
        raise Conflict("not_started", f"Table {table.pk} has not started yet.")
    raise table_over(table)
