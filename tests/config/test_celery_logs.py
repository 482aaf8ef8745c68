"""Celery's worker and beat print no secret either.

They replace the root logger's handlers with their own, which ``LOGGING``'s
``RedactSecrets`` never saw: ``config/celery.py`` gives each of them the
filter once Celery has set them up.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.test import override_settings

from config.celery import app
from tests.celery_worker import Worker
from tests.helpers import clean_env, run_python

DB_URL = "postgres://cardroom:db-s3cret@db.example:5432/cardroom"
SOCKET_URL = "/ws/tables/1/?token=tok-s3cret"


@pytest.mark.timeout(90)
def test_the_worker_redacts_a_task_message_it_logs(
    celery_worker_process: Worker,
) -> None:
    """A task the worker does not know is logged with its whole message body
    and headers (its arguments among them) at ERROR, by the worker's own
    handler on the root logger."""
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        app.send_task(
            "cardroom.no_such_task",
            args=[DB_URL, SOCKET_URL],
            queue=celery_worker_process.queue,
        )

    text = ""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert celery_worker_process.process.poll() is None, text
        text = celery_worker_process.log_text()
        if "The full contents of the message headers" in text:
            break
        time.sleep(0.2)

    assert "Received unregistered task of type 'cardroom.no_such_task'" in text
    assert "s3cret" not in text, text
    assert "postgres://cardroom:[redacted]@db.example:5432/cardroom" in text
    assert "/ws/tables/1/?token=[redacted]" in text


CELERY_SETUP = """
import logging
import django
django.setup()
from celery.utils.log import get_multiprocessing_logger, get_task_logger
from config.celery import app
from config.logs import RedactSecrets

# What `celery worker` and `celery beat` run to set up their logging.
app.log.setup(loglevel="INFO")

loggers = {
    "root": logging.getLogger(),
    "celery.task": logging.getLogger("celery.task"),
    "pool": get_multiprocessing_logger(),
}
for name, logger in loggers.items():
    assert logger.handlers, name
    for handler in logger.handlers:
        assert any(isinstance(f, RedactSecrets) for f in handler.filters), name

logging.getLogger("games.tasks").warning("connecting to %s", DB_URL)
get_task_logger("stats.tasks").warning("fetched %s", SOCKET_URL)
get_multiprocessing_logger().error("child saw %s", DB_URL)
try:
    raise RuntimeError(f"broker at {DB_URL} refused")
except RuntimeError:
    logging.getLogger("celery.worker").exception("lost the broker")
"""


def test_every_handler_celery_installs_redacts(tmp_path: Path) -> None:
    """The root logger's (every logger that propagates: Celery's own, ours),
    the task logger's (which does not propagate) and the pool's, in a
    message, an argument or a traceback."""
    done = run_python(
        f"DB_URL = {DB_URL!r}\nSOCKET_URL = {SOCKET_URL!r}\n{CELERY_SETUP}",
        clean_env(
            DJANGO_SETTINGS_MODULE="config.settings.local",
            CARDROOM_VAR_DIR=str(tmp_path),
        ),
    )

    assert done.returncode == 0, done.stderr
    assert "s3cret" not in done.stderr, done.stderr
    redacted = "postgres://cardroom:[redacted]@db.example:5432/cardroom"
    assert f"WARNING/MainProcess] connecting to {redacted}\n" in done.stderr
    assert "fetched /ws/tables/1/?token=[redacted]" in done.stderr
    assert f"child saw {redacted}" in done.stderr
    assert f"RuntimeError: broker at {redacted} refused" in done.stderr
