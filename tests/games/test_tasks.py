"""``games.tasks``: each task carries the seq it was scheduled for."""

import pytest

import rules
from games import scheduler
from games.models import Table
from games.tasks import bot_turn_play, turn_timer_expire, turns_sweep
from tests.accounts.factories import UserFactory
from tests.games.tables import table_started

pytestmark = pytest.mark.django_db


def test_the_tasks_are_registered_under_stable_names_and_as_jobs() -> None:
    names = [task.name for task in (bot_turn_play, turn_timer_expire, turns_sweep)]

    assert names == [
        "games.tasks.bot_turn_play",
        "games.tasks.turn_timer_expire",
        "games.tasks.turns_sweep",
    ]
    assert all(scheduler.JOBS[name].name == name for name in names)


def test_the_bot_task_plays_one_move_at_its_seq() -> None:
    table = table_started(seating=[UserFactory(), "basic"])
    game = rules.get_game("alkort")
    assert game.to_act(game.load_state(table.state)) == (1,)

    new_seq = bot_turn_play.apply(args=(table.pk, table.seq)).get()

    table.refresh_from_db()
    assert new_seq == table.seq > 2
    assert game.to_act(game.load_state(table.state)) == (0,)


def test_the_bot_task_skips_when_the_table_moved_on() -> None:
    table = table_started(seating=[UserFactory(), "basic"])

    assert bot_turn_play.apply(args=(table.pk, table.seq + 5)).get() is None
    assert bot_turn_play.apply(args=(table.pk, table.seq - 1)).get() is None
    assert Table.objects.get(pk=table.pk).seq == table.seq


def test_the_tasks_ignore_a_missing_table() -> None:
    assert bot_turn_play.apply(args=(987654, 1)).get() is None
    assert turn_timer_expire.apply(args=(987654, 1)).get() is None
