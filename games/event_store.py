"""The append-only event log of every table (docs/architecture.md §4).

``append`` adds a match's new events after an expected ``seq`` (no gaps, no
overwrites), ``load`` reads them back in order as ``rules.Event`` values. The
mapping between the two is explicit: the stored ``type`` and ``version`` are
the rules' own stable strings and numbers, never Python paths.

Old event versions are upgraded on the way out by *upcasters*: a registry of
``(type, version) -> fn(payload) -> (new_version, new_payload)`` applied until
no upcaster matches, so the rules only ever see current versions while stored
rows stay exactly as written (they cannot change anyway).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connection
from django.utils import timezone

import rules
from config import db
from games.errors import ConcurrencyConflict
from games.models import GameEvent, ProcessedCommand, Table
from games.state_codec import json_text

Upcaster = Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]

#: ``(type, version) -> upcaster``; register with :func:`upcaster`.
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcaster(event_type: str, version: int) -> Callable[[Upcaster], Upcaster]:
    """Register ``fn`` to upgrade ``event_type`` payloads stored at ``version``.

    The function returns ``(new_version, new_payload)``; ``new_version`` must be
    higher, so chains end.
    """

    def register(fn: Upcaster) -> Upcaster:
        key = (event_type, version)
        if key in UPCASTERS:
            raise ValueError(f"An upcaster for {event_type} v{version} exists")
        UPCASTERS[key] = fn
        return fn

    return register


@contextmanager
def upcasters_added(extra: dict[tuple[str, int], Upcaster]) -> Iterator[None]:
    """Register ``extra`` upcasters for the duration of a block (for tests)."""
    clash = set(extra) & set(UPCASTERS)
    if clash:
        raise ValueError(f"Upcasters already registered: {sorted(clash)}")
    UPCASTERS.update(extra)
    try:
        yield
    finally:
        for key in extra:
            UPCASTERS.pop(key, None)


def upcast(event_type: str, version: int, payload: dict[str, Any]) -> rules.Event:
    """The current form of a stored event."""
    while (fn := UPCASTERS.get((event_type, version))) is not None:
        new_version, payload = fn(payload)
        if new_version <= version:
            raise ValueError(
                f"Upcaster for {event_type} v{version} went back to v{new_version}"
            )
        version = new_version
    return rules.Event(event_type, version, payload)


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event with its place in the log."""

    seq: int
    event: rules.Event
    seat: int | None
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, **self.event.to_json(), "seat": self.seat}


def _check_append(
    table: Table, expected_seq: int, events: Sequence[rules.Event]
) -> None:
    if not connection.in_atomic_block:
        raise RuntimeError("event_store.append must run inside transaction.atomic")
    if table.seq != expected_seq:
        raise ConcurrencyConflict(
            f"Table {table.pk} is at seq {table.seq}, not {expected_seq}: "
            "another move was stored first."
        )
    prefix = f"{table.game}."
    for event in events:
        if not event.type.startswith(prefix):
            raise ValueError(f"{event.type} is not an event of {table.game}")


def _conflict(table: Table, expected_seq: int, exc: IntegrityError) -> Exception:
    if "games_gameevent_unique_seq" not in str(exc):
        return exc
    return ConcurrencyConflict(
        f"Table {table.pk} already has an event after seq {expected_seq}: "
        "another move was stored first."
    )


def append(
    *,
    table: Table,
    expected_seq: int,
    events: Sequence[rules.Event],
    actor_id: int | None = None,
    seat: int | None = None,
) -> int:
    """Store ``events`` as ``expected_seq + 1, + 2, ...``; return the last seq.

    ``actor_id`` is the user (person or house bot) who caused them, ``seat``
    the seat that acted (None for the opening deal).

    Lock: the caller holds the table row (``select_for_update``) inside
    ``transaction.atomic`` and writes the returned seq to ``table.seq`` with
    its cached state in the same transaction. ``table.seq`` must equal
    ``expected_seq``; if it does not, or if another writer stored the same
    seq first (the unique (table, seq) key), ``ConcurrencyConflict`` is raised
    and the caller's transaction rolls back with nothing written.
    """
    _check_append(table, expected_seq, events)
    rows = [
        GameEvent(
            table=table,
            seq=expected_seq + offset,
            type=event.type,
            version=event.version,
            payload=event.payload,
            actor_id=actor_id,
            seat=seat,
        )
        for offset, event in enumerate(events, start=1)
    ]
    try:
        GameEvent.objects.bulk_create(rows)
    except IntegrityError as exc:
        raise _conflict(table, expected_seq, exc) from exc
    return expected_seq + len(rows)


#: The fields of ``Table`` that ``append_with_projection`` writes.
PROJECTION_FIELDS = ("seq", "state", "status", "outcome", "finished_at", "updated_at")

