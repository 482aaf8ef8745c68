"""Turn timers: a timed-out person gets a safe default; three in a row, a bot."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

import rules
from games import scheduler
from games.clock import turn_deadline
from games.errors import BadRequest
from games.models import GameEvent, Seat, SeatTimeout, Table
from games.services import (
    action_submit,
    bot_turn_play,
    table_create,
    turn_timer_expire,
)
from tests.accounts.factories import UserFactory
from tests.games.tables import raises_table_error, seat_users, table_started

pytestmark = pytest.mark.django_db

GAME = rules.get_game("alkort")


def timed_table(seconds: int = 5) -> Table:
    """Two-player Alkort with people at both seats and a turn timer."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    Table.objects.filter(pk=table.pk).update(time_control=seconds)
    table.refresh_from_db()
    return table


def expire(table: Table) -> int | None:
    """Let the current move's time run out, then fire its timer."""
    Table.objects.filter(pk=table.pk).update(
        updated_at=timezone.now() - timedelta(seconds=table.time_control or 0)
    )
    table.refresh_from_db()
    return turn_timer_expire(table_id=table.pk, seq=table.seq)


def to_act(table: Table) -> tuple[int, ...]:
    table.refresh_from_db()
    return tuple(GAME.to_act(GAME.load_state(table.state)))


def test_time_control_is_chosen_at_creation_and_bounded() -> None:
    ada = UserFactory()
    table = table_create(user=ada, game="alkort", players=2, time_control=30)
    assert table.time_control == 30
    with raises_table_error(
        BadRequest,
        "invalid_time_control",
        "time_control is seconds per move, from 1 to 3600; got 0.",
    ):
        table_create(user=ada, game="alkort", players=2, time_control=0)


def test_the_deadline_is_the_last_move_plus_the_time_control() -> None:
    table = timed_table(20)

    assert turn_deadline(table) == table.updated_at + timedelta(seconds=20)


def test_a_timer_before_the_deadline_waits_again(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    table = timed_table(20)
    scheduler.held.clear()

    with django_capture_on_commit_callbacks(execute=True):
        assert turn_timer_expire(table_id=table.pk, seq=table.seq) is None

    [(name, args, delay)] = scheduler.held
    assert (name, args) == ("games.tasks.turn_timer_expire", (table.pk, table.seq))
    assert 10 < delay <= 20  # the deadline less the time since the move
    scheduler.held.clear()


def test_an_expired_timer_passes_where_allowed_and_records_the_timeout() -> None:
    table = timed_table()
    seq = table.seq
    assert to_act(table) == (1,)  # the exchange phase: pass is allowed

    new_seq = expire(table)

    row = GameEvent.objects.get(table=table, seq=seq + 1)
    assert (new_seq, row.seat, row.type) == (seq + 1, 1, "alkort.exchange_passed")
    assert list(SeatTimeout.objects.values_list("table", "seq", "seat", "user")) == [
        (table.pk, seq + 1, 1, seat_users(table)[1].pk)
    ]
    seat = Seat.objects.get(table=table, index=1)
    assert (seat.timeouts, seat.away) == (1, False)


def test_a_stale_timer_does_nothing() -> None:
    table = timed_table()

    assert turn_timer_expire(table_id=table.pk, seq=table.seq - 1) is None
    assert Table.objects.get(pk=table.pk).seq == table.seq


def test_three_timeouts_in_a_row_hand_the_seat_to_a_bot_until_its_person_acts() -> None:
    table = timed_table()
    people = seat_users(table)
    for _ in range(30):  # time out whoever must act until seat 1 is away
        if Seat.objects.get(table=table, index=1).away:
            break
        seat = to_act(table)[0]
        if seat == 0:
            action = GAME.legal_actions(GAME.load_state(table.state), 0)[0]
            action_submit(table_id=table.pk, user=people[0], action=action)
        else:
            assert expire(table) is not None
    away = Seat.objects.get(table=table, index=1)
    assert (away.away, away.timeouts) == (True, 3)
    assert SeatTimeout.objects.filter(table=table, seat=1).count() == 3

    # The basic bot plays seat 1 now, as the house bot.
    while to_act(table) != (1,):
        action = GAME.legal_actions(GAME.load_state(table.state), 0)[0]
        action_submit(table_id=table.pk, user=people[0], action=action)
    assert turn_timer_expire(table_id=table.pk, seq=table.seq) is None  # not timed
    seq = bot_turn_play(table_id=table.pk, seq=table.seq)
    assert seq is not None
    played = GameEvent.objects.filter(table=table, seat=1).latest("seq")
    assert played.actor.username == "bot-basic"

    # Its person acts again: the seat is theirs, the count starts over.
    while to_act(table) != (1,):
        action = GAME.legal_actions(GAME.load_state(table.state), 0)[0]
        action_submit(table_id=table.pk, user=people[0], action=action)
    action = GAME.legal_actions(GAME.load_state(table.state), 1)[0]
    action_submit(table_id=table.pk, user=people[1], action=action)
    back = Seat.objects.get(table=table, index=1)
    assert (back.away, back.timeouts) == (False, 0)
