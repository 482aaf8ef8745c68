"""A dependency that can fail under a process (Redis, the broker), logged
once when it starts failing and once when it works again, never per request.

Each process keeps its own ``Outage`` per dependency: the channel layer's live
notifications (``games.realtime``), the throttle's Redis
(``config.throttling``) and Celery's broker (``config.broker``).
"""

from __future__ import annotations

import logging
import threading
from typing import Any


class Outage:
    """Whether a dependency is failing in this process, and its two log lines.

    ``failing`` is a template with one ``%s`` for the error (its ``repr``)
    and may take more arguments first (``failed(error, *args)``); ``back`` is
    logged once the dependency works again.
    """

    def __init__(
        self,
        logger: logging.Logger,
        failing: str,
        back: str,
        *,
        level: int = logging.WARNING,
    ) -> None:
        self.logger, self.failing_message, self.back = logger, failing, back
        self.level = level
        self.failing = False
        self._lock = threading.Lock()

    def failed(self, error: BaseException, *args: Any) -> None:
        """The dependency failed: logged if it worked until now."""
        with self._lock:
            if self.failing:
                return
            self.failing = True
        self.logger.log(self.level, self.failing_message, *args, error)

    def worked(self) -> None:
        """The dependency answered: logged if it was failing."""
        if not self.failing:  # the common case, without the lock
            return
        with self._lock:
            if not self.failing:
                return
            self.failing = False
        self.logger.warning(self.back)
