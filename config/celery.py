"""The project's Celery app, configured from Django settings.

Settings named ``CELERY_*`` configure it (see ``config/settings/base.py``), and
every installed app's ``tasks.py`` is searched for tasks. Start a worker with
``celery -A config worker`` and the scheduler with ``celery -A config beat``.

The worker and beat replace the root logger's handlers with Celery's own (and
give the task logger and the pool's logger theirs), so ``LOGGING``'s redacting
filter would not see what they print: a task's arguments in an error line (a
URL with its password, a ``?token=``), an exception quoting a broker or
database URL. Each handler they install gets the same ``RedactSecrets`` filter
as soon as Celery has set it up.

In a prefork worker (``make up``'s, the containers'), Celery's Django fixup
closes each process's pool of database connections before and after every
task. The process's scheduler thread plays a strong bot's move after its
think time (``games.scheduler.call_defer``) with a connection from that
pool, while the pool slot runs other tasks: the pool closed under it, and
the move was lost until the turn sweep. So each task gives back only its own
connections (``_task_connections_back``) and the pool stays open; the pool
a process inherits when forked is still closed then, before any task runs.

A worker stopping on purpose (warm shutdown: a deploy, Ctrl-C) plays the
strong bots' moves its processes hold first (``_deferred_moves_played``).

``beat_heartbeat`` is beat's heartbeat (``CELERY_BEAT_SCHEDULE``): a worker
records when it ran, and ``/healthz`` reports beat stale when that grows old
(``config/health.py``).
"""

import logging
import os
import time
from typing import Any

from celery import Celery
from celery.fixups.django import DjangoFixup
from celery.signals import (
    after_setup_logger,
    after_setup_task_logger,
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_shutdown,
    worker_shutdown,
)
from celery.utils.log import get_multiprocessing_logger

from config.logs import redact_handlers

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: The cache key of the last heartbeat's time (read by ``/healthz``).
BEAT_HEARTBEAT_KEY = "beat:heartbeat"


@app.task(name="config.celery.beat_heartbeat", ignore_result=True)
def beat_heartbeat() -> None:
    """Record now (whole seconds since the epoch) as beat's last heartbeat.

    Sent by beat, run by a worker: a recent one proves that beat sends its
    schedule and a worker runs it. Stored as an int, which Django's Redis
    cache keeps as plain digits, so ``/healthz`` reads it with a plain Redis
    GET on its own connection with timeouts. Kept without expiry, so that
    ``/healthz`` can say how long ago the last one was.
    """
    from django.core.cache import cache

    cache.set(BEAT_HEARTBEAT_KEY, int(time.time()), timeout=None)


@after_setup_logger.connect
def _redact_worker_logs(logger: logging.Logger, **kwargs: Any) -> None:
    """The root logger's handlers, and those of the pool's processes'
    logger, which Celery sets up in the same step."""
    loggers = [logger]
    pool_logger = get_multiprocessing_logger()
    if pool_logger is not None:
        loggers.append(pool_logger)
    redact_handlers(*loggers)


@after_setup_task_logger.connect
def _redact_task_logs(logger: logging.Logger, **kwargs: Any) -> None:
    """The task logger's handler (``celery.task``, which does not propagate
    to the root logger's)."""
    redact_handlers(logger)


@worker_init.connect
def _keep_the_database_pool(**kwargs: Any) -> None:
    """Replace the Django fixup's closing of the database before and after
    each task, which in a prefork worker closes the process's whole pool
    (the module's doc), with ``_task_connections_back``. Runs after the
    fixup's own ``worker_init`` handler, which connected them."""
    for fixup in getattr(app, "_fixups", ()):
        if isinstance(fixup, DjangoFixup):
            task_prerun.disconnect(fixup.worker_fixup.on_task_prerun)
            task_postrun.disconnect(fixup.worker_fixup.on_task_postrun)
    task_prerun.connect(_task_connections_back, weak=False)
    task_postrun.connect(_task_connections_and_caches_back, weak=False)


def _task_connections_back(task: Any = None, **kwargs: Any) -> None:
    """What the Django fixup does before a task, but the pool's: this
    thread's database connections closed (a pooled one goes back to the
    pool, which stays open for the process's other threads)."""
    from django.db import DatabaseError, InterfaceError, connections

    if getattr(getattr(task, "request", None), "is_eager", False):
        return
    for conn in connections.all(initialized_only=True):
        try:
            conn.close()
        except InterfaceError:
            pass
        except DatabaseError as exc:
            if "closed" not in str(exc) and "not connected" not in str(exc):
                raise


def _task_connections_and_caches_back(task: Any = None, **kwargs: Any) -> None:
    """After a task: ``_task_connections_back``, and the caches' connections
    closed, as the Django fixup does."""
    from django.core.cache import close_caches

    if getattr(getattr(task, "request", None), "is_eager", False):
        return
    _task_connections_back(task)
    close_caches()


#: Seconds a stopping worker process waits for the moves it holds, beyond
#: the think time (the move itself, a lock held a moment by another move).
DEFERRED_MOVES_GRACE = 5.0


@worker_process_shutdown.connect
@worker_shutdown.connect
def _deferred_moves_played(**kwargs: Any) -> None:
    """Before a worker process exits (a prefork child; the worker itself
    with a solo or thread pool), let its scheduler thread play the strong
    bots' moves it holds, each due within ``BOT_THINK_TIME``: they live
    only in its memory (``games.scheduler.call_defer``), and a move lost
    there left its table waiting for the turn sweep (up to 40 s). A worker
    killed (``SIGKILL``) still loses them, to the sweep."""
    from django.conf import settings

    from games import scheduler

    timeout = settings.BOT_THINK_TIME + DEFERRED_MOVES_GRACE
    if not scheduler.deferred_calls_finish(timeout):
        logging.getLogger(__name__).warning(
            "Stopping with bot moves still waiting after %ss: the turn sweep "
            "plays those turns again.",
            timeout,
        )
