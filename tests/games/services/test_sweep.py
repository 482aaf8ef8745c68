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
