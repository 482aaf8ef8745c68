"""The only code that talks to the channel layer (docs/live-protocol.md).

Services call :func:`table_changed` on commit; it tells every WebSocket
consumer watching the table that its log now ends at ``seq``. That message
carries no game data at all: each consumer reads the new events from the
event store and redacts them for its own seat, so nothing private ever travels
through a shared group. :func:`presence_changed` sends who is connected and
who is away, which every seat may know.

Publishing never blocks the caller and never builds an event loop per
message. In a server process the messages go out on the server's own loop
(``loop_register``, called by the ASGI entry point); anywhere else (Celery
workers, the scheduler thread before any request, management commands, tests)
one background loop per process does it, so each process keeps one set of
Redis connections. A failing channel layer is logged once, not per move, and
again when it works again; moves are committed either way and clients catch
up with ``sync``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Any

from channels.layers import get_channel_layer
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

#: The ``type`` of the group messages; consumers handle them as
#: ``table_changed`` and ``presence_changed``.
TABLE_CHANGED = "table.changed"
PRESENCE_CHANGED = "presence.changed"

#: Seconds one publish may take before it counts as failed.
PUBLISH_TIMEOUT = 5.0

#: What a channel layer that lost its backend raises.
LAYER_ERRORS: tuple[type[BaseException], ...] = (
    RedisError,
    OSError,
    asyncio.TimeoutError,
)


def table_group(table_id: int) -> str:
    """The channel-layer group of everyone watching table ``table_id``."""
    return f"table-{table_id}"


def table_changed(table_id: int, seq: int, *, seats: bool = False) -> None:
    """Tell the table's group that its log now ends at ``seq`` (on commit).

    ``seats``: the seats changed without new events (a join, a bot, a person
    leaving mid-match), so every connection should refresh its frame.
    """
    message: dict[str, Any] = {"type": TABLE_CHANGED, "seq": seq}
    if seats:
        message["seats"] = True
    _publish(table_group(table_id), message)


def presence_changed(table_id: int, seats: list[dict[str, Any]]) -> None:
    """Send the table's presence list (public: connected and away per seat)."""
    _publish(table_group(table_id), {"type": PRESENCE_CHANGED, "seats": seats})


# --- the loop messages go out on --------------------------------------------

_server_loop: asyncio.AbstractEventLoop | None = None
_own_loop: tuple[int, asyncio.AbstractEventLoop] | None = None
_own_lock = threading.Lock()
_pending: set[Future[None]] = set()
_failing = False


def loop_register(loop: asyncio.AbstractEventLoop) -> None:
    """Publish on ``loop`` from now on (the ASGI server's running loop)."""
    global _server_loop
    _server_loop = loop


def _loop() -> asyncio.AbstractEventLoop:
    server = _server_loop
    if server is not None and server.is_running() and not server.is_closed():
        return server
    return _background_loop()


def _background_loop() -> asyncio.AbstractEventLoop:
    """This process's own publishing loop, in a daemon thread."""
    global _own_loop
    with _own_lock:
        if _own_loop is None or _own_loop[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(
                target=loop.run_forever, name="cardroom-realtime", daemon=True
            ).start()
            _own_loop = (os.getpid(), loop)
        return _own_loop[1]


def _publish(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    future = _submit(lambda: layer.group_send(group, message))
    _pending.add(future)
    future.add_done_callback(lambda done: _report(done, group, message))


def _submit(make: Callable[[], Awaitable[None]]) -> Future[None]:
    async def run() -> None:
        # A slow publish is reported but not cancelled: under load it still
        # arrives late rather than never (a dead Redis fails fast anyway).
        sending = asyncio.ensure_future(make())
        await asyncio.wait_for(asyncio.shield(sending), PUBLISH_TIMEOUT)

    return asyncio.run_coroutine_threadsafe(run(), _loop())


def layer_failed(what: str, error: BaseException) -> None:
    """Log a channel-layer failure, once until the layer works again."""
    global _failing
    if not _failing:
        _failing = True
        logger.error(
            "Live notifications are failing (first: %s): %r. Moves still "
            "commit; clients resync when the channel layer is back. Logged "
            "once until it recovers.",
            what,
            error,
        )


def _report(done: Future[None], group: str, message: dict[str, Any]) -> None:
    global _failing
    _pending.discard(done)
    error = None if done.cancelled() else done.exception()
    if error is not None:
        layer_failed(f"{message['type']} to {group}", error)
    elif _failing:
        _failing = False
        logger.warning("Live notifications work again.")


def flush(timeout: float = 5.0) -> None:
    """Wait until every publish sent so far has finished (tests, shutdown)."""
    for future in list(_pending):
        # A failure was reported by _report already.
        with contextlib.suppress(Exception):
            future.result(timeout)
