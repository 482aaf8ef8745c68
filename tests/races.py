"""Races on the real PostgreSQL: callables run at one moment, locks held.

Each callable runs in a thread of its own, so on a database connection of its
own, as two web processes (or a web process and a worker) would; the thread
closes its connection when it ends. Tests that use these helpers commit for
real (``pytest.mark.django_db(transaction=True)``).

* ``run_together(*calls)`` starts the calls behind a barrier and returns each
  one's ``Outcome`` (its value, or the exception it raised).
* ``in_background(call)`` starts one call now and returns a ``Background``
  to wait for.
* ``holding(lock, then=...)`` holds what ``lock`` takes (a row lock) in a
  transaction of another thread until the ``with`` block ends, then runs
  ``then`` in that same transaction and commits: a move, a seating or a
  revocation "in progress" while the code under test tries to get in.
* ``wait_for_lock_waiters(n)`` waits until ``n`` other connections wait for
  a lock: the code under test has reached the lock (PostgreSQL's own view,
  ``pg_stat_activity``, not a guess by the clock).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connection, connections, transaction

#: How long a helper waits for a thread before the test fails.
WAIT = 30.0


@dataclass
class Outcome:
    """What one call gave: its value, or the exception it raised."""

    value: Any = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def get(self) -> Any:
        """The value; the call's exception raised again if it failed."""
        if self.error is not None:
            raise self.error
        return self.value


def _run(call: Callable[[], Any], outcome: Outcome) -> None:
    try:
        outcome.value = call()
    except BaseException as exc:  # reported to the test, not lost in the thread
        outcome.error = exc
    finally:
        connections.close_all()


def run_together(*calls: Callable[[], Any], timeout: float = WAIT) -> list[Outcome]:
    """Run ``calls`` at once, one thread (and connection) each, released
    together by a barrier; their outcomes in the same order."""
    barrier = threading.Barrier(len(calls))
    outcomes = [Outcome() for _ in calls]

    def start(call: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            barrier.wait(timeout)
            return call()

        return run

    threads = [
        threading.Thread(target=_run, args=(start(call), outcome), daemon=True)
        for call, outcome in zip(calls, outcomes, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a racing call did not finish"
    return outcomes


class Background:
    """One call running in a thread of its own (``in_background``)."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.outcome = Outcome()
        self.thread = threading.Thread(
            target=_run, args=(call, self.outcome), daemon=True
        )
        self.thread.start()

    def done(self) -> bool:
        return not self.thread.is_alive()

    def wait(self, timeout: float = WAIT) -> Outcome:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the call in the background did not end"
        return self.outcome


def in_background(call: Callable[[], Any]) -> Background:
    """Start ``call`` now in a thread (and connection) of its own."""
    return Background(call)


def lock_waiters() -> int:
    """Connections to this test database waiting for a lock now (not this one)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        (count,) = cursor.fetchone()
    return int(count)


def wait_for_lock_waiters(
    count: int = 1,
    *,
    timeout: float = 10.0,
    unless: Callable[[], bool] | None = None,
) -> bool:
    """Wait until ``count`` other connections wait for a lock; True then.

    False when ``unless`` says there is no point waiting any longer (the call
    expected to wait has ended without waiting: the race the test looks for
    did not happen the way it expected). Fails the test after ``timeout``.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if lock_waiters() >= count:
            return True
        if unless is not None and unless():
            return False
        time.sleep(0.01)
    raise AssertionError(f"{count} connection(s) never waited for a lock")


class Holder:
    """A transaction in another thread holding a lock (``holding``)."""

    def __init__(self, lock: Callable[[], Any], then: Callable[[], Any] | None) -> None:
        self._lock, self._then = lock, then
        self._held = threading.Event()
        self._release = threading.Event()
        self.outcome = Outcome()
        #: What ``lock`` returned (the row it locked, the table it made).
        self.locked: Any = None
        self._thread = threading.Thread(
            target=_run, args=(self._hold, self.outcome), daemon=True
        )

    def _hold(self) -> Any:
        with transaction.atomic():
            try:
                self.locked = self._lock()
            finally:
                self._held.set()
            self._release.wait(WAIT)
            return self._then() if self._then is not None else None

    def start(self) -> None:
        self._thread.start()
        assert self._held.wait(WAIT), "the lock was never taken"
        if self.outcome.error is not None:
            raise self.outcome.error

    def release(self) -> Outcome:
        """Run ``then`` and commit; the holder's outcome."""
        self._release.set()
        self._thread.join(WAIT)
        assert not self._thread.is_alive(), "the holder did not commit"
        return self.outcome


@contextmanager
def holding(
    lock: Callable[[], Any], *, then: Callable[[], Any] | None = None
) -> Iterator[Holder]:
    """Hold what ``lock`` takes in another thread's transaction for the
    ``with`` block; on leaving it, run ``then`` there and commit (its outcome
    is the holder's ``outcome``)."""
    holder = Holder(lock, then)
    holder.start()
    try:
        yield holder
    finally:
        holder.release()
