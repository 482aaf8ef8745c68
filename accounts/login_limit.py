"""A limit on wrong passwords: guessing one is slow, on every way in.

The API's throttle counts all of an address's requests (120 a minute
anonymous), and the admin's log-in page is not behind it at all. So wrong
passwords are counted here too, per name (folded, as names are compared)
and per address (as the throttle reads it, ``CARDROOM_NUM_PROXIES``
included): after ``FAILURES_ALLOWED`` in ``WINDOW_SECONDS`` that address is
refused for that name, the right password included, until the window ends.
A name that does not exist is counted and refused alike, so the limit tells
nobody which names exist. Counting per address too means an attacker cannot
lock a person out of their account from elsewhere.

The counts live in the cache (Redis, shared by every process). A cache that
does not answer lets the attempt through: the password is still checked.
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Any

from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

from accounts.models import username_fold

FAILURES_ALLOWED = 10
WINDOW_SECONDS = 15 * 60

logger = logging.getLogger(__name__)


def _key(username: str, request: Any) -> str | None:
    if request is None or not hasattr(request, "META"):
        return None  # not a request from the network (a command, a test)
    address = BaseThrottle().get_ident(request) or ""
    name = username_fold(username)
    digest = hashlib.sha256(f"{name}\x00{address}".encode()).hexdigest()
    return f"login-failures:{digest}"


def login_wait(*, username: str, request: Any) -> int | None:
    """Seconds until ``request``'s address may try ``username`` again, or
    None while it may."""
    key = _key(username, request)
    if key is None:
        return None
    try:
        counts = cache.get_many([key, f"{key}:until"])
    except Exception:  # noqa: BLE001 - a cache outage never blocks a log-in
        logger.warning("login limit: the cache did not answer")
        return None
    if (counts.get(key) or 0) < FAILURES_ALLOWED:
        return None
    until = counts.get(f"{key}:until") or time.time() + WINDOW_SECONDS
    return max(1, int(until - time.time()) + 1)


def login_failed(*, username: str, request: Any) -> None:
    """Count one wrong password for ``username`` from ``request``'s address."""
    key = _key(username, request)
    if key is None:
        return
    try:
        # The window starts at the first wrong password and is not extended.
        if cache.add(key, 1, timeout=WINDOW_SECONDS):
            cache.set(f"{key}:until", time.time() + WINDOW_SECONDS, WINDOW_SECONDS)
        else:
            cache.incr(key)
    except Exception:  # noqa: BLE001 - a cache outage never blocks a log-in
        logger.warning("login limit: the cache did not answer")
