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
from django.db import connection

from config.errors import busy
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


#: How often a turn's job is tried again after a passing database failure,
#: and how long after each: beyond that, the turn sweep schedules it again.
TURN_RETRIES = 5
TURN_RETRY_DELAY = 1.0


def turn_retried_soon(
    name: str, move: Callable[..., int | None], table_id: int, seq: int, attempt: int
) -> int | None:
    """Run a turn's job; after a passing database failure, schedule it again.

    A bot's or a timer's move that finds its table's lock held too long
    (``DB_LOCK_TIMEOUT``) or its database session ended under it (a restart,
    an operator's ``pg_terminate_backend``) wrote nothing, as a move by a
    person answered ``busy`` did. A person tries again; so does the job, a
    second later, up to ``TURN_RETRIES`` times, instead of leaving the table
    waiting for the turn sweep (tens of seconds). The job is idempotent: if
    the table moved meanwhile, the retry does nothing.
    """
    try:
        return move(table_id=table_id, seq=seq)
    except Exception as exc:
        if busy(exc, f"in {name}({table_id}, {seq})") is None:
            raise
        if not connection.in_atomic_block:
            # The session may be gone: the retry gets a fresh connection.
            connection.close()
        if attempt < TURN_RETRIES:
            scheduler.job_schedule(
                name, table_id, seq, attempt + 1, delay=TURN_RETRY_DELAY
            )
        return None


@shared_task(ignore_result=True)
@values_unlogged
def bot_turn_play(table_id: int, seq: int, attempt: int = 0) -> int | None:
    """Play the bot turn of table ``table_id`` scheduled at ``seq``.

    Does nothing if the table has moved past ``seq`` (a later follow-up owns
    the new position), so a duplicate or late delivery is harmless.
    ``attempt`` counts the quick retries after a passing database failure.
    """

    def defer(move: Callable[[], int | None], delay: float) -> bool:
        # On the scheduler thread a strong bot's think time is a deferred
        # call. Its move meets the database after this job has returned, so
        # a passing failure then is tried again as one now would be: the
        # turn's job a second later, counted in the same ``attempt``s. The
        # move carries its seq: one that landed though it seemed to fail
        # leaves the retry nothing to do.
        def land() -> int | None:  # its repr names no card: a failure's log shows it
            return turn_retried_soon(
                bot_turn_play.name, lambda **_: move(), table_id, seq, attempt
            )

        return scheduler.call_defer(land, delay)

    return turn_retried_soon(
        bot_turn_play.name,
        functools.partial(bot_turn_play_service, defer=defer),
        table_id,
        seq,
        attempt,
    )


@shared_task(ignore_result=True)
@values_unlogged
def turn_timer_expire(table_id: int, seq: int, attempt: int = 0) -> int | None:
    """Play the safe default for the person whose time ran out at ``seq``.

    Does nothing if someone moved meanwhile (the table is past ``seq``).
    """
    return turn_retried_soon(
        turn_timer_expire.name, turn_timer_expire_service, table_id, seq, attempt
    )


@shared_task(ignore_result=True)
@values_unlogged
def turns_sweep() -> int:
    """Re-schedule the turn of every table in play whose follow-up was lost."""
    return turns_sweep_service()


for _task in (bot_turn_play, turn_timer_expire, turns_sweep):
    scheduler.job_register(_task.name, _task)
