"""``games.tasks``: each task carries the seq it was scheduled for."""

import logging
from typing import Any

import pytest

import rules
from games import scheduler, tasks
from games.models import Table
from games.tasks import TaskFailed, bot_turn_play, turn_timer_expire, turns_sweep
from tests.accounts.factories import UserFactory
from tests.games.tables import table_started
from tests.games.test_busy import row_held, short_lock_timeout  # noqa: F401

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


def test_a_failing_task_is_logged_and_raised_without_the_message(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug in a bot's turn: the worker prints the failed task's exception in
    full, so the task raises one that cannot quote a hidden card, and its
    log line says where the bug is without the original message."""

    def crash(**kwargs: object) -> None:
        raise KeyError("".join(("Q", "H")))  # the source line names none

    monkeypatch.setattr(tasks, "bot_turn_play_service", crash)

    with caplog.at_level(logging.ERROR), pytest.raises(TaskFailed) as raised:
        bot_turn_play.apply(args=(7, 3)).get()

    assert "QH" not in str(raised.value)
    assert raised.value.__cause__ is None and raised.value.__suppress_context__
    assert "bot_turn_play(7, 3) failed" in caplog.text
    assert "KeyError" in caplog.text
    assert "QH" not in caplog.text


@pytest.fixture
def bot_to_move(settings: Any) -> Table:
    """A committed table at which the basic bot is to act, its job not run."""
    settings.BOT_MOVE_DELAY = 5  # the job the start schedules is held
    table = table_started(seating=[UserFactory(), "basic"])
    game = rules.get_game("alkort")
    assert game.to_act(game.load_state(table.state)) == (1,)
    scheduler.held.clear()
    return table


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("short_lock_timeout")
def test_a_bot_turn_that_waits_out_the_lock_is_tried_again_a_second_later(
    bot_to_move: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """A turn's job that finds its table held too long (or its session ended)
    wrote nothing; it runs again a second later instead of leaving the table
    waiting for the turn sweep."""
    table = bot_to_move

    with caplog.at_level(logging.WARNING), row_held(table.pk):
        assert bot_turn_play.apply(args=(table.pk, table.seq)).get() is None

    assert Table.objects.get(pk=table.pk).seq == table.seq  # nothing written
    assert "Busy: LockNotAvailable in games.tasks.bot_turn_play" in caplog.text
    assert scheduler.held == [
        (bot_turn_play.name, (table.pk, table.seq, 1), tasks.TURN_RETRY_DELAY)
    ]
    assert scheduler.held_run(bot_turn_play.name) == 1
    assert Table.objects.get(pk=table.pk).seq > table.seq


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("short_lock_timeout")
def test_a_turn_is_tried_again_a_few_times_then_left_to_the_sweep(
    bot_to_move: Table,
) -> None:
    table = bot_to_move

    with row_held(table.pk):
        args = (table.pk, table.seq, tasks.TURN_RETRIES)
        assert bot_turn_play.apply(args=args).get() is None

    assert scheduler.held == []
    assert Table.objects.get(pk=table.pk).seq == table.seq
