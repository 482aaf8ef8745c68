"""An in-process memo of recent tables' histories, for the server's bots.

A bot's turn (and a turn timer's stand-in move) gives the bot the table's
whole history redacted for its seat: the bots read what the other seats
showed in the deal in play, and Alkort's every deal's score, from it
(``rules.bots.bot_input``). Loaded afresh for each turn, that cost grew with
the match: 2-4 ms at seq 20, 35-180 ms at seq 2,000, more than the strong
bot's thinking (docs/performance.md). The events up to a seq never change
(the log is append-only), so this memo keeps, per table, the events loaded
so far and their redactions for each seat asked for, and a later turn loads
and redacts only the events after them.

A bot's turn reads the events after the ones held here in the same round
trip as its table and seats (``locking.table_read_seats``) and hands them
over (``history_redacted(read=...)``).

Keyed by the table's id and seed hash (each match deals from a secret seed
of its own), so a reused id (a database emptied and filled again) is not
answered from another match; the tests, which reuse seeds, empty it before
each test. Bounded to ``CAPACITY`` tables, the least recently used dropped
first. The entries hold the events as stored, secrets included, like the
state memo (``games.state_cache``): this process's memory only, never sent
anywhere.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import rules
from games import event_store

#: How many tables' histories one process remembers (an Alager match of
#: 2,000 events with one seat's redactions holds about 1.4 MB).
CAPACITY = 32


@dataclass(frozen=True, slots=True)
class _Entry:
    seed_sha256: str
    events: tuple[rules.Event, ...]  # seq 1, 2, ... len(events)
    redacted: dict[int, tuple[rules.Event, ...]] = field(default_factory=dict)


_entries: OrderedDict[int, _Entry] = OrderedDict()
_lock = threading.Lock()


def history_known(table_id: int) -> int:
    """How many of the table's events this process remembers (the caller
    may read the ones after them itself: ``history_redacted(read=...)``)."""
    with _lock:
        entry = _entries.get(table_id)
    return 0 if entry is None else len(entry.events)


def history_redacted(
    game: rules.Game[Any],
    table_id: int,
    seed_sha256: str,
    seq: int,
    seat: int,
    *,
    read: tuple[int, list[rules.Event]] | None = None,
) -> tuple[tuple[rules.Event, ...], tuple[rules.Event, ...]]:
    """The table's events 1 to ``seq``, and the same redacted for ``seat``
    (``game.redact``), loading and redacting only what this process has not
    seen yet. The caller has seen the table at ``seq`` (its events exist).

    ``read``: ``(after, events)``, the table's events after seq ``after``
    that the caller read already (in its own round trip); used when they
    follow what is remembered, else the events are loaded here.
    """
    with _lock:
        entry = _entries.get(table_id)
    if entry is None or entry.seed_sha256 != seed_sha256:
        entry = _Entry(seed_sha256, ())
    events = entry.events
    if len(events) < seq:
        if read is not None and read[0] == len(events):
            new = read[1][: seq - len(events)]
        else:
            new = event_store.load_events(table_id, after=len(events), until=seq)
        if len(new) != seq - len(events):  # not the events the seq says
            raise ValueError(f"table {table_id} has no events 1 to {seq}")
        events = (*events, *new)
    seen = entry.redacted.get(seat, ())
    if len(seen) < len(events):
        seen = (*seen, *(game.redact(e, seat) for e in events[len(seen) :]))
    _keep(table_id, _Entry(seed_sha256, events, {**entry.redacted, seat: seen}))
    return events[:seq], seen[:seq]


def _keep(table_id: int, entry: _Entry) -> None:
    with _lock:
        held = _entries.get(table_id)
        if (
            held is not None
            and held.seed_sha256 == entry.seed_sha256
            and len(held.events) > len(entry.events)
        ):
            _entries.move_to_end(table_id)  # another thread read further
            return
        _entries[table_id] = entry
        _entries.move_to_end(table_id)
        while len(_entries) > CAPACITY:
            _entries.popitem(last=False)


def clear() -> None:
    """Forget everything (tests)."""
    with _lock:
        _entries.clear()
