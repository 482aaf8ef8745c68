"""Signals other apps listen to (seams, so ``games`` imports none of them).

``table_finishing`` is sent inside the transaction that finishes a match,
before it commits, with ``table`` (the row as it is about to be written:
status finished, ``finished_at`` set). Its receivers write rows that must
commit with the finish or roll back with it (the statistics' queue of tables
waiting for their count, ``stats.PendingTable``), and nothing else: no task,
no message, as the transaction may yet roll back. It is sent with ``send``,
not ``send_robust``: a receiver that fails fails the move, so a table is
never finished without what its receivers write.

``table_finished`` is sent on commit once a match has ended, with
``table_id``. The statistics app (docs/architecture.md §7) connects a receiver that
queues ``stats_record_table(table_id)``; until it exists nobody listens.
Receivers must be quick and idempotent (queue a task, do not compute).
"""

from django.dispatch import Signal

table_finishing = Signal()
table_finished = Signal()
