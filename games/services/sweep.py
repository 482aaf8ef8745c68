"""The turn sweep: pick up tables whose next turn's job was lost.

A bot turn or turn timer is scheduled on commit; if the broker was down at
that moment, or the process holding the embedded default's scheduler thread
stopped, the job is gone and the table would wait forever. The sweep (Celery
beat every 30 s; the scheduler thread at start and then as often) finds tables
in play that have not moved for a while and schedules their turn again. Jobs
carry the seq and are idempotent, so one scheduled twice plays once.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import F
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

#: Tables one sweep looks at (the oldest first).
BATCH = 500


def turns_sweep() -> int:
    """Schedule the lost bot turns and timers again; return how many."""
    now = timezone.now()
    still = now - timedelta(seconds=GRACE_SECONDS + settings.BOT_MOVE_DELAY)
    tables = (
        Table.objects.filter(status=TableStatus.PLAYING, updated_at__lt=still)
        .order_by(F("updated_at").asc())
        .prefetch_related("seats")[:BATCH]
    )
    scheduled = 0
    for table in tables:
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
