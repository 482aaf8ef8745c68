"""A real Celery worker process for a test: the one way tests start one.

``celery_worker(name, log)`` starts ``celery -A config worker`` (solo pool,
or ``pool="prefork"``: the pool ``make up`` and the containers run) on the
test settings and the test broker, and stops it when the block ends.
It consumes one queue only, ``<name>-<checkout id>-<xdist worker>``, never
the one the test settings send tasks to, so it takes no task another test
queues, and two checkouts testing at once on this machine's Redis never take
each other's. Its node name is as unique (control commands such as the health
check's reach every worker on the broker). A test that wants it to run the
tasks it queues sends them to its queue: ``tasks_to(worker)`` for the
``CELERY_TASK_DEFAULT_QUEUE`` of this process, or ``queue=worker.queue``.

Its output (stdout and stderr) goes to ``log``, so that a test can read what it
logged and a failing test can show it (``Worker.log_text``).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import REPO, clean_env


@dataclass(frozen=True)
class Worker:
    """A Celery worker started by a test: its process, the one queue it
    consumes, its node name and where its log (stdout and stderr) goes."""

    process: subprocess.Popen[bytes]
    queue: str
    hostname: str
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def assert_running(self) -> None:
        """Fail the test, with the worker's log, if the worker has exited."""
        assert self.process.poll() is None, (
            f"the worker exited ({self.process.returncode}):\n{self.log_text()}"
        )


@contextmanager
def celery_worker(
    name: str,
    log: Path,
    *,
    database_url: str | None = None,
    loglevel: str = "INFO",
    sends_to_itself: bool = False,
    settings_env: dict[str, str] | None = None,
    pool: str = "solo",
) -> Iterator[Worker]:
    """A worker consuming queue ``<name>-<checkout>-<xdist worker>`` while the
    block runs. ``database_url``: the database its tasks use (a test that
    commits for real passes its test database's, ``tests.helpers.database_url``);
    without it the test settings' own. ``sends_to_itself``: the tasks its
    own tasks queue (a sweep's) go to its queue too, not to the test
    settings' default one. ``settings_env``: more settings for the worker,
    as environment variables (``TASK_RUNNER``, ``BOT_THINK_TIME``).
    ``pool``: ``solo`` (one slot, in the worker's own process) or
    ``prefork`` (two forked processes, as ``make up`` runs it)."""
    from django.conf import settings

    queue = f"{name}-{settings.CHECKOUT_ID}-{settings.TEST_WORKER}"
    hostname = f"{queue}@localhost"
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        CELERY_TASK_ALWAYS_EAGER="false",
        REDIS_URL=settings.REDIS_URL,
    )
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    if sends_to_itself:
        env["CELERY_QUEUE"] = queue
    env.update(settings_env or {})
    args = [
        "worker",
        f"--pool={pool}",
        *(["--concurrency=2"] if pool == "prefork" else []),
        f"--queues={queue}",
        f"--hostname={hostname}",
        "--without-gossip",
        "--without-mingle",
        f"--loglevel={loglevel}",
    ]
    with _celery(args, env, log) as process:
        yield Worker(process, queue, hostname, log)


@contextmanager
def celery_beat(
    worker: Worker, log: Path, settings_env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """``celery beat`` on the test settings, sending its schedule to
    ``worker``'s queue, with ``settings_env`` (e.g. a heartbeat every second,
    the sweeps pushed past the test); stopped when the block ends."""
    from django.conf import settings

    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        CELERY_TASK_ALWAYS_EAGER="false",
        REDIS_URL=settings.REDIS_URL,
        CELERY_QUEUE=worker.queue,
        **(settings_env or {}),
    )
    args = [
        "beat",
        f"--schedule={log.parent / 'celerybeat-schedule'}",
        "--loglevel=INFO",
    ]
    with _celery(args, env, log) as process:
        yield process


@contextmanager
def _celery(
    args: list[str], env: dict[str, str], log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """``celery -A config <args>``, its output to ``log``, stopped (terminated,
    killed after 15 s) when the block ends."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *args],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def tasks_to(worker: Worker) -> Iterator[None]:
    """This process sends its tasks to ``worker``'s queue, through the broker
    (not inline), while the block runs. The Celery app reads the ``CELERY_``
    settings live."""
    from django.test import override_settings

    from config.celery import app

    with override_settings(
        CELERY_TASK_ALWAYS_EAGER=False, CELERY_TASK_DEFAULT_QUEUE=worker.queue
    ):
        assert not app.conf.task_always_eager
        assert app.conf.task_default_queue == worker.queue
        yield
