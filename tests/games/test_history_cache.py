"""``games.history_cache``: a bot's turn loads and redacts only the events
this process has not seen (docs/performance.md)."""

from typing import Any

import pytest

import rules
from games import event_store, history_cache
from games.models import Table
from tests.accounts.factories import UserFactory
from tests.games.tables import bots_play, table_started

pytestmark = pytest.mark.django_db

GAME = rules.get_game("alkort")


def _loads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any]]:
    """Record each load of events: its ``after`` and ``until``."""
    loads: list[tuple[Any, Any]] = []
    load = event_store.load_events

    def counted(table: Any, *, after: int = 0, until: int | None = None) -> Any:
        loads.append((after, until))
        return load(table, after=after, until=until)

    monkeypatch.setattr(event_store, "load_events", counted)
    return loads


def _bots_table() -> Table:
    return table_started(
        seating=["random", "basic"], creator=UserFactory(), options={"target": 3}
    )


def test_the_history_is_the_log_and_its_redaction() -> None:
    table = _bots_table()
    bots_play(table, limit=30)
    table.refresh_from_db()
    seq = table.seq

    for seat in (0, 1):
        events, redacted = history_cache.history_redacted(
            GAME, table.pk, table.seed_sha256, seq, seat
        )
        logged = event_store.load_events(table, until=seq)
        assert list(events) == logged
        assert list(redacted) == [GAME.redact(e, seat) for e in logged]
    # An earlier seq is a prefix of what is remembered.
    events, redacted = history_cache.history_redacted(
        GAME, table.pk, table.seed_sha256, 5, 1
    )
    assert list(events) == event_store.load_events(table, until=5)
    assert list(redacted) == [GAME.redact(e, 1) for e in events]


def test_each_bot_turn_reads_only_the_events_after_the_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Read with the table and its seats, in the same round trip on
    PostgreSQL (``table_read_seats``), and nothing loaded besides."""
    from django.db import connection

    from games.services import bots as bot_services

    table = _bots_table()
    reads: list[tuple[int, int, int]] = []  # events_after, the row's seq, read
    read = bot_services.table_read_seats

    def counted(table_id: int, *, events_after: int = 0) -> Any:
        row, seats, events = read(table_id, events_after=events_after)
        reads.append((events_after, row.seq, len(events)))
        return row, seats, events

    monkeypatch.setattr(bot_services, "table_read_seats", counted)
    loads = _loads(monkeypatch)

    played = bots_play(table, limit=12)

    assert played == 12
    assert reads[0][0] == 0  # the first turn reads the log from the start
    seqs = [seq for _, seq, _ in reads]
    assert [after for after, _, _ in reads[1:]] == seqs[:-1]  # then what is new
    assert all(count == seq - after for after, seq, count in reads)
    if connection.vendor == "postgresql":
        assert loads == []


def test_events_read_elsewhere_are_used_only_where_they_follow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = _bots_table()
    bots_play(table, limit=6)
    table.refresh_from_db()
    known = history_cache.history_known(table.pk)
    assert 0 < known < table.seq  # up to where the last turn started
    logged = event_store.load_events(table)
    loads = _loads(monkeypatch)

    # Events after another seq than what is remembered: loaded here instead.
    events, _ = history_cache.history_redacted(
        GAME, table.pk, table.seed_sha256, table.seq, 0, read=(known - 1, [])
    )
    assert list(events) == logged
    assert loads == [(known, table.seq)]


def test_another_match_on_the_same_id_is_not_answered_from_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = _bots_table()
    bots_play(table, limit=4)
    table.refresh_from_db()
    loads = _loads(monkeypatch)

    with pytest.raises(ValueError, match="no events 1 to"):
        # The same id with another seed hash: read from the start, and
        # refused, since this table's log is not that match's.
        history_cache.history_redacted(GAME, table.pk, "0" * 64, table.seq + 50, 0)
    assert loads == [(0, table.seq + 50)]


def test_it_remembers_at_most_capacity_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history_cache, "CAPACITY", 2)
    tables = [_bots_table() for _ in range(3)]
    for table in tables:
        bots_play(table, limit=1)
    assert list(history_cache._entries) == [tables[1].pk, tables[2].pk]


def test_a_bot_turn_still_plays_what_it_played_from_the_whole_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same seed, played with the memo and with the log read afresh for
    every turn, gives the same match."""
    seen: list[list[Any]] = []
    for afresh in (False, True):
        table = table_started(
            seating=["basic", "basic"],
            creator=UserFactory(),
            options={"target": 3},
            seed="history-memo",
        )
        if afresh:
            monkeypatch.setattr(history_cache, "CAPACITY", 0)
        bots_play(table, limit=40)
        seen.append([(e.type, e.payload) for e in event_store.load_events(table)][1:])
    assert seen[0] == seen[1]
    assert len(seen[0]) > 40


def test_a_turn_for_a_table_without_its_events_is_refused() -> None:
    table = _bots_table()
    table.refresh_from_db()
    with pytest.raises(ValueError):
        history_cache.history_redacted(
            GAME, table.pk, table.seed_sha256, table.seq + 3, 0
        )


@pytest.mark.django_db(transaction=True)
def test_a_bot_turn_decodes_the_tables_state_once(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """The state read before choosing (committed, outside a transaction) is
    remembered, so the lock's read leaves it in the database."""
    from games import state_cache

    settings.BOT_MOVE_DELAY = 60  # the turns wait for the test (held)
    table = _bots_table()
    state_cache.clear()  # as in a worker that did not make the last move
    decoded: list[int] = []
    load_state = GAME.load_state

    def counted(data: Any) -> Any:
        decoded.append(1)
        return load_state(data)

    monkeypatch.setattr(GAME, "load_state", counted)

    try:
        assert bots_play(table, limit=1) == 1
        assert len(decoded) == 1
    finally:
        from games import scheduler

        scheduler.held.clear()
