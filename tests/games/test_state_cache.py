"""``games.state_cache``: decoded states remembered by (table, seq, seed hash)."""

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import rules
from games import state_cache
from games.services import action_submit
from tests.accounts.factories import UserFactory
from tests.games.tables import seat_users, table_started


@pytest.fixture(autouse=True)
def _empty() -> Iterator[None]:
    state_cache.clear()
    yield
    state_cache.clear()


def test_a_state_is_found_only_under_its_exact_key() -> None:
    state_cache.state_put(1, 5, "hash-a", "state-5")

    assert state_cache.state_get(1, 5, "hash-a") == "state-5"
    assert state_cache.state_get(1, 4, "hash-a") is None  # another seq
    assert state_cache.state_get(1, 5, "hash-b") is None  # another match
    assert state_cache.state_get(2, 5, "hash-a") is None


def test_one_entry_per_table_the_latest(monkeypatch: pytest.MonkeyPatch) -> None:
    state_cache.state_put(1, 5, "h", "old")
    state_cache.state_put(1, 6, "h", "new")

    assert state_cache.state_get(1, 5, "h") is None
    assert state_cache.state_get(1, 6, "h") == "new"


def test_the_least_recently_used_table_is_forgotten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(state_cache, "CAPACITY", 2)
    state_cache.state_put(1, 1, "h", "one")
    state_cache.state_put(2, 1, "h", "two")
    state_cache.state_get(1, 1, "h")  # table 1 is used again

    state_cache.state_put(3, 1, "h", "three")

    assert state_cache.state_get(2, 1, "h") is None
    assert state_cache.state_get(1, 1, "h") == "one"
    assert state_cache.state_get(3, 1, "h") == "three"


@pytest.mark.django_db
def test_a_move_is_remembered_on_commit_only(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    game = rules.get_game("alkort")
    bo = seat_users(table)[1]
    action = game.legal_actions(game.load_state(table.state), 1)[0]

    with django_capture_on_commit_callbacks(execute=False):
        result = action_submit(table_id=table.pk, user=bo, action=action)
    assert state_cache.state_get(table.pk, result["seq"], table.seed_sha256) is None

    table.refresh_from_db()
    action = game.legal_actions(game.load_state(table.state), 0)[0]
    with django_capture_on_commit_callbacks(execute=True):
        result = action_submit(
            table_id=table.pk, user=seat_users(table)[0], action=action
        )
    table.refresh_from_db()
    remembered = state_cache.state_get(table.pk, result["seq"], table.seed_sha256)
    assert remembered == game.load_state(table.state)
