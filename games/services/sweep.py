"""The turn sweep: pick up tables whose next turn's job was lost.

A bot turn or turn timer is scheduled on commit; if the broker was down at
that moment, or the process holding the embedded default's scheduler thread
stopped, the job is gone and the table would wait forever. The sweep (Celery
beat every 30 s; the scheduler thread at start and then as often) finds tables
in play that have not moved for a while and schedules their turn again. Jobs
carry the seq and are idempotent, so one scheduled twice plays once.

Matches that everyone abandoned stay still for ever (an untimed table waiting
for a person needs no job), so the sweep cannot simply read the oldest still
tables: once there were ``BATCH`` abandoned ones it would never get past them.
It reads the most recently still tables first, where a job lost a moment ago
is, and then as many again from a cursor (kept in the cache) that walks the
older still tables one batch per sweep and wraps round: a job lost long ago,
or while every process was down, is found within a few sweeps.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.utils import timezone

import rules
from games.clock import turn_deadline
from games.models import Table, TableStatus
from games.services.followups import (
    bot_turn_due,
    bot_turn_schedule,
    turn_timer_due,
    turn_timer_schedule,
)
from games.services.recording import state_load

#: A table is looked at once it has been still this long past its next job.
GRACE_SECONDS = 10.0

#: Tables one sweep looks at among the most recently still, and as many again
#: from the cursor over the older ones.
BATCH = 250

#: Where the cursor over the older still tables is kept between sweeps:
#: the (``updated_at``, id) of the last table the previous sweep read there.
CURSOR_KEY = "games:turns-sweep:cursor"
CURSOR_TIMEOUT = 24 * 3600


def turns_sweep() -> int:
    """Schedule the lost bot turns and timers again; return how many."""
    now = timezone.now()
    still = now - timedelta(seconds=GRACE_SECONDS + settings.BOT_MOVE_DELAY)
    newest_first = Table.objects.filter(
        status=TableStatus.PLAYING, updated_at__lt=still
    ).order_by("-updated_at", "-id")
    recent = list(newest_first.prefetch_related("seats")[:BATCH])
    older: list[Table] = []
    if len(recent) == BATCH:
        after = _cursor_get() or (recent[-1].updated_at, recent[-1].pk)
        last = recent[-1].updated_at, recent[-1].pk
        after = min(after, last)  # never back inside the recent batch
        older = list(_older(newest_first, after).prefetch_related("seats")[:BATCH])
        _cursor_set(
            (older[-1].updated_at, older[-1].pk) if len(older) == BATCH else None
        )
    scheduled = 0
    for table in recent + older:
        game = rules.get_game(table.game)
        to_act = game.to_act(state_load(game, table))
        seats = list(table.seats.all())
        if bot_turn_due(seats, to_act):
            bot_turn_schedule(table.pk, table.seq, delay=0.0)
            scheduled += 1
        deadline = turn_deadline(table)
        late = deadline is not None and deadline < now - timedelta(
            seconds=GRACE_SECONDS
        )
        if late and turn_timer_due(table, seats, to_act):
            turn_timer_schedule(table.pk, table.seq, 0.0)
            scheduled += 1
    return scheduled


def _older(tables: QuerySet[Table], after: tuple[object, int]) -> QuerySet[Table]:
    """``tables`` (newest still first) past ``after`` in that order."""
    updated_at, pk = after
    return tables.filter(
        Q(updated_at__lt=updated_at) | Q(updated_at=updated_at, id__lt=pk)
    )


def _cursor_get() -> tuple[object, int] | None:
    try:
        cursor = cache.get(CURSOR_KEY)
    except Exception:  # noqa: BLE001 - without the cache the walk starts again
        return None
    return None if cursor is None else (cursor[0], cursor[1])


def _cursor_set(cursor: tuple[object, int] | None) -> None:
    try:
        if cursor is None:
            cache.delete(CURSOR_KEY)  # the walk is round: start again
        else:
            cache.set(CURSOR_KEY, cursor, CURSOR_TIMEOUT)
    except Exception:  # noqa: BLE001 - without the cache the walk starts again
        return
