"""The only code that talks to the channel layer (docs/live-protocol.md).

A move is pushed, not announced: on commit, the process that stored it builds
each audience's ``state`` frame (``games.frames.frames_after_move``: one per
seat a person holds, one for spectators) and sends it to that audience's own
group, ``table-<id>-seat-<n>`` or ``table-<id>-watch``. Only the connections
of the person holding that seat join a seat's group, so a frame never reaches
another seat: nothing private travels through a group two seats share.
Connections forward a frame that continues from the last seq they delivered
and read the store only when they find a gap (``games.consumers``).

The table's shared group, ``table-<id>``, carries only what every seat may
know: :func:`table_changed` (the log or the seats changed, with no game data:
each connection reads and redacts for itself) and :func:`presence_changed`.
A person's own group, ``user-<id>``, which every socket they open joins,
carries :func:`credentials_revoked`: their token or password stopped being
valid, so the sockets it concerns close.

Publishing never builds an event loop per message. While a socket of this
process listens, messages go out on the loop that serves it (the server's
own, ``loop_register``, called by the ASGI entry point), so its own sockets
get them without Redis. Otherwise (Celery workers, management commands, the
scheduler thread, a server with no socket yet) the calling thread publishes
itself, blocking, through the layer's ``sync_publisher``, with no second
thread taking the GIL from the mover. A move knows from its row lock's read
which audiences have a socket anywhere (``SeatConnection``), so one nobody
watches publishes nothing and asks Redis nothing.
A layer without one (the in-memory layer) is served by one background loop
per process. A failing channel layer is logged once, not per move, and again
when it works again; moves are committed either way and clients catch up with
``sync``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from channels.layers import get_channel_layer
from redis.exceptions import RedisError

from config.outages import Outage

if TYPE_CHECKING:
    from games.frames import Pushed

logger = logging.getLogger(__name__)

#: The ``type`` of the group messages; consumers handle them as
#: ``table_changed``, ``table_frame``, ``presence_changed`` and
#: ``credentials_revoked``.
TABLE_CHANGED = "table.changed"
TABLE_FRAME = "table.frame"
PRESENCE_CHANGED = "presence.changed"
CREDENTIALS_REVOKED = "credentials.revoked"

#: Seconds one publish may take before it counts as failed.
PUBLISH_TIMEOUT = 5.0

#: What a channel layer that lost its backend raises. ``OSError`` includes
#: what an ASGI server raises when a socket's client has gone (uvicorn's
#: ``ClientDisconnected``): the table consumer tells those apart first
#: (``games.consumers.ClientGone``), since a client leaving is no outage.
LAYER_ERRORS: tuple[type[BaseException], ...] = (
    RedisError,
    OSError,
    asyncio.TimeoutError,
)


def table_group(table_id: int) -> str:
    """The channel-layer group of everyone watching table ``table_id``."""
    return f"table-{table_id}"


def audience_group(table_id: int, seat: int | None) -> str:
    """The group of the connections that see table ``table_id`` from ``seat``
    (None: spectators). Only the person holding a seat joins its group."""
    if seat is None:
        return f"table-{table_id}-watch"
    return f"table-{table_id}-seat-{seat}"


def user_group(user_id: int) -> str:
    """The group of every socket person ``user_id`` has open, on any table."""
    return f"user-{user_id}"


def frames_push(
    table_id: int,
    audiences: Sequence[int | None],
    build: Callable[[list[int | None]], list[Pushed]],
    *,
    listening: Collection[tuple[int | None, str]] | None = None,
) -> None:
    """Send each audience its own frame of a committed change (on commit).

    ``audiences`` are the seats a person holds and None (spectators);
    ``build(audiences)`` makes their frames (``frames.frames_after_move``).
    Frames are built only for audiences someone listens to:

    * ``listening``, when the move's row lock read it: ``(audience,
      process)`` of every registered socket (``SeatConnection``). Only those
      audiences get frames: first the ones with a connection in this process
      (queued for them at once, without Redis), then those another process
      holds, published through Redis without asking it who listens. A move
      nobody watches costs nothing here.
    * Otherwise, the same, but the channel layer is asked which groups
      another process subscribes to (one ``PUBSUB NUMSUB``).

    Every frame goes to its audience's group only (``audience_group``), as
    ``{"type": "table.frame", "after", "user", "frame"}``; ``user`` is the
    seat's holder, so a connection can refuse a frame meant for someone else.
    """
    if listening is not None:
        heard_anywhere = {seat for seat, _ in listening}
        audiences = [seat for seat in audiences if seat in heard_anywhere]
    layer = get_channel_layer()
    if layer is None or not audiences:
        return
    groups = {audience_group(table_id, seat): seat for seat in audiences}
    label = f"{TABLE_FRAME} to table {table_id}"

    def frames_for(names: Iterable[str]) -> list[tuple[str, dict[str, Any]]]:
        """The messages of these groups' audiences; nothing built for none."""
        seats = [groups[g] for g in names]
        return _frames_messages(table_id, build(seats)) if seats else []

    direct = _direct_publisher(layer)
    if direct is not None:

        def send_direct() -> None:
            # No socket here: whoever listens is in another process.
            names = list(groups)
            if listening is None:
                names = direct.groups_listened(names)
            messages = frames_for(names)
            if messages:
                direct.group_send_many(messages)

        _run_direct(send_direct, label)
        return

    async def send_all() -> None:
        local = getattr(layer, "groups_with_local_members", None)
        if local is None:  # a layer that cannot tell: every audience, as sent
            messages = frames_for(groups)
            await asyncio.gather(*(layer.group_send(g, m) for g, m in messages))
            return
        here = local(list(groups))
        first = frames_for(here)
        layer.deliver_local(first)
        # Only what another process listens to goes through Redis.
        if listening is not None:
            me = listener_id()
            elsewhere = {seat for seat, process in listening if process != me}
            heard = {g for g, seat in groups.items() if seat in elsewhere}
        else:
            heard = set(await layer.groups_listened(list(groups)))
        more = frames_for(g for g in heard if g not in here)
        remote = [(g, m) for g, m in first if g in heard] + more
        if remote:
            await layer.group_send_many(remote, local=False)

    _submit(send_all, label)


