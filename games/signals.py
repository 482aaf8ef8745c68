"""Signals other apps listen to (seams, so ``games`` imports none of them).

``table_finished`` is sent on commit once a match has ended, with
``table_id``. The statistics app (docs/architecture.md §7) connects a receiver that
queues ``stats_record_table(table_id)``; until it exists nobody listens.
Receivers must be quick and idempotent (queue a task, do not compute).
"""

from django.dispatch import Signal

table_finished = Signal()
