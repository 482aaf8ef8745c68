"""Reads for live play: the frames one WebSocket connection receives.

Like ``games.selectors``, everything here is shaped for one requester: views
come from ``game.view`` for the connection's seat (None: a spectator) and
events from ``game.redact`` for that seat, until the match ends and the log is
public. The seat is looked up afresh for every frame, so a person who left
the match (a bot took the seat over) watches from then on as a spectator.

The protocol is described in ``docs/live-protocol.md``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

import rules
from games import event_store
from games.clock import turn_deadline
from games.errors import TableNotFound
from games.models import Seat, SeatConnection, Table, TableStatus
from games.state_cache import state_get, state_put

#: A connection whose client has not pinged for this long no longer counts as
#: present (its server process may have died without closing it).
PRESENCE_STALE_SECONDS = 90


@dataclass(frozen=True)
class _Row:
    """What a frame needs of the table, read in one statement."""

    seq: int
    status: str
    game: str
    seed_sha256: str
    time_control: int | None
    updated_at: Any
    seat: int | None
    #: ``(seq, event, acting seat)`` after ``after``, or None when not read.
    events: list[tuple[int, rules.Event, int | None]] | None

    @property
    def deadline(self) -> Any:
        return turn_deadline(self)


# One round trip on PostgreSQL: the table, the requester's seat, and the
# events after ``after`` up to the table's seq, all from one snapshot (events
# up to a seq commit with the table row that names it).
_FRAME_SQL = """
SELECT t.seq, t.status, t.game, t.seed_sha256, t.time_control, t.updated_at,
    (SELECT s."index" FROM games_seat s
     WHERE s.table_id = t.id AND s.user_id = %(user)s AND s.bot_level IS NULL
     LIMIT 1),
    CASE WHEN %(events)s AND t.seq - %(after)s <= %(most)s THEN COALESCE(
        (SELECT json_agg(json_build_array(e.seq, e.type, e.version, e.payload, e.seat)
                         ORDER BY e.seq)
         FROM games_gameevent e
         WHERE e.table_id = t.id AND e.seq > %(after)s AND e.seq <= t.seq),
        '[]') END
FROM games_table t WHERE t.id = %(table)s
"""


def _row(table_id: int, user_id: int | None, after: int | None) -> _Row:
    """The table row for a frame; ``NotFound`` if there is none.

    Events are read only when the frame will carry them (``after`` known and
    at most ``LIVE_RESYNC_MAX_EVENTS`` behind; checked again by the caller):
    a client far behind costs no read of the log it will not get.
    """
    most = settings.LIVE_RESYNC_MAX_EVENTS
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                _FRAME_SQL,
                {
                    "table": table_id,
                    "user": user_id,
                    "after": after or 0,
                    "events": after is not None,
                    "most": most,
                },
            )
            found = cursor.fetchone()
        if found is None:
            raise TableNotFound(table_id)
        seq, status, game, sha, time_control, updated_at, seat, raw = found
        events = None
        if raw is not None:
            items = json.loads(raw) if isinstance(raw, str) else raw
            events = [
                (seq_, event_store.upcast(type_, version, payload), at_seat)
                for seq_, type_, version, payload, at_seat in items
            ]
        return _Row(seq, status, game, sha, time_control, updated_at, seat, events)
    table = Table.objects.filter(pk=table_id).defer("state").first()
    if table is None:
        raise TableNotFound(table_id)
    seat = None
    if user_id is not None:
        seat = (
            Seat.objects.filter(table=table, user_id=user_id, bot_level__isnull=True)
            .values_list("index", flat=True)
            .first()
        )
    events = None
    if after is not None and table.seq - after <= most:
        stored = event_store.load(table, after=after, until=table.seq)
        events = [(item.seq, item.event, item.seat) for item in stored]
    return _Row(
        table.seq,
        table.status,
        table.game,
        table.seed_sha256,
        table.time_control,
        table.updated_at,
        seat,
        events,
    )


def _state(game: rules.Game[Any], table_id: int, row: _Row) -> Any | None:
    """The table's state at ``row.seq`` (memo, else the row); None if the
    table has moved past it meanwhile."""
    state = state_get(table_id, row.seq, row.seed_sha256)
    if state is not None:
        return state
    data = (
        Table.objects.filter(pk=table_id, seq=row.seq)
        .values_list("state", flat=True)
        .first()
    )
    if data is None:
        return None
    state = game.load_state(data)
    state_put(table_id, row.seq, row.seed_sha256, state)
    return state


def seat_find(*, table_id: int, user_id: int | None) -> int | None:
    """The user's seat at the table (None: a spectator); ``NotFound``."""
    return _row(table_id, user_id, None).seat


def frame_state(
    *, table_id: int, user_id: int | None, after: int | None, always: bool = False
) -> dict[str, Any] | None:
    """The ``state`` frame that brings a connection from ``after`` to now.

    ``after`` is the last seq the connection holds (None: nothing yet). The
    frame has the current ``seq``, ``view`` and ``legal_actions`` (empty
    unless the seat may act now), ``deadline`` (timed tables) and ``events``:
    every event after ``after``, redacted for the seat. With ``after`` None or
    more than ``LIVE_RESYNC_MAX_EVENTS`` behind, ``events`` is empty and
    ``full`` is true: the view replaces whatever the client held (also when
    ``after`` is beyond the log's end: the client's idea of the table is
    wrong). Returns None when the connection is up to date, unless
    ``always`` (an answer to ``sync``: a frame with no events).
    """
    while True:
        row = _row(table_id, user_id, after)
        if after == row.seq and not always:
            return None
        full = (
            after is None
            or after > row.seq
            or row.seq - after > settings.LIVE_RESYNC_MAX_EVENTS
        )
        game = rules.get_game(row.game)
        if row.seq == 0:  # a lobby table: nothing dealt yet
            return _frame(
                row.seq, row.status, row.seat, full, None, [], [], row.deadline
            )
        state = _state(game, table_id, row)
        if state is not None:
            break  # else a move landed between the two reads: read again
    items = row.events if not full and row.events else []
    return _frame_for(
        game,
        state,
        row.seat,
        seq=row.seq,
        status=row.status,
        full=full,
        deadline=row.deadline,
        items=items,
    )


