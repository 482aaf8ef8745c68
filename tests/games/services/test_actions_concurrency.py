"""Two moves racing for one seat and seq, from two threads and connections.

These tests commit for real (``transaction=True``): each thread has its own
database connection, as two web processes would, and the table row lock in
``action_submit`` must let exactly one of them through.
"""

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

import rules
from games import event_store
from games.errors import TableError
from games.models import GameEvent, ProcessedCommand, Table
from games.services import action_submit
from tests.accounts.factories import UserFactory
from tests.games.tables import seat_users, table_started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

GAME = rules.get_game("alkort")


def _race(calls: list[Callable[[], dict[str, Any]]]) -> list[Any]:
    """Run ``calls`` at once, one thread (and connection) each; their results."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = ("ok", calls[i]())
        except TableError as exc:
            results[i] = (exc.status, exc.code, exc.message)
        except rules.RulesError as exc:
            results[i] = (400, exc.code, str(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.fixture
def table() -> Table:
    table = table_started(seating=[UserFactory(), UserFactory()])
    assert GAME.to_act(GAME.load_state(table.state)) == (1,)
    return table


def _move(table: Table, **extra: Any) -> Callable[[], dict[str, Any]]:
    bo = seat_users(table)[1]
    action = GAME.legal_actions(GAME.load_state(table.state), 1)[0]
    return lambda: action_submit(table_id=table.pk, user=bo, action=action, **extra)


def _applied_once(table: Table) -> None:
    action = GAME.legal_actions(GAME.load_state(table.state), 1)[0]
    expected = GAME.decide(GAME.load_state(table.state), 1, action)
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.seq == 2 + len(expected)
    assert GameEvent.objects.filter(table=table).count() == fresh.seq
    assert event_store.load_events(table, after=2) == expected
    assert GAME.load_state(fresh.state) == GAME.replay(event_store.load_events(table))


def test_with_expected_seq_one_applies_and_the_other_is_stale(table: Table) -> None:
    results = _race([_move(table, expected_seq=2), _move(table, expected_seq=2)])

    assert sorted(str(r[0]) for r in results) == ["409", "ok"]
    refused = next(r for r in results if r[0] == 409)
    new_seq = next(r for r in results if r[0] == "ok")[1]["seq"]
    assert refused == (
        409,
        "stale",
        f"Your view is stale: table {table.pk} is at seq {new_seq}, not 2. "
        "Fetch the table and try again.",
    )
    _applied_once(table)


def test_without_expected_seq_the_second_is_judged_on_the_new_state(
    table: Table,
) -> None:
    results = _race([_move(table), _move(table)])

    assert sorted(str(r[0]) for r in results) == ["400", "ok"]
    refused = next(r for r in results if r[0] == 400)
    assert refused == (400, "not_your_turn", "It is not your turn: seat 0 is to act")
    _applied_once(table)


def test_a_command_sent_twice_at_once_is_applied_once(table: Table) -> None:
    results = _race(
        [_move(table, command_id="dup-1"), _move(table, command_id="dup-1")]
    )

    assert [r[0] for r in results] == ["ok", "ok"]
    assert results[0][1] == results[1][1]
    assert ProcessedCommand.objects.filter(table=table).count() == 1
    _applied_once(table)
