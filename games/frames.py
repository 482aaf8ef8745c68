"""Reads for live play: the frames one WebSocket connection receives.

Like ``games.selectors``, everything here is shaped for one requester: views
come from ``game.view`` for the connection's seat (None: a spectator) and
events from ``game.redact`` for that seat, until the match ends and the log is
public. The seat is looked up afresh for every frame, so a person who left
the match (a bot took the seat over) watches from then on as a spectator.

The protocol is described in ``docs/live-protocol.md``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone

import rules
from games import event_store
from games.errors import NotFound
from games.models import Seat, SeatConnection, Table, TableStatus
from games.services.followups import turn_deadline
from games.state_cache import state_get

#: A connection whose client has not pinged for this long no longer counts as
#: present (its server process may have died without closing it).
PRESENCE_STALE_SECONDS = 90


def _table_with_seat(table_id: int, user_id: int | None) -> tuple[Table, int | None]:
    """The table row and the user's own (person) seat, in one query."""
    tables = Table.objects.filter(pk=table_id)
    if user_id is not None:
        tables = tables.annotate(
            my_seat=Subquery(
                Seat.objects.filter(
                    table=OuterRef("pk"), user_id=user_id, bot_level__isnull=True
                ).values("index")[:1]
            )
        )
    table = tables.first()
    if table is None:
        raise NotFound("not_found", f"Table {table_id} does not exist.")
    return table, getattr(table, "my_seat", None)


def seat_find(*, table_id: int, user_id: int | None) -> int | None:
    """The user's seat at the table (None: a spectator); ``NotFound``."""
    return _table_with_seat(table_id, user_id)[1]


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
    table, seat = _table_with_seat(table_id, user_id)
    if after == table.seq and not always:
        return None
    full = (
        after is None
        or after > table.seq
        or table.seq - after > settings.LIVE_RESYNC_MAX_EVENTS
    )
    view: dict[str, Any] | None = None
    legal: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    if table.state is not None:
        game = rules.get_game(table.game)
        state = state_get(table.pk, table.seq, table.seed_sha256)
        if state is None:
            state = game.load_state(table.state)
        view = game.view(state, seat)
        if seat is not None and seat in game.to_act(state):
            legal = game.legal_actions(state, seat)
        if not full:
            stored = event_store.load(table, after=after or 0, until=table.seq)
            public = table.status == TableStatus.FINISHED
            events = [
                {
                    "seq": item.seq,
                    **(
                        item.event if public else game.redact(item.event, seat)
                    ).to_json(),
                    "seat": item.seat,
                }
                for item in stored
            ]
    deadline = turn_deadline(table)
    return {
        "type": "state",
        "seq": table.seq,
        "status": table.status,
        "seat": seat,
        "full": full,
        "view": view,
        "legal_actions": legal,
        "deadline": deadline.isoformat() if deadline else None,
        "events": events,
    }


def presence_list(*, table_id: int) -> list[dict[str, Any]]:
    """Every seat: ``{"seat", "connected", "away", "bot", "timeouts"}``.

    ``connected``: a person holding the seat has a live connection (bots are
    always there); ``away``: a bot plays the seat until its person is back.
    """
    fresh = timezone.now() - timedelta(seconds=PRESENCE_STALE_SECONDS)
    online = set(
        SeatConnection.objects.filter(table_id=table_id, seen_at__gte=fresh)
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
