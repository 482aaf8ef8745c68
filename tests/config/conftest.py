"""Fixtures of the configuration tests: a real Celery worker process."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

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


@pytest.fixture
def celery_worker_process(tmp_path: Path) -> Iterator[Worker]:
    """A real Celery worker (solo pool) on the test broker, logging at INFO.

    It consumes only a queue of its own checkout and xdist worker, never the
    one the test settings send tasks to, so it takes no task that another
    test queues; a test that wants it to be the tasks' worker sends to its
    queue (``CELERY_TASK_DEFAULT_QUEUE``). Its node name is as unique, so
    that two checkouts testing at once on this machine's Redis (control
    commands reach every worker on it) never answer as one.
    """
    from django.conf import settings

    queue = f"config-{settings.CHECKOUT_ID}-{settings.TEST_WORKER}"
    hostname = f"{queue}@localhost"
    log = tmp_path / "celery-worker.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                f"--queues={queue}",
                f"--hostname={hostname}",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=INFO",
            ],
            cwd=REPO,
            env=clean_env(
                DJANGO_SETTINGS_MODULE="config.settings.test",
                CELERY_TASK_ALWAYS_EAGER="false",
                REDIS_URL=settings.REDIS_URL,
            ),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield Worker(process, queue, hostname, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
