"""Run follow-up jobs (bot turns, turn timers) later, outside the request.

Services never run a bot move or a timer in the request that made it due:
``followups`` calls :func:`job_schedule` on commit with a job name, its
arguments (ids and the seq the job is for) and a delay. Who runs the job is
``settings.TASK_RUNNER``:

* ``"celery"`` (the full stack): the Celery task of that name, sent to the
  broker with a countdown; any worker runs it.
* ``"thread"`` (the embedded default, ``make run``): a scheduler thread inside
  this process keeps a heap of due times and runs one job at a time. A thread,
  not an asyncio task on the server loop, because commits happen in sync
  threads (views, other jobs, management commands) and bot moves are
  synchronous database work; one worker thread also matches SQLite, which
  writes one transaction at a time anyway. Jobs die with the process; the
  turn sweep re-schedules what was lost when the server starts again.
* ``"inline"`` (the test settings): a job with no delay runs at once in the
  caller (iteratively, never recursively); a delayed one is held in
  :data:`held` until a test runs it with :func:`held_run`.

Jobs are registered by name (``games.tasks`` does it at import), so this
module imports nothing of the services and no import cycle can form.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from django.utils.module_loading import import_string

from config import broker
from config.logs import traceback_without_values

logger = logging.getLogger(__name__)

Job = Callable[..., Any]

#: Job name -> the function that runs it (the Celery task's body).
JOBS: dict[str, Job] = {}

#: Inline runner: delayed jobs waiting for a test, as ``(name, args, delay)``.
held: list[tuple[str, tuple[Any, ...], float]] = []


def job_register(name: str, fn: Job) -> None:
    """Make ``fn`` the job called ``name`` (also the Celery task's name)."""
    JOBS[name] = fn


def job_schedule(name: str, *args: Any, delay: float = 0.0) -> None:
    """Run job ``name(*args)`` in ``delay`` seconds, by the configured runner.

    Call it on commit. Jobs must be idempotent and check that they are still
    due (they carry the seq they were scheduled for).
    """
    runner = settings.TASK_RUNNER
    if runner == "celery":
        _send(name, args, delay)
    elif runner == "thread":
        _background().add(name, args, delay)
    elif runner == "inline":
        if delay > 0:
            held.append((name, args, delay))
        else:
            _inline_run(name, args)
    else:  # pragma: no cover - a settings mistake
        raise ValueError(f"Unknown TASK_RUNNER {runner!r}")


#: The thread runner's job that runs a deferred call (:func:`call_defer`).
CALL_JOB = "games.scheduler.call"


def call_defer(fn: Callable[[], Any], delay: float) -> bool:
    """Run ``fn()`` in ``delay`` seconds on this process's scheduler thread,
    leaving the caller (a job, a Celery task) free meanwhile.

    For a job that must finish at a set time, not as soon as it can (a strong
    bot's move waits out its think time: ``games.services.bots``). ``fn``
    stays in this process's memory, never in a broker. On the thread runner
    the thread is the one that runs every job; in a Celery worker process it
    is a thread of that process's own, so the task returns and its pool slot
    takes the next task instead of sleeping. A process that stops meanwhile
    loses the call, as a job lost with a worker: the turn sweep schedules the
    turn again. Returns False where it cannot be done so (inline; no delay),
    and the caller then waits itself.
    """
    if settings.TASK_RUNNER not in ("thread", "celery") or delay <= 0:
        return False
    _background().add(CALL_JOB, (fn,), delay)
    return True


def _call(fn: Callable[[], Any]) -> Any:
    return fn()


def deferred_calls_finish(timeout: float) -> bool:
    """Wait, at most ``timeout`` seconds, until this process's scheduler
    thread has run every deferred call it holds (:func:`call_defer`).

    For a process about to exit on purpose (a Celery worker's warm
    shutdown): a strong bot's chosen move waiting out its think time lives
    only in this process's memory, and would be lost with it, its table
    waiting for the turn sweep. Returns whether none is left.
    """
    scheduler = _background_scheduler
    if scheduler is None or scheduler.pid != os.getpid():
        return True
    return scheduler.calls_wait(time.monotonic() + timeout)


JOBS[CALL_JOB] = _call


def job_repeat(name: str, *, every: float) -> None:
    """Thread runner only: run job ``name`` soon, then every ``every`` seconds
    (what Celery beat does on the full stack)."""
    if settings.TASK_RUNNER == "thread":
        _background().repeat(name, every)


def beat_repeat() -> None:
    """Thread runner only: run Celery beat's whole schedule on this process's
    scheduler thread, each entry of ``CELERY_BEAT_SCHEDULE`` at its interval.

    The embedded default has no beat, yet its sweeps are what catch work that
    was lost (a process killed between a commit and its on-commit work): the
    turn sweep, the statistics sweep (a finished table never counted) and the
    tournaments sweep. A task that is no job yet is registered by its name,
    the import path of the Celery task.
    """
    if settings.TASK_RUNNER != "thread":
        return
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        name = entry["task"]
        if name not in JOBS:
            job_register(name, import_string(name))
        job_repeat(name, every=float(entry["schedule"]))


# --- inline -----------------------------------------------------------------

_inline = threading.local()


def _send(name: str, args: tuple[Any, ...], delay: float) -> None:
    """Send a job to Celery's broker. With the broker down or hung the job is
    lost, not the move that scheduled it (it has committed): the turn sweep
    (``games.services.sweep``) schedules the table's next turn again once
    the broker is back. ``config.broker`` bounds the wait and logs the
    outage once, and its end."""
    broker.task_send(name, args, countdown=delay or None)


def _inline_run(name: str, args: tuple[Any, ...]) -> None:
    """Run the job now; jobs it schedules run after it, in a loop."""
    queue: list[tuple[str, tuple[Any, ...]]] | None = getattr(_inline, "queue", None)
    if queue is not None:
        queue.append((name, args))
        return
    _inline.queue = queue = [(name, args)]
    try:
        while queue:
            job, job_args = queue.pop(0)
            JOBS[job](*job_args)
    finally:
        _inline.queue = None


def held_run(name: str | None = None) -> int:
    """Run the held jobs (those called ``name`` only); return how many ran."""
    ran = 0
    for item in list(held):
        if name is None or item[0] == name:
            held.remove(item)
            _inline_run(item[0], item[1])
            ran += 1
    return ran


# --- thread -----------------------------------------------------------------


class _Background:
    """One daemon thread running due jobs from a heap, one at a time."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, str, tuple[Any, ...]]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._every: dict[str, float] = {}
        #: The job the thread is running (None between jobs).
        self._running: str | None = None
        self.pid = os.getpid()
        self._thread = threading.Thread(
            target=self._loop, name="cardroom-scheduler", daemon=True
        )
        self._thread.start()

    def add(self, name: str, args: tuple[Any, ...], delay: float) -> None:
        with self._wake:
            due = time.monotonic() + max(delay, 0.0)
            heapq.heappush(self._heap, (due, next(self._order), name, args))
            self._wake.notify_all()

    def repeat(self, name: str, every: float) -> None:
        if name not in self._every:
            self._every[name] = every
            self.add(name, (), min(every, 2.0))

    def pending(self) -> int:
        with self._wake:
            return len(self._heap)

    def calls_wait(self, deadline: float) -> bool:
        """Wait until no deferred call is queued or running, or until
        ``deadline`` (``time.monotonic()``); whether none is left."""
        with self._wake:
            while self._running == CALL_JOB or any(
                name == CALL_JOB for _, _, name, _ in self._heap
            ):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(left)
            return True

    def _next(self) -> tuple[str, tuple[Any, ...]]:
        with self._wake:
            while True:
                if self._heap:
                    wait = self._heap[0][0] - time.monotonic()
                    if wait <= 0:
                        _, _, name, args = heapq.heappop(self._heap)
                        self._running = name
                        return name, args
                    self._wake.wait(wait)
                else:
                    self._wake.wait()

    def _loop(self) -> None:
        while True:
            name, args = self._next()
            close_old_connections()
            try:
                JOBS[name](*args)
            except Exception as exc:  # a bot's turn: may quote its hand
                logger.error(
                    "Job %s%r failed\n%s", name, args, traceback_without_values(exc)
                )
            finally:
                close_old_connections()
                if name in self._every:
                    self.add(name, args, self._every[name])
                with self._wake:
                    self._running = None
                    self._wake.notify_all()


_background_lock = threading.Lock()
_background_scheduler: _Background | None = None


def _background() -> _Background:
    """This process's scheduler thread (a forked child starts its own)."""
    global _background_scheduler
    with _background_lock:
        if _background_scheduler is None or _background_scheduler.pid != os.getpid():
            _background_scheduler = _Background()
        return _background_scheduler
