"""``games.services.ahead``: a move decided while its row lock is on the way
is used only where the locked row proves it right."""

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from psycopg.pq import TransactionStatus

import rules
from games import event_store, state_cache
from games.errors import Conflict
from games.models import GameEvent, Table
from games.services import action_submit, ahead
from tests.accounts.factories import UserFactory
from tests.games.tables import raises_table_error, seat_users, table_started

pytestmark = pytest.mark.django_db

GAME = rules.get_game("alkort")


@pytest.fixture(autouse=True)
def _forget() -> Iterator[None]:
    state_cache.clear()
    ahead._seating.clear()
    yield
    state_cache.clear()
    ahead._seating.clear()


@pytest.fixture
def table(django_capture_on_commit_callbacks: Callable[..., Any]) -> Table:
    """Two-player Alkort after one move made here, so this process remembers
    the state and who sits where, as after any move it served."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    with django_capture_on_commit_callbacks(execute=True):
        action_submit(
            table_id=table.pk,
            user=seat_users(table)[1],
            action=GAME.legal_actions(GAME.load_state(table.state), 1)[0],
        )
    table.refresh_from_db()
    assert state_cache.state_known(table.pk) == (table.seq, table.seed_sha256)
    return table


def _to_act(table: Table) -> tuple[int, Any]:
    state = GAME.load_state(table.state)
    seat = GAME.to_act(state)[0]
    return seat, seat_users(table)[seat]


def _decisions(monkeypatch: pytest.MonkeyPatch) -> list[TransactionStatus | None]:
    """Each call of the rules' ``decide``, with the connection's status then
    (ACTIVE: a statement was on its way to the server)."""
    calls: list[TransactionStatus | None] = []
    decide = GAME.decide

    def watched(state: Any, seat: int, action: Any) -> list[rules.Event]:
        pg = connection.connection if connection.vendor == "postgresql" else None
        calls.append(None if pg is None else pg.pgconn.transaction_status)
        return decide(state, seat, action)

    monkeypatch.setattr(GAME, "decide", watched)
    return calls


def test_a_move_is_decided_once_during_the_locks_round_trip(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    seat, person = _to_act(table)
    state = GAME.load_state(table.state)
    action = GAME.legal_actions(state, seat)[0]
    events = GAME.decide(state, seat, action)
    calls = _decisions(monkeypatch)

    result = action_submit(
        table_id=table.pk, user=person, action=action, expected_seq=table.seq
    )

    if connection.vendor == "postgresql":
        assert calls == [TransactionStatus.ACTIVE]
    else:
        assert len(calls) == 1  # before the lock: SQLite has no round trip
    fresh = Table.objects.get(pk=table.pk)
    after = GAME.replay(event_store.load_events(fresh))
    assert fresh.seq == table.seq + len(events) == result["seq"]
    assert GAME.load_state(fresh.state) == after
    assert result["view"] == GAME.view(after, seat)
    assert result["legal_actions"] == GAME.legal_actions(after, seat)


def test_without_the_clients_seq_nothing_is_decided_ahead(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    seat, person = _to_act(table)
    action = GAME.legal_actions(GAME.load_state(table.state), seat)[0]
    calls = _decisions(monkeypatch)

    action_submit(table_id=table.pk, user=person, action=action)

    # Decided once, after the lock (the connection idle in its transaction).
    assert len(calls) == 1
    if connection.vendor == "postgresql":
        assert calls == [TransactionStatus.INTRANS]


def test_a_refusal_decided_ahead_is_raised_under_the_lock(table: Table) -> None:
    seat, _ = _to_act(table)
    other = seat_users(table)[1 - seat]
    events = GameEvent.objects.filter(table=table).count()

    with pytest.raises(rules.NotYourTurn):
        action_submit(
            table_id=table.pk,
            user=other,
            action={"type": "pass"},
            expected_seq=table.seq,
        )

    assert GameEvent.objects.filter(table=table).count() == events
    assert Table.objects.get(pk=table.pk).seq == table.seq


def test_a_state_the_table_has_left_decides_nothing(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """This process remembers seq N; another process has played since. A
    client at seq N is told its view is stale, as before, and not what the
    rules would have said at seq N."""
    old = (table.seq, table.seed_sha256, GAME.load_state(table.state))
    seat, person = _to_act(table)
    action_submit(
        table_id=table.pk,
        user=person,
        action=GAME.legal_actions(old[2], seat)[0],
    )
    moved = Table.objects.get(pk=table.pk)
    state_cache.state_put(table.pk, *old)  # as if the move was made elsewhere
    out_of_turn = seat_users(table)[1 - seat]

    with raises_table_error(
        Conflict,
        "stale",
        f"Your view is stale: table {table.pk} is at seq {moved.seq}, "
        f"not {table.seq}. Fetch the table and try again.",
    ):
        action_submit(
            table_id=table.pk,
            user=out_of_turn,
            action={"type": "pass"},
            expected_seq=table.seq,
        )
    assert Table.objects.get(pk=table.pk).seq == moved.seq


def test_a_crash_in_the_rules_ahead_is_reported_once_after_the_lock(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    seat, person = _to_act(table)

    def crash(state: Any, seat: int, action: Any) -> list[rules.Event]:
        raise RuntimeError("a rules bug")

    monkeypatch.setattr(GAME, "decide", crash)

    with (
        caplog.at_level(logging.ERROR, logger="games.services.actions"),
        pytest.raises(rules.MalformedAction),
    ):
        action_submit(
            table_id=table.pk,
            user=person,
            action={"type": "pass"},
            expected_seq=table.seq,
        )

    # One record (its traceback follows the first line).
    assert [r.getMessage().splitlines()[0] for r in caplog.records] == [
        f"alkort.decide crashed on a 'pass' action from seat {seat}"
    ]
    assert Table.objects.get(pk=table.pk).seq == table.seq


def test_a_guess_for_another_seat_is_not_used(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint of who sits where is only a hint: a guess made for the wrong
    seat is dropped and the move decided after the lock, for the right one."""
    seat, person = _to_act(table)
    game_name, seating = ahead._seating[table.pk]
    ahead._seating[table.pk] = (game_name, {**seating, person.pk: 1 - seat})
    state = GAME.load_state(table.state)
    action = GAME.legal_actions(state, seat)[0]
    calls = _decisions(monkeypatch)

    result = action_submit(
        table_id=table.pk, user=person, action=action, expected_seq=table.seq
    )

    assert len(calls) == 2  # ahead for the wrong seat, then after the lock
    assert result["seq"] == table.seq + len(GAME.decide(state, seat, action))
    after = GAME.replay(event_store.load_events(table))
    assert result["view"] == GAME.view(after, seat)
