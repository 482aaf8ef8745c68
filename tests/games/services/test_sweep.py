"""The turn sweep picks up tables whose next turn's job was lost."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import scheduler
from games.models import Table
from games.services.sweep import turns_sweep
from tests.accounts.factories import UserFactory
from tests.games.tables import table_started

pytestmark = pytest.mark.django_db


def _still_for(table: Table, seconds: float) -> None:
    Table.objects.filter(pk=table.pk).update(
        updated_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_a_still_bot_turn_is_played_again_and_a_fresh_one_is_left_alone() -> None:
    waiting = table_started(seating=[UserFactory(), "basic"])  # the bot acts first
    fresh = table_started(seating=[UserFactory(), "basic"])
    _still_for(waiting, 60)

    assert turns_sweep() == 1

    waiting.refresh_from_db()
    fresh.refresh_from_db()
    assert waiting.seq > 2  # the inline runner played the bot at once
    assert fresh.seq == 2


def test_a_lost_turn_timer_is_fired_again() -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    Table.objects.filter(pk=table.pk).update(time_control=5)
    _still_for(table, 60)
    scheduler.held.clear()

    assert turns_sweep() == 1

    table.refresh_from_db()
    assert table.seq == 3  # seat 1's default move (a pass)


def _abandoned(count: int, still_for: float) -> list[Table]:
    """Untimed matches between people, a person to act: nothing to schedule."""
    tables = [
        table_started(seating=[UserFactory(), UserFactory()]) for _ in range(count)
    ]
    for table in tables:
        _still_for(table, still_for)
    return tables


def test_a_bot_turn_lost_just_now_is_found_behind_many_abandoned_matches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Abandoned matches stay still for ever; a sweep that read the oldest
    first never got past them to a table whose job was lost a moment ago."""
    monkeypatch.setattr("games.services.sweep.BATCH", 2)
    _abandoned(6, still_for=86_400)
    waiting = table_started(seating=[UserFactory(), "basic"])
    _still_for(waiting, 60)

    assert turns_sweep() == 1

    waiting.refresh_from_db()
    assert waiting.seq > 2


def test_a_bot_turn_lost_long_ago_is_found_within_a_few_sweeps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Behind more recently abandoned matches than one sweep reads, the
    sweeps' cursor walks the older still tables in turn and wraps round."""
    monkeypatch.setattr("games.services.sweep.BATCH", 2)
    waiting = table_started(seating=[UserFactory(), "basic"])
    _still_for(waiting, 7 * 86_400)
    _abandoned(7, still_for=86_400)

    found = [turns_sweep() for _ in range(4)]

    assert sum(found) == 1  # the cursor reached it once, not on every sweep
    waiting.refresh_from_db()
    assert waiting.seq > 2