_APPEND_WITH_PROJECTION_SQL = """
WITH new_events AS (
    INSERT INTO games_gameevent
        (table_id, seq, type, version, payload, actor_id, seat, created_at)
    SELECT %(table)s, e.seq, e.type, e.version, e.payload,
           %(actor)s, %(seat)s, %(now)s
    FROM jsonb_to_recordset(%(events)s::jsonb)
        AS e(seq integer, type varchar(100), version smallint, payload jsonb)
    RETURNING 1
), new_command AS (
    INSERT INTO games_processedcommand
        (table_id, seat, command_id, action, seq, created_at)
    SELECT %(table)s, %(seat)s, %(command_id)s, %(action)s::jsonb,
           %(seq)s, %(now)s
    WHERE %(command_id)s::varchar IS NOT NULL
    RETURNING 1
)
UPDATE games_table
SET seq = %(seq)s, state = %(state)s::text, status = %(status)s,
    outcome = %(outcome)s::jsonb, finished_at = %(finished_at)s,
    updated_at = %(now)s
WHERE id = %(table)s
"""
_APPEND_WITH_PROJECTION = db.Statement(
    "cardroom_append_with_projection",
    _APPEND_WITH_PROJECTION_SQL,
    # Each parameter's first use decides its type: the JSON ones are cast.
    (
        "table", "actor", "seat", "now", "events", "command_id", "action",
        "seq", "state", "status", "outcome", "finished_at",
    ),
)  # fmt: skip


def append_with_projection(
    *,
    table: Table,
    expected_seq: int,
    events: Sequence[rules.Event],
    actor_id: int | None,
    seat: int | None,
    command: dict[str, Any] | None = None,
    commit: bool = False,
    state_text: str | None = None,
) -> int:
    """``append``, and write the table's projection (and a processed command).

    The table's ``PROJECTION_FIELDS`` must already hold their new values
    (``table.seq`` still the old seq, which is checked); ``command`` is
    ``{"command_id", "action"}`` for an idempotent command. On
    PostgreSQL all of it is one statement sent through psycopg (one round
    trip; the JSON encoded by orjson, ``games.state_codec``); elsewhere it is
    the ORM's three writes. ``commit``: the caller runs nothing else before
    its ``atomic`` block exits, so on PostgreSQL the transaction's ``COMMIT``
    goes in the same message when that block is the outermost
    (``config.db.commit_folds``). ``state_text``: ``table.state`` as JSON
    text, when the caller has it already. Same lock and conflicts as
    ``append``; returns the new seq.
    """
    _check_append(table, expected_seq, events)
    new_seq = expected_seq + len(events)
    now = timezone.now()
    pg = db.pg_connection()
    if pg is None:
        append(
            table=table,
            expected_seq=expected_seq,
            events=events,
            actor_id=actor_id,
            seat=seat,
        )
        table.seq = new_seq
        table.updated_at = now
        table.save(update_fields=list(PROJECTION_FIELDS))
        if command is not None:
            assert seat is not None, "a command comes from a seat"
            ProcessedCommand.objects.create(
                table=table, seat=seat, seq=new_seq, **command
            )
        return new_seq
    params = {
        "table": table.pk,
        "actor": actor_id,
        "seat": seat,
        "now": now,
        "events": json_text(
            [
                {
                    "seq": expected_seq + offset,
                    "type": e.type,
                    "version": e.version,
                    "payload": e.payload,
                }
                for offset, e in enumerate(events, start=1)
            ]
        ),
        "command_id": command["command_id"] if command else None,
        "action": json_text(command["action"]) if command else None,
        "seq": new_seq,
        "state": json_text(table.state) if state_text is None else state_text,
        "status": table.status,
        "outcome": None if table.outcome is None else json_text(table.outcome),
        "finished_at": table.finished_at,
    }
    try:
        db.send(
            pg,
            (_APPEND_WITH_PROJECTION,),
            params,
            commit=commit and db.commit_folds(),
        )
    except IntegrityError as exc:
        raise _conflict(table, expected_seq, exc) from exc
    table.seq = new_seq
    table.updated_at = now
    return new_seq


def load(
    table: Table | int, *, after: int = 0, until: int | None = None
) -> list[StoredEvent]:
    """The table's events with ``after < seq <= until``, in order, upcast."""
    values = _rows(table, after, until).values_list(
        "seq", "type", "version", "payload", "seat", "created_at"
    )
    return [
        StoredEvent(seq, upcast(type_, version, payload), seat, created_at)
        for seq, type_, version, payload, seat, created_at in values
    ]


def load_events(
    table: Table | int, *, after: int = 0, until: int | None = None
) -> list[rules.Event]:
    """Just the ``rules.Event`` values (what ``game.replay`` takes): the
    same rows as ``load`` without their seat and time, which a long log
    spends a quarter of its reading on (the timestamps' parsing)."""
    values = _rows(table, after, until).values_list("type", "version", "payload")
    return [upcast(type_, version, payload) for type_, version, payload in values]


def _rows(table: Table | int, after: int, until: int | None) -> Any:
    table_id = table.pk if isinstance(table, Table) else table
    rows = GameEvent.objects.filter(table_id=table_id, seq__gt=after)
    if until is not None:
        rows = rows.filter(seq__lte=until)
    return rows.order_by("seq")
