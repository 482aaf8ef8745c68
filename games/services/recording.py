"""Loading a table's state and recording what a move or a start produced.

``state_load`` reads the cached state (never a replay); ``record`` appends
the events and rewrites the cache in the same transaction, under the lock
the caller holds (``games.services.locking``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

import rules
from games import event_store, signals
from games.models import Table, TableStatus
from games.state_cache import state_get, state_put


def state_load(game: rules.Game[Any], table: Table) -> Any:
    """The table's current state, from its cached projection (never a replay).

    The decoded state is usually still in this process's memo
    (``games.state_cache``); otherwise the row's JSON is decoded.
    """
    state = state_get(table.pk, table.seq, table.seed_sha256)
    if state is None:
        state = game.load_state(table.state)
    return state


def record(
    *,
    table: Table,
    game: rules.Game[Any],
    state: Any,
    events: list[rules.Event],
    actor_id: int | None,
    seat: int | None,
    command: dict[str, Any] | None = None,
    also_save: tuple[str, ...] = (),
    last: Callable[[], None] | None = None,
    dumped: tuple[Any, str] | None = None,
) -> None:
    """Append ``events`` and save the table's cached state, seq and outcome.

    Lock: the caller holds the table row (``table_lock``); ``state`` is the
    fold of the table's state through ``events``. ``command`` (``{"command_id",
    "action"}``) is stored with them, and the new seq, for idempotent retries.
    ``also_save`` names other table fields the caller changed (table_start).
    On the hot path (no ``also_save``) everything is written by one statement
    (``event_store.append_with_projection``).

    ``last``: the caller's remaining work, run once the table holds its new
    seq and status and before the write is sent; the caller then returns
    from its ``atomic`` block at once. The write is its transaction's last
    statement, so on PostgreSQL it carries the ``COMMIT`` too
    (``config.db.commit_folds``), and nothing that could fail runs after it.

    ``dumped``: ``game.dump_state(state)`` and its JSON text, when the caller has
    them already (``games.services.ahead``).

    Every match ends here (a person's move, a bot's, a turn timer's, at the
    start): when ``events`` end it, ``signals.table_finishing`` is sent in
    this transaction, before the write.
    """
    if dumped is None:
        table.state = game.dump_state(state)
        state_text = None
    else:
        table.state, state_text = dumped
    new_seq = table.seq + len(events)
    outcome = game.outcome(state)
    if outcome is not None:
        table.status = TableStatus.FINISHED
        table.outcome = outcome
        table.finished_at = timezone.now()
    transaction.on_commit(
        partial(state_put, table.pk, new_seq, table.seed_sha256, state), robust=True
    )
    if outcome is not None:
        # In this transaction, before the write that may carry its COMMIT:
        # what the receivers write commits or rolls back with the finish.
        signals.table_finishing.send(sender=Table, table=table)
    if also_save:
        assert command is None and last is None, "the hot path's only"
        table.seq = event_store.append(
            table=table,
            expected_seq=table.seq,
            events=events,
            actor_id=actor_id,
            seat=seat,
        )
        table.save(update_fields=[*event_store.PROJECTION_FIELDS, *also_save])
    else:
        old_seq = table.seq
        if last is not None:
            table.seq = new_seq  # as the write leaves it, for ``last``
            try:
                last()
            finally:
                table.seq = old_seq
        event_store.append_with_projection(
            table=table,
            expected_seq=old_seq,
            events=events,
            actor_id=actor_id,
            seat=seat,
            command=command,
            commit=last is not None,
            state_text=state_text,
        )
