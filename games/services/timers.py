"""Turn timers: a person who lets a timed move run out gets a safe default.

A table created with ``time_control`` (seconds per move) gives every person
that long for each move, from the moment the previous move was stored
(``games.clock.turn_deadline``; the view and every frame show the deadline).
When the time is up, the ``turn_timer_expire`` job, carrying the seq it was
scheduled for, plays the seat's safe default: ``pass`` where the rules allow
it, else the move the ``basic`` bot would make. It records a ``SeatTimeout``
row (the marker statistics count; see docs/live-protocol.md) in the same
transaction. After ``AWAY_AFTER`` timeouts in a row the seat is marked away
and the ``basic`` bot plays it until its person acts or reconnects
(``presence.seat_back``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

import rules
from games.clock import turn_deadline
from games.errors import NotFound
from games.history_cache import history_redacted
from games.models import Seat, SeatTimeout, Table, TableStatus
from games.services.actions import move_apply
from games.services.bots import bot_turn_choose
from games.services.followups import (
    STAND_IN_LEVEL,
    seat_bot_level,
    turn_timer_schedule,
)
from games.services.locking import table_lock_seats
from games.services.presence import presence_send
from games.services.recording import state_load

#: Timeouts in a row after which a bot stands in for the seat.
AWAY_AFTER = 3

#: A timer that fires this early (clock skew between processes) waits again.
EARLY_TOLERANCE = 0.05

PASS = {"type": "pass"}


def timeout_action(
    game: rules.Game[Any], state: Any, table: Table, seat: int
) -> dict[str, Any]:
    """The safe default for ``seat``: pass if allowed, else the basic bot's move."""
    if PASS in game.legal_actions(state, seat):
        return dict(PASS)
    history, redacted = history_redacted(
        game, table.pk, table.seed_sha256, table.seq, seat
    )
    return bot_turn_choose(game, state, history, table, seat, STAND_IN_LEVEL, redacted)


@transaction.atomic
def turn_timer_expire(*, table_id: int, seq: int) -> int | None:
    """Play the default move of the person whose time ran out at ``seq``.

    Returns the new seq, or None when nothing was due (the table moved on,
    is not in play or not timed, a bot is to act, or the deadline is still
    ahead, in which case the timer is scheduled again). Lock: the table row.
    """
    try:
        table, seats, _ = table_lock_seats(table_id)
    except NotFound:
        return None
    if table.status != TableStatus.PLAYING or table.seq != seq:
        return None
    deadline = turn_deadline(table)
    if deadline is None:
        return None
    remaining = (deadline - timezone.now()).total_seconds()
    if remaining > EARLY_TOLERANCE:
        transaction.on_commit(
            lambda: turn_timer_schedule(table_id, seq, remaining), robust=True
        )
        return None
    game = rules.get_game(table.game)
    state = state_load(game, table)
    to_act = game.to_act(state)
    seat = next((s for s in seats if s.index in to_act and not seat_bot_level(s)), None)
    if seat is None:
        return None
    action = timeout_action(game, state, table, seat.index)
    seat.timeouts += 1
    seat.away = seat.timeouts >= AWAY_AFTER
    Seat.objects.filter(pk=seat.pk).update(timeouts=seat.timeouts, away=seat.away)
    SeatTimeout.objects.create(
        table=table, seq=table.seq + 1, seat=seat.index, user_id=seat.user_id
    )
    result = move_apply(
        table=table, seats=seats, seat=seat.index, actor_id=seat.user_id, action=action
    )
    presence_send(table.pk)
    new_seq: int = result["seq"]
    return new_seq
