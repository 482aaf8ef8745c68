"""Publish a task to Celery's broker from a process that serves people.

Web processes queue tasks on commit (a bot's turn, a turn timer, a finished
table's statistics, a tournament's standings), in the thread that committed: a
request's, or the one database thread every socket of the process shares. The
broker's timeouts (``CELERY_BROKER_TIMEOUT``, ``config/settings/base.py``)
bound one publish; this module makes sure a broker that is down or hung costs
the process at most one such wait every ``RETRY_SECONDS``, not one per task.

:func:`task_send` never raises a broker error: the move that queued the task
has committed, and every task it queues is caught up by a sweep of Celery beat
(the turn sweep, the statistics sweep, the tournaments sweep) once the broker
answers again. The outage is logged once per process, and its end
(``config.outages``); the error's ``repr`` is all that is said of it, through
the handlers' redacting filter like every line (``config.logs``).

While the broker is failing, one thread at a time tries it again, at most once
every ``RETRY_SECONDS``; the others drop their task at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

from celery import Task
from kombu.exceptions import OperationalError as BrokerError

from config.celery import app as celery_app
from config.outages import Outage

logger = logging.getLogger(__name__)

#: While the broker fails, how long a process drops tasks before trying again.
RETRY_SECONDS = 5.0

#: The broker's outages in this process.
OUTAGE = Outage(
    logger,
    "Scheduling jobs is failing: the broker does not answer (%r); "
    "the sweeps queue the lost tasks again once it does",
    "Scheduling jobs works again.",
)

_lock = threading.Lock()
#: While failing: when (``time.monotonic``) the next try may be made.
_retry_at = 0.0


def task_send(
    task: Task | str, args: Sequence[Any] = (), *, countdown: float | None = None
) -> bool:
    """Queue ``task`` (a task, or a task's name) with ``args``; whether it was
    sent. With tasks run in-process (``CELERY_TASK_ALWAYS_EAGER``) a task
    runs now, as ``delay`` would, and its own errors propagate."""
    if isinstance(task, Task) and celery_app.conf.task_always_eager:
        task.apply_async(args=list(args), countdown=countdown)
        return True
    if not _may_try():
        return False
    try:
        if isinstance(task, str):
            celery_app.send_task(task, args=list(args), countdown=countdown)
        else:
            task.apply_async(args=list(args), countdown=countdown)
    except (BrokerError, OSError) as exc:
        _failed(exc)
        return False
    OUTAGE.worked()
    return True


def _may_try() -> bool:
    """Whether this thread may publish now: always while the broker works;
    while it fails, one thread once every ``RETRY_SECONDS``."""
    global _retry_at
    if not OUTAGE.failing:
        return True
    with _lock:
        now = time.monotonic()
        if now < _retry_at:
            return False
        _retry_at = now + RETRY_SECONDS  # the others drop theirs meanwhile
        return True


def _failed(exc: BaseException) -> None:
    global _retry_at
    with _lock:
        _retry_at = time.monotonic() + RETRY_SECONDS
    OUTAGE.failed(exc)


def reset() -> None:
    """Forget an outage (tests)."""
    global _retry_at
    with _lock:
        _retry_at = 0.0
        OUTAGE.failing = False
