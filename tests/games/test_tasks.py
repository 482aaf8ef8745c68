"""``games.tasks``: each task carries the seq it was scheduled for."""

import logging
import time
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.db import OperationalError

import rules
from games import scheduler, tasks
from games.models import GameEvent, Table
from games.services import bots as bot_service
from games.services.bots import bot_move_apply
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


@pytest.fixture
def strong_bot_thinking(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[Table, list[Callable[[], Any]]]:
    """A committed table at which the strong bot is to act, and the calls its
    turns hand to the scheduler thread (kept for the test to run)."""
    settings.BOT_MOVE_DELAY = 5  # the job the start schedules is held
    table = table_started(seating=[UserFactory(), "strong"])
    game = rules.get_game("alkort")
    assert game.to_act(game.load_state(table.state)) == (1,)
    scheduler.held.clear()
    settings.BOT_THINK_TIME = 60.0  # every move of its waits on the thread
    deferred: list[Callable[[], Any]] = []
    monkeypatch.setattr(
        scheduler, "call_defer", lambda fn, delay: deferred.append(fn) or True
    )
    return table, deferred


def _bot_events(table: Table) -> list[tuple[int, int | None]]:
    """(seq, seat) of the events written since ``table``'s seq."""
    return list(
        GameEvent.objects.filter(table_id=table.pk, seq__gt=table.seq)
        .order_by("seq")
        .values_list("seq", "seat")
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("short_lock_timeout")
def test_a_strong_bots_deferred_move_that_waits_out_the_lock_is_tried_again_soon(
    strong_bot_thinking: tuple[Table, list[Callable[[], Any]]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A strong bot's move lands after its think time, on the scheduler thread.
    One that finds its table held too long wrote nothing; it is tried again a
    second later, as a turn's job is, instead of leaving the table waiting for
    the turn sweep (up to 40 s). It lands once."""
    table, deferred = strong_bot_thinking

    assert bot_turn_play.apply(args=(table.pk, table.seq)).get() is None
    ((land,),) = [deferred]
    with caplog.at_level(logging.WARNING), row_held(table.pk):
        assert land() is None  # the scheduler thread logs nothing more

    assert Table.objects.get(pk=table.pk).seq == table.seq  # nothing written
    assert "Busy: LockNotAvailable in games.tasks.bot_turn_play" in caplog.text
    assert scheduler.held == [
        (bot_turn_play.name, (table.pk, table.seq, 1), tasks.TURN_RETRY_DELAY)
    ]
    assert scheduler.held_run(bot_turn_play.name) == 1
    (_, again) = deferred  # the retry chose again, and waits its think time
    new_seq = again()
    assert new_seq == Table.objects.get(pk=table.pk).seq > table.seq
    assert _bot_events(table)[0][1] == 1  # the bot's move, played once
    assert land() is None  # a late copy of the first: the seq is past
    assert Table.objects.get(pk=table.pk).seq == new_seq


@pytest.mark.django_db(transaction=True)
def test_a_deferred_move_that_landed_though_its_connection_failed_is_not_played_twice(
    strong_bot_thinking: tuple[Table, list[Callable[[], Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A connection lost during the commit may have committed: the retry finds
    the table past the move's seq and does nothing."""
    table, deferred = strong_bot_thinking
    landed: list[int | None] = []

    def lands_then_loses_the_connection(**kwargs: Any) -> int | None:
        landed.append(bot_move_apply(**kwargs))
        try:
            raise psycopg.OperationalError("server closed the connection")
        except psycopg.OperationalError as exc:
            raise OperationalError(str(exc)) from exc

    monkeypatch.setattr(bot_service, "bot_move_apply", lands_then_loses_the_connection)
    assert bot_turn_play.apply(args=(table.pk, table.seq)).get() is None
    ((land,),) = [deferred]
    assert land() is None

    ((new_seq,),) = [landed]
    assert new_seq == Table.objects.get(pk=table.pk).seq > table.seq
    assert scheduler.held_run(bot_turn_play.name) == 1  # the quick retry
    assert len(deferred) == 1  # it found the table moved on: nothing to play
    assert Table.objects.get(pk=table.pk).seq == new_seq


@pytest.mark.django_db(transaction=True)
def test_a_deferred_move_refused_by_the_rules_is_not_tried_again(
    strong_bot_thinking: tuple[Table, list[Callable[[], Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only a passing database failure is tried again: a refusal is final."""
    table, deferred = strong_bot_thinking

    def refused(**kwargs: Any) -> int | None:
        raise rules.IllegalAction("not your turn")

    monkeypatch.setattr(bot_service, "bot_move_apply", refused)
    assert bot_turn_play.apply(args=(table.pk, table.seq)).get() is None
    ((land,),) = [deferred]
    with pytest.raises(rules.IllegalAction):
        land()  # the scheduler thread logs it, as any failing job

    assert scheduler.held == []
    assert Table.objects.get(pk=table.pk).seq == table.seq


@pytest.mark.timeout(60)
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("short_lock_timeout")
def test_on_the_scheduler_thread_a_deferred_move_that_met_a_held_table_lands_soon(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The whole path on the embedded default's scheduler thread: the strong
    bot's move, deferred for its think time, finds its table held; it lands
    a couple of seconds after the table is free, not at the next turn sweep."""
    settings.BOT_MOVE_DELAY = 5  # the job the start schedules is held
    table = table_started(seating=[UserFactory(), "strong"])
    scheduler.held.clear()
    settings.TASK_RUNNER = "thread"
    settings.BOT_THINK_TIME = 1.0  # above the strong bot's search cap

    with caplog.at_level(logging.WARNING), row_held(table.pk):
        scheduler.job_schedule(bot_turn_play.name, table.pk, table.seq)
        deadline = time.monotonic() + 20
        while "Busy: " not in caplog.text and "failed" not in caplog.text:
            assert time.monotonic() < deadline, "the move never met the lock"
            time.sleep(0.02)
    freed = time.monotonic()
    assert "Busy: LockNotAvailable in games.tasks.bot_turn_play" in caplog.text

    while Table.objects.get(pk=table.pk).seq == table.seq:
        assert time.monotonic() < freed + 10, "the move was left to the sweep"
        time.sleep(0.02)
    assert "failed" not in caplog.text  # no job failed on the thread
    assert [seat for _, seat in _bot_events(table)][:1] == [1]
    game = rules.get_game("alkort")
    table.refresh_from_db()
    assert game.to_act(game.load_state(table.state)) == (0,)  # one move, once
