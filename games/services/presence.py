"""Who is at the table: WebSocket connections of seated people, and away seats.

A seated person's socket registers a ``SeatConnection`` when it opens and
removes it when it closes; every change is followed, on commit, by the table's
presence list (``games.frames.presence_list``) sent to everyone watching. A
person whose seat was marked away (turn timers, ``games.services.timers``) is
back when they act or reconnect: :func:`seat_back` clears the mark and
restarts the move's clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

import rules
from accounts.models import User
from games import frames, realtime
from games.models import Seat, SeatConnection, Table, TableStatus
from games.services.followups import turn_timer_due, turn_timer_schedule
from games.services.locking import table_lock
from games.services.recording import state_load


def presence_send(table_id: int) -> None:
    """On commit: send the table's presence list to its group."""

    def send() -> None:
        realtime.presence_changed(table_id, frames.presence_list(table_id=table_id))

    transaction.on_commit(send, robust=True)


def seat_back(*, table: Table, seat: Seat, seats: list[Seat]) -> None:
    """The person at ``seat`` is back: clear its away mark and timeout count.

    Lock: the caller holds the table row. The move's clock restarts (a fresh
    ``time_control`` from now), and if the seat may act, its turn timer is
    scheduled (the bot turn queued while it was away will find a person there
    and do nothing).
    """
    seat.away, seat.timeouts = False, 0
    Seat.objects.filter(pk=seat.pk).update(away=False, timeouts=0)
    if table.status == TableStatus.PLAYING and table.time_control:
        table.updated_at = timezone.now()
        Table.objects.filter(pk=table.pk).update(updated_at=table.updated_at)
        game = rules.get_game(table.game)
        to_act = game.to_act(state_load(game, table))
        if turn_timer_due(table, seats, to_act):
            table_id, seq, delay = table.pk, table.seq, float(table.time_control)
            transaction.on_commit(
                lambda: turn_timer_schedule(table_id, seq, delay), robust=True
            )
    presence_send(table.pk)


@dataclass(frozen=True)
class Opened:
    """A connection as the consumer needs it: the seat it watches from."""

    seat: int | None


@transaction.atomic
def connection_open(*, table_id: int, user: User | None, channel_name: str) -> Opened:
    """Register a socket on table ``table_id``; ``NotFound`` if there is none.

    A seated person's socket counts for presence, and brings an away seat
    back (``seat_back``). Lock: the table row, only to bring a seat back.
    """
    seat = frames.seat_find(table_id=table_id, user_id=user.pk if user else None)
    if seat is None:
        return Opened(seat=None)
    SeatConnection.objects.create(
        table_id=table_id, seat=seat, channel_name=channel_name, seen_at=timezone.now()
    )
    row = Seat.objects.filter(table_id=table_id, index=seat).first()
    if row is not None and (row.away or row.timeouts):
        table = table_lock(table_id)
        seats = list(table.seats.all())
        mine = next(s for s in seats if s.index == seat)
        seat_back(table=table, seat=mine, seats=seats)
    else:
        presence_send(table_id)
    return Opened(seat=seat)


@transaction.atomic
def connection_close(*, table_id: int, channel_name: str) -> None:
    """Forget a closed socket; tell the table if a seat's presence changed."""
    deleted, _ = SeatConnection.objects.filter(channel_name=channel_name).delete()
    if deleted:
        presence_send(table_id)


def connection_seen(*, channel_name: str) -> None:
    """The client pinged: its connection still counts as present."""
    SeatConnection.objects.filter(channel_name=channel_name).update(
        seen_at=timezone.now()
    )