def listener_id() -> str:
    """Which server process (event loop) a socket registered from here lives
    in, as ``SeatConnection.process`` records it; call it on that loop. Empty
    for a channel layer that has no such id (the in-memory one)."""
    layer = get_channel_layer()
    ident = getattr(layer, "listener_id", None)
    return ident() if ident is not None else ""


def _frames_messages(
    table_id: int, pushed: list[Pushed]
) -> list[tuple[str, dict[str, Any]]]:
    """The group messages of ``pushed`` frames."""
    return [
        (
            audience_group(table_id, item.seat),
            {
                "type": TABLE_FRAME,
                "after": item.after,
                "user": item.holder,
                "frame": item.frame,
            },
        )
        for item in pushed
    ]


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


def credentials_revoked(
    sender: Any = None,
    *,
    user_id: int,
    sessions: bool,
    session: str | None = None,
    **kwargs: Any,
) -> None:
    """Close the sockets of person ``user_id`` that the revoked credentials
    opened: those opened with an API token, and with ``sessions`` those of a
    browser session too (a receiver of ``accounts.signals.credentials_revoked``,
    connected in ``games.apps``); with ``session`` (a log-out: the digest of
    the ended session's key) only the sockets that session opened."""
    _publish(
        user_group(user_id),
        {"type": CREDENTIALS_REVOKED, "sessions": sessions, "session": session},
    )


# --- the loop messages go out on --------------------------------------------

_server_loop: asyncio.AbstractEventLoop | None = None
_own_loop: tuple[int, asyncio.AbstractEventLoop] | None = None
_own_lock = threading.Lock()
_pending: set[Future[None]] = set()


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


def _direct_publisher(layer: Any) -> Any | None:
    """The layer's blocking publisher, for a thread without a running loop
    in a process with no socket to serve first; None while one listens here,
    on a loop's own thread (never block it), or if the layer has none."""
    make = getattr(layer, "sync_publisher", None)
    if make is None or layer.has_local_members() or _loop_running():
        return None
    return make()


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _run_direct(send: Callable[[], None], label: str) -> None:
    """Publish on the calling thread; a failure is reported, never raised."""
    try:
        send()
    except LAYER_ERRORS as error:
        _result(label, error)
    else:
        _result(label, None)


def _publish(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    label = f"{message['type']} to {group}"
    direct = _direct_publisher(layer)
    if direct is not None:
        _run_direct(lambda: direct.group_send_many([(group, message)]), label)
        return
    _submit(lambda: layer.group_send(group, message), label)


def _submit(make: Callable[[], Awaitable[None]], label: str) -> None:
    """Run ``make()`` on the publishing loop; a failure is reported as
    ``label`` (``layer_failed``), and ``flush`` waits for it."""

    async def run() -> None:
        # A slow publish is reported but not cancelled: under load it still
        # arrives late rather than never (a dead Redis fails fast anyway).
        sending = asyncio.ensure_future(make())
        await asyncio.wait_for(asyncio.shield(sending), PUBLISH_TIMEOUT)

    future = asyncio.run_coroutine_threadsafe(run(), _loop())
    _pending.add(future)
    future.add_done_callback(lambda done: _report(done, label))


#: The channel layer's outages in this process (``config.outages``).
OUTAGE = Outage(
    logger,
    "Live notifications are failing (first: %s): %r. Moves still commit; "
    "clients resync when the channel layer is back. Logged once until it "
    "recovers.",
    "Live notifications work again.",
    level=logging.ERROR,
)


def layer_failed(what: str, error: BaseException) -> None:
    """Log a channel-layer failure, once until the layer works again."""
    OUTAGE.failed(error, what)


def _report(done: Future[None], label: str) -> None:
    _pending.discard(done)
    _result(label, None if done.cancelled() else done.exception())


def _result(label: str, error: BaseException | None) -> None:
    if error is not None:
        layer_failed(label, error)
    else:
        OUTAGE.worked()


def flush(timeout: float = 5.0) -> None:
    """Wait until every publish sent so far has finished (tests, shutdown)."""
    for future in list(_pending):
        # A failure was reported by _report already.
        with contextlib.suppress(Exception):
            future.result(timeout)
