"""``games.scheduler``: follow-up jobs run later, outside their caller."""

import logging
import threading
import time
from typing import Any

import pytest
from kombu.exceptions import OperationalError as KombuOperationalError

from config import broker
from games import scheduler


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any, float]]:
    """A job ``test.record(value)`` that notes what ran, in which thread, when."""
    calls: list[tuple[str, Any, float]] = []

    def record(value: Any) -> None:
        calls.append((threading.current_thread().name, value, time.monotonic()))

    monkeypatch.setitem(scheduler.JOBS, "test.record", record)
    return calls


def test_the_thread_runner_runs_jobs_later_in_its_own_thread_by_due_time(
    settings: Any, recorded: list[tuple[str, Any, float]]
) -> None:
    settings.TASK_RUNNER = "thread"
    began = time.monotonic()

    scheduler.job_schedule("test.record", "late", delay=0.3)
    scheduler.job_schedule("test.record", "soon", delay=0.1)
    assert recorded == []  # nothing ran in the caller

    deadline = time.monotonic() + 5
    while len(recorded) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [(thread, value) for thread, value, _ in recorded] == [
        ("cardroom-scheduler", "soon"),
        ("cardroom-scheduler", "late"),
    ]
    assert recorded[0][2] - began >= 0.1
    assert recorded[1][2] - began >= 0.3


def test_a_deferred_call_leaves_the_thread_to_other_jobs_meanwhile(
    settings: Any, recorded: list[tuple[str, Any, float]]
) -> None:
    """A strong bot's move waits out its think time as a deferred call, not
    asleep in the one scheduler thread every table's bots share."""
    settings.TASK_RUNNER = "thread"
    began = time.monotonic()

    def deferring(value: Any) -> None:
        assert scheduler.call_defer(
            lambda: recorded.append(("deferred", value, time.monotonic())), 0.4
        )

    scheduler.JOBS["test.defer"] = deferring
    try:
        scheduler.job_schedule("test.defer", "move")
        scheduler.job_schedule("test.record", "other table", delay=0.1)
        deadline = time.monotonic() + 5
        while len(recorded) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        del scheduler.JOBS["test.defer"]
    assert [(who, value) for who, value, _ in recorded] == [
        ("cardroom-scheduler", "other table"),
        ("deferred", "move"),
    ]
    assert recorded[1][2] - began >= 0.4


def test_a_celery_worker_defers_a_call_to_a_thread_of_its_own(
    settings: Any, recorded: list[tuple[str, Any, float]]
) -> None:
    """In a worker process the task returns and its pool slot is free; the
    call runs on the process's scheduler thread."""
    settings.TASK_RUNNER = "celery"
    began = time.monotonic()

    assert scheduler.call_defer(
        lambda: recorded.append(
            (threading.current_thread().name, "move", time.monotonic())
        ),
        0.2,
    )

    deadline = time.monotonic() + 5
    while not recorded and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [(who, value) for who, value, _ in recorded] == [
        ("cardroom-scheduler", "move")
    ]
    assert recorded[0][2] - began >= 0.2


def test_the_inline_runner_cannot_defer_a_call(settings: Any) -> None:
    settings.TASK_RUNNER = "inline"
    assert not scheduler.call_defer(lambda: None, 0.4)


def test_the_inline_runner_runs_nested_jobs_after_their_parent_not_inside_it(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TASK_RUNNER = "inline"
    order: list[str] = []

    def parent() -> None:
        scheduler.job_schedule("test.child", delay=0)
        order.append("parent done")

    monkeypatch.setitem(scheduler.JOBS, "test.parent", parent)
    monkeypatch.setitem(scheduler.JOBS, "test.child", lambda: order.append("child"))

    scheduler.job_schedule("test.parent", delay=0)

    assert order == ["parent done", "child"]


def test_the_inline_runner_holds_delayed_jobs_for_the_test(
    settings: Any, recorded: list[tuple[str, Any, float]]
) -> None:
    settings.TASK_RUNNER = "inline"
    scheduler.held.clear()

    scheduler.job_schedule("test.record", 1, delay=5)

    assert recorded == [] and scheduler.held == [("test.record", (1,), 5)]
    assert scheduler.held_run("test.record") == 1
    assert [value for _, value, _ in recorded] == [1] and scheduler.held == []


def test_a_broker_outage_loses_jobs_not_moves_and_is_logged_once(
    settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Jobs are sent on commit: with the broker down the move stands, the
    job is dropped for the turn sweep to schedule again, and the outage is
    one warning, not a traceback per move. While it lasts the broker is
    asked again once every RETRY_SECONDS, and the jobs between are dropped
    without trying (each try may wait CELERY_BROKER_TIMEOUT)."""
    settings.TASK_RUNNER = "celery"
    sent: list[int] = []
    tried: list[int] = []
    down = True
    clock = [1000.0]

    def send_task(name: str, args: list[Any], **kwargs: Any) -> None:
        tried.append(args[0])
        if down:
            raise KombuOperationalError("Error 111 connecting to redis")
        sent.append(args[0])

    monkeypatch.setattr(broker.celery_app, "send_task", send_task)
    monkeypatch.setattr(broker.time, "monotonic", lambda: clock[0])
    broker.reset()
    with caplog.at_level(logging.WARNING, logger="config.broker"):
        scheduler.job_schedule("games.bot_turn", 1, 5)
        scheduler.job_schedule("games.bot_turn", 2, 9)  # dropped, not tried
        clock[0] += broker.RETRY_SECONDS
        scheduler.job_schedule("games.bot_turn", 3, 9)  # tried again, fails
        down = False
        scheduler.job_schedule("games.bot_turn", 4, 4)  # dropped, not tried
        clock[0] += broker.RETRY_SECONDS
        scheduler.job_schedule("games.bot_turn", 5, 2)
        scheduler.job_schedule("games.bot_turn", 6, 2)

    assert tried == [1, 3, 5, 6] and sent == [5, 6]
    assert [r.getMessage().split(" (")[0] for r in caplog.records] == [
        "Scheduling jobs is failing: the broker does not answer",
        "Scheduling jobs works again.",
    ]


def test_a_failing_job_is_logged_without_its_message(
    settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The embedded default runs bots' turns in its thread: a crash there may
    quote the bot's hand in its message, so the log line names only where."""
    settings.TASK_RUNNER = "thread"

    def crash() -> None:
        raise KeyError("".join(("Q", "H")))  # the source line names none

    monkeypatch.setitem(scheduler.JOBS, "test.crash", crash)
    with caplog.at_level(logging.ERROR, logger="games.scheduler"):
        scheduler.job_schedule("test.crash")
        deadline = time.monotonic() + 5
        while "failed" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.02)

    assert "Job test.crash() failed" in caplog.text
    assert "KeyError" in caplog.text
    assert "QH" not in caplog.text
