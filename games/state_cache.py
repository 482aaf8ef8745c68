"""An in-process memo of recent table states, so a move skips decoding.

``Table.state`` (JSON) is the durable cache of a table's state; reading and
decoding it (``game.load_state``) costs a move about a tenth of a millisecond
of CPU, and the move can then be decided only once the row is read
(``games.services.ahead`` needs the state before). This memo keeps the
decoded state of recently played tables, keyed by ``(table id, seq, seed
hash)``: the events up to a seq never change (the log is append-only), so an
entry can never be stale — a process that missed later moves simply misses
here and decodes the row. Entries are added only after the transaction that
produced them commits, so a rolled-back move is never remembered.

States are immutable values, so sharing them between requests is safe.
After ``rebuild_table_state`` replaced a wrong cache (a rules fix), restart
the processes so no memo of the old fold survives.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

#: How many tables' latest states one process remembers.
CAPACITY = 512

_Key = tuple[int, int, str]
_entries: OrderedDict[int, tuple[_Key, Any]] = OrderedDict()
_lock = threading.Lock()


def state_get(table_id: int, seq: int, seed_sha256: str) -> Any | None:
    """The remembered state of the table at ``seq``, or None."""
    key = (table_id, seq, seed_sha256)
    with _lock:
        entry = _entries.get(table_id)
        if entry is None or entry[0] != key:
            return None
        _entries.move_to_end(table_id)
        return entry[1]


def state_known(table_id: int) -> tuple[int, str] | None:
    """The ``(seq, seed hash)`` of the state remembered for the table, if any
    (so the row's lock can leave the cached JSON in the database)."""
    latest = state_latest(table_id)
    return None if latest is None else latest[:2]


def state_latest(table_id: int) -> tuple[int, str, Any] | None:
    """The ``(seq, seed hash, state)`` remembered for the table, if any."""
    with _lock:
        entry = _entries.get(table_id)
    return None if entry is None else (entry[0][1], entry[0][2], entry[1])


def state_put(table_id: int, seq: int, seed_sha256: str, state: Any) -> None:
    """Remember ``state`` as the table's state at ``seq`` (call on commit)."""
    with _lock:
        _entries[table_id] = ((table_id, seq, seed_sha256), state)
        _entries.move_to_end(table_id)
        while len(_entries) > CAPACITY:
            _entries.popitem(last=False)


def state_forget(table_id: int) -> None:
    """Forget the table's state, as a process that did not make its last
    move knows nothing of it (``bench/event_store.py`` measures that move)."""
    with _lock:
        _entries.pop(table_id, None)


def clear() -> None:
    """Forget everything (tests; after a rebuild)."""
    with _lock:
        _entries.clear()