def _frame_for(
    game: rules.Game[Any],
    state: Any,
    seat: int | None,
    *,
    seq: int,
    status: str,
    full: bool,
    deadline: Any,
    items: Sequence[tuple[int, rules.Event, int | None]],
) -> dict[str, Any]:
    """The ``state`` frame of ``seat`` (None: a spectator) at ``state``.

    ``items`` are the ``(seq, event, acting seat)`` the frame carries; they
    are redacted for ``seat`` until the match has ended. The one place a
    frame is shaped, for reads (``frame_state``) and pushes
    (``frames_after_move``) alike.
    """
    legal = game.legal_actions(state, seat) if seat in game.to_act(state) else []
    public = status == TableStatus.FINISHED
    events = [
        {
            "seq": at,
            **(event if public else game.redact(event, seat)).to_json(),
            "seat": at_seat,
        }
        for at, event, at_seat in items
    ]
    return _frame(
        seq, status, seat, full, game.view(state, seat), legal, events, deadline
    )


def _frame(
    seq: int,
    status: str,
    seat: int | None,
    full: bool,
    view: dict[str, Any] | None,
    legal: list[dict[str, Any]],
    events: list[dict[str, Any]],
    deadline: Any,
) -> dict[str, Any]:
    return {
        "type": "state",
        "seq": seq,
        "status": status,
        "seat": seat,
        "full": full,
        "view": view,
        "legal_actions": legal,
        "deadline": deadline.isoformat() if deadline else None,
        "events": events,
    }


@dataclass(frozen=True)
class Pushed:
    """A frame built where a change committed, for one audience of the table.

    ``seat``: the seat whose person the frame is for (None: spectators);
    ``holder``: that person's user id (None for spectators), so a connection
    can tell a frame meant for whoever holds the seat now from its own;
    ``after``: the seq the frame continues from.
    """

    seat: int | None
    holder: int | None
    after: int
    frame: dict[str, Any]


def audiences(seats: Iterable[Seat]) -> list[int | None]:
    """Who watches a table in play: every seat a person holds (a bot's seat
    has no audience) and the spectators (None)."""
    return [seat.index for seat in seats if seat.bot_level is None] + [None]


def frames_after_move(
    *,
    table: Table,
    game: rules.Game[Any],
    state: Any,
    seats: Iterable[Seat],
    events: Sequence[rules.Event],
    acting_seat: int | None,
    only: Collection[int | None] | None = None,
) -> list[Pushed]:
    """The frames that bring every audience of ``table`` past ``events``.

    ``table`` and ``state`` are as the change left them (``table.seq`` is the
    last of ``events``); one frame per seat a person holds (a bot's seat has
    no audience) and one for spectators, each exactly the frame
    ``frame_state`` would read for that audience from the seq before
    ``events`` (``tests/games/test_frames.py`` holds them to that), so a
    connection that is up to date can forward it without reading anything.
    ``only``: build these audiences' frames only (``realtime.frames_push``
    asks for those someone listens to).
    """
    after = table.seq - len(events)
    items = [
        (after + offset, event, acting_seat)
        for offset, event in enumerate(events, start=1)
    ]
    deadline = turn_deadline(table)
    holders = {seat.index: seat.user_id for seat in seats if seat.bot_level is None}
    chosen = audiences(seats) if only is None else list(only)
    return [
        Pushed(
            seat=seat,
            holder=holders.get(seat) if seat is not None else None,
            after=after,
            frame=_frame_for(
                game,
                state,
                seat,
                seq=table.seq,
                status=table.status,
                full=False,
                deadline=deadline,
                items=items,
            ),
        )
        for seat in chosen
    ]


def presence_list(*, table_id: int) -> list[dict[str, Any]]:
    """Every seat: ``{"seat", "connected", "away", "bot", "timeouts"}``.

    ``connected``: a person holding the seat has a live connection (bots are
    always there); ``away``: a bot plays the seat until its person is back.
    """
    fresh = timezone.now() - timedelta(seconds=PRESENCE_STALE_SECONDS)
    online = set(
        SeatConnection.objects.filter(
            table_id=table_id, seat__isnull=False, seen_at__gte=fresh
        )
        .values_list("seat", flat=True)
        .distinct()
    )
    table = Table.objects.filter(pk=table_id).only("players").first()
    seats = {s.index: s for s in Seat.objects.filter(table_id=table_id)}
    out = []
    for index in range(table.players if table else 0):
        seat = seats.get(index)
        bot = seat is not None and seat.bot_level is not None
        out.append(
            {
                "seat": index,
                "connected": bot or index in online,
                "away": bool(seat and seat.away),
                "bot": bot,
                "timeouts": seat.timeouts if seat else 0,
            }
        )
    return out
