"""Celery tasks of the games app. They take ids, are idempotent, may run twice.

Each task is also registered as a job of ``games.scheduler`` under its task
name, so the embedded default's scheduler thread (and the test runner) run the
same code without a broker.
"""

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from celery import shared_task

from config.logs import traceback_without_values
from games import scheduler
from games.services.bots import bot_turn_play as bot_turn_play_service
from games.services.sweep import turns_sweep as turns_sweep_service
from games.services.timers import turn_timer_expire as turn_timer_expire_service

logger = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])


class TaskFailed(Exception):
    """A game task failed; its log line says where (docs/operations.md, "Logs")."""


def values_unlogged(task: F) -> F:
    """Log a failure of ``task`` without the exception's message, and re-raise
    it as ``TaskFailed`` with no cause attached.

    A bot's turn or a timer's default move runs the rules on a match's whole
    state: an exception's message there may quote a hidden card
    (``KeyError: 'QH'``), and the worker prints a failed task's exception and
    traceback in full. So the worker sees only this exception, and the
    traceback (file, line, source) is logged here without the message.
    """

    @functools.wraps(task)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return task(*args, **kwargs)
        except Exception as exc:
            logger.error(
                "Task %s%r failed\n%s",
                task.__name__,
                args,
                traceback_without_values(exc),
            )
            raise TaskFailed(
                f"{task.__name__}{args!r} failed: {type(exc).__qualname__}"
            ) from None

    return run  # type: ignore[return-value]


@shared_task(ignore_result=True)
@values_unlogged
def bot_turn_play(table_id: int, seq: int) -> int | None:
    """Play the bot turn of table ``table_id`` scheduled at ``seq``.

    Does nothing if the table has moved past ``seq`` (a later follow-up owns
    the new position), so a duplicate or late delivery is harmless.
    """
    return bot_turn_play_service(table_id=table_id, seq=seq)


@shared_task(ignore_result=True)
@values_unlogged
def turn_timer_expire(table_id: int, seq: int) -> int | None:
    """Play the safe default for the person whose time ran out at ``seq``.

    Does nothing if someone moved meanwhile (the table is past ``seq``).
    """
    return turn_timer_expire_service(table_id=table_id, seq=seq)


@shared_task(ignore_result=True)
@values_unlogged
def turns_sweep() -> int:
    """Re-schedule the turn of every table in play whose follow-up was lost."""
    return turns_sweep_service()


for _task in (bot_turn_play, turn_timer_expire, turns_sweep):
    scheduler.job_register(_task.name, _task)
