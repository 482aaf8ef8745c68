"""Fixtures of the configuration tests: a real Celery worker process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.celery_worker import Worker, celery_worker


@pytest.fixture
def celery_worker_process(tmp_path: Path) -> Iterator[Worker]:
    """A real Celery worker (solo pool) on the test broker, logging at INFO to
    a file the test reads (``tests.celery_worker``).

    It consumes only a queue of its own checkout and xdist worker, never the
    one the test settings send tasks to; a test that wants it to be the
    tasks' worker sends to its queue.
    """
    with celery_worker("config", tmp_path / "celery-worker.log") as worker:
        yield worker
