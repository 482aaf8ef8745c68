"""Timeouts: each move a turn timer made for a person counts for their seat."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import rules
from games.models import SeatTimeout, Table, TableStatus
from games.services import action_submit, turn_timer_expire
from stats.models import GameStat, PlayerGameStat
from stats.services import table_record
from tests.accounts.factories import UserFactory
from tests.games.tables import seat_users, table_started

pytestmark = pytest.mark.django_db

GAME = rules.get_game("alkort")


def _timed_out_then_played_to_the_end() -> Table:
    """Two people at Alkort with a turn timer: seat 1's first move is made by
    the timer, every other move by its person."""
    table = table_started(seating=[UserFactory(), UserFactory()], options={"target": 1})
    Table.objects.filter(pk=table.pk).update(
        time_control=5, updated_at=timezone.now() - timedelta(seconds=5)
    )
    table.refresh_from_db()
    assert turn_timer_expire(table_id=table.pk, seq=table.seq) == table.seq + 1
    users = seat_users(table)
    for _ in range(200):
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            return table
        state = GAME.load_state(table.state)
        [seat] = GAME.to_act(state)
        action = GAME.legal_actions(state, seat)[0]
        action_submit(table_id=table.pk, user=users[seat], action=action)
    raise AssertionError("the match did not end")


def test_a_move_the_turn_timer_made_counts_for_its_seat() -> None:
    table = _timed_out_then_played_to_the_end()
    users = seat_users(table)
    assert SeatTimeout.objects.filter(table=table).count() == 1

    table_record(table_id=table.pk)

    timeouts = {
        seat: PlayerGameStat.objects.get(user=user).counters["timeouts"]
        for seat, user in users.items()
    }
    assert timeouts == {0: 0, 1: 1}
    assert GameStat.objects.get(game="alkort").counters["timeouts"] == 1
