"""Who is at the table: its WebSocket connections, and away seats.

Every socket registers a ``SeatConnection`` (the audience it listens to) when
it opens and removes it when it closes. A seated person's connections make
the seat present; every change to those is followed, on commit, by the
table's presence list (``games.frames.presence_list``) sent to everyone
watching. A
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
from games.services.locking import table_lock, table_share_lock
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
def connection_open(
    *, table_id: int, user: User | None, channel_name: str, process: str = ""
) -> Opened:
    """Register a socket on table ``table_id``; ``NotFound`` if there is none.

    Every socket registers the audience it listens to (its seat, or None for
    a spectator) and the server process holding it (``process``: the
    channel layer's id for it), so moves know whom to build frames for and
    which go through Redis (``SeatConnection``); the consumer joins that audience's group and reads
    the table only after this commits. A seated person's socket also counts
    for presence, and brings an away seat back (``seat_back``). Lock: the
    table row, shared (``table_share_lock``), or exclusive to bring a seat
    back, judged again under it: a seat its person left meanwhile (a bot's
    now), or that a move of theirs brought back already, is left alone. A
    seat brought back on a timed table restarts the move's clock with no
    move to say so, so every socket is told to read its frame (the new
    ``deadline``) again.
    """
    user_id = user.pk if user else None
    seat = frames.seat_find(table_id=table_id, user_id=user_id)
    row = None
    if seat is not None:
        row = Seat.objects.filter(table_id=table_id, index=seat).first()
    back = row is not None and (row.away or row.timeouts)
    # The exclusive lock is taken first, not after a share lock: two sockets
    # upgrading their share locks on one table would deadlock.
    table = table_lock(table_id) if back else None
    if table is None:
        table_share_lock(table_id)
    SeatConnection.objects.create(
        table_id=table_id,
        seat=seat,
        process=process,
        channel_name=channel_name,
        seen_at=timezone.now(),
    )
    if table is not None:
        # Judged again under the lock: the person may have left meanwhile (a
        # bot holds the seat now) or been brought back by a move of theirs.
        seats = list(table.seats.all())
        mine = next(
            (
                s
                for s in seats
                if s.index == seat and s.user_id == user_id and s.bot_level is None
            ),
            None,
        )
        if mine is not None and (mine.away or mine.timeouts):
            seat_back(table=table, seat=mine, seats=seats)
            if table.status == TableStatus.PLAYING and table.time_control:
                # The clock restarted with no move to carry the new deadline:
                # every socket reads its frame again (ours reads it anyway).
                table_id, seq = table.pk, table.seq
                transaction.on_commit(
                    lambda: realtime.table_changed(table_id, seq, seats=True),
                    robust=True,
                )
        else:
            presence_send(table_id)
    elif seat is not None:
        presence_send(table_id)
    return Opened(seat=seat)


@transaction.atomic
def connection_moved(*, table_id: int, channel_name: str, seat: int | None) -> None:
    """A socket now listens to ``seat``'s audience (its seat changed hands,
    or a spectator took a seat); the consumer reads the table after this
    commits. Lock: the table row, shared (``table_share_lock``)."""
    table_share_lock(table_id)
    SeatConnection.objects.filter(channel_name=channel_name).update(seat=seat)
    presence_send(table_id)


@transaction.atomic
def connection_close(*, table_id: int, channel_name: str) -> None:
    """Forget a closed socket; tell the table if a seat's presence changed."""
    rows = SeatConnection.objects.filter(channel_name=channel_name)
    seats = list(rows.values_list("seat", flat=True))
    rows.delete()
    if any(seat is not None for seat in seats):
        presence_send(table_id)


def connection_seen(*, channel_name: str) -> None:
    """The client pinged: its connection still counts as present."""
    SeatConnection.objects.filter(channel_name=channel_name).update(
        seen_at=timezone.now()
    )
