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

``beat_heartbeat`` is beat's heartbeat (``CELERY_BEAT_SCHEDULE``): a worker
records when it ran, and ``/healthz`` reports beat stale when that grows old
(``config/health.py``).
"""

import logging
import os
import time
from typing import Any

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger
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
