"""The live table socket, ``ws/tables/<id>/`` (docs/live-protocol.md).

A thin async consumer: it validates each client message, calls one service or
read through ``database_sync_to_async`` and sends the answer. It never builds
game data itself. Each connection joins two groups: the table's shared group
(presence, and ``table.changed`` when the seats changed: no game data) and
its audience's own group (``realtime.audience_group``: its seat's, or the
spectators'), where the process that committed a move pushes the frame built
for that audience. A pushed frame that continues from the last seq this
connection delivered is forwarded as it is; on a gap, a frame meant for
another holder of the seat, or a ``table.changed``, the connection reads what
it lacks from the event store, redacted for its own seat
(``games.frames.frame_state``). Channels hands a consumer one message at a
time, so ``last_seq`` moves forward only: every event reaches a connection
exactly once and in order, however pushes, moves and resyncs interleave.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError, close_old_connections
from rest_framework import exceptions

import rules
from accounts.authentication import PendingToken
from accounts.signals import session_digest
from config.errors import (
    BUSY_CODE,
    SERVER_ERROR_MESSAGE,
    api_error_body,
    busy,
)
from config.limits import (
    MAX_JSON_DEPTH,
    TOO_DEEP_CODE,
    TOO_LARGE_CODE,
    JSONTooDeep,
    json_loads_bounded,
)
from config.logs import traceback_without_values
from games import frames, realtime, services
from games.apis import ActionSubmitApi
from games.errors import NotFound, TableError
from games.services import presence
from games.state_codec import json_text

logger = logging.getLogger(__name__)

#: Close codes (docs/live-protocol.md).
CLOSE_INVALID_TOKEN = 4401
CLOSE_UNKNOWN_TABLE = 4404
#: The live feed (channel layer) failed: reconnect with ``?after=<last seq>``.
CLOSE_FEED_LOST = 4503
#: The server failed serving the socket (logged): reconnect with ``?after=``.
CLOSE_SERVER_ERROR = 1011

NOT_AUTHENTICATED = exceptions.NotAuthenticated()

#: The longest message a client may send, in characters. An ``act`` is a few
#: hundred; reading a longer one would only cost the event loop: parsing and
#: depth-checking megabytes of small arrays holds every socket of the process
#: for seconds. Under ``scripts/web.sh`` uvicorn closes a message over 64 KiB
#: with 1009 before it reaches here (``--ws-max-size``, docs/operations.md).
MAX_MESSAGE_CHARS = 16 * 1024


class ClientGone(Exception):
    """The server could not send to the client: it went away (uvicorn raises
    its ``ClientDisconnected``, an ``OSError``, on a closed connection). A
    normal end of a socket, not a channel-layer outage."""


_executor: ThreadPoolExecutor | None = None


def _db(fn: Any) -> Any:
    """Run ``fn`` on one of the process's live-play database threads.

    ``LIVE_DB_THREADS`` of them (default 1), each with its own connection,
    shared by every socket of the process: a move or a read queues there
    rather than in threads that would contend with the event loop for the
    GIL and hold back every socket's frames (docs/performance.md). Not
    thread-sensitive: Django's one shared thread stays free for the rest.
    """
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(
            max_workers=settings.LIVE_DB_THREADS, thread_name_prefix="live-db"
        )
    return database_sync_to_async(
        _dropping_broken(fn), thread_sensitive=False, executor=_executor
    )


def _dropping_broken(fn: Any) -> Any:
    """``fn``, dropping the thread's connection if a database error left it
    unusable (its session ended: a restart, ``pg_terminate_backend``).

    Channels' own check around the call (``close_old_connections``) does not
    reach the connection ``fn`` used, which lives in the call's context; a
    broken one then stayed in the thread, and every later call of every
    socket of the process failed on it. A move's transaction drops it
    itself when its rollback fails; a ping's or a read's did not.
    """

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except DatabaseError:
            close_old_connections()  # closes it if it is no longer usable
            raise

    return call


class NoSuchSocketConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """A handshake on a path that is no table's socket (``ws/tables/abc/``,
    a missing trailing slash): accepted, then closed with 4404 as for an
    unknown table, so the client gets a code instead of an HTTP 500 (Channels'
    router raises, and the server logs a traceback, when no route matches)."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_UNKNOWN_TABLE)


class TableConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """One WebSocket watching (and, for a seated person, playing) one table."""

    table_id: int
    user: Any
    seat: int | None
    last_seq: int | None
    joined: bool = False
    registered: bool = False  # its SeatConnection row exists
    audience: str | None = None  # the audience group joined
    personal: str | None = None  # the person's own group joined
    connect_received: bool = False  # the client's websocket.connect
    accepted: bool = False  # the handshake, answered

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the consumer; if the channel layer fails under it (logged once
        per outage, not per socket), or the database stays busy past its
        waits (``config.errors.busy``: a table held by a stuck transaction
        while the socket registers), close the socket with
        ``CLOSE_FEED_LOST`` so the client reconnects and resyncs; any other
        failure (a bug) with ``CLOSE_SERVER_ERROR``, logged without the
        exception's message. The
        handshake is accepted first if it was not yet (the layer fails
        before it when Redis is down), so the client gets the code, not a
        bare HTTP 403. A client that went away while we sent to it
        (``ClientGone``) is cleaned up after, as a disconnect is."""

        async def from_client() -> Any:
            message = await receive()
            if message["type"] == "websocket.connect":
                self.connect_received = True
            return message

        async def to_client(message: dict[str, Any]) -> None:
            try:
                await send(message)
            except OSError as exc:  # the server's: never the channel layer's
                raise ClientGone(repr(exc)) from exc

        try:
            await super().__call__(scope, from_client, to_client)
        except ClientGone:
            await self._leave()
        except NotFound:  # the table was deleted under the socket
            await self._feed_lost(from_client, to_client, CLOSE_UNKNOWN_TABLE)
        except realtime.LAYER_ERRORS as exc:
            realtime.layer_failed("a table socket's feed", exc)
            await self._feed_lost(from_client, to_client)
        except DatabaseError as exc:
            if not busy(exc, "on a socket"):
                raise
            await self._feed_lost(from_client, to_client)
        except Exception as exc:
            # A bug reading or forwarding a frame (the rules building a view
            # for the first frame, a catch-up): the server would log it with
            # its message, which may quote a seat's hand. Logged here without
            # it, and the socket closes with 1011 (the client reconnects).
            logger.error(
                "Live play: the socket of table %s failed\n%s",
                getattr(self, "table_id", "?"),
                traceback_without_values(exc),
            )
            await self._feed_lost(from_client, to_client, CLOSE_SERVER_ERROR)

    async def _leave(self) -> None:
        """Leave the groups and the registration (should that fail too, the
        row stops counting once stale: ``SeatConnection``)."""
        with contextlib.suppress(*realtime.LAYER_ERRORS):
            await self._groups_leave()
        if self.registered:
            self.registered = False
            with contextlib.suppress(DatabaseError):
                await _db(presence.connection_close)(
                    table_id=self.table_id, channel_name=self.channel_name
                )

    async def _feed_lost(
        self, receive: Any, send: Any, code: int = CLOSE_FEED_LOST
    ) -> None:
        """``_leave``, and close with ``code`` (``CLOSE_FEED_LOST``): after
        accepting the handshake if it is still open, so that the code reaches
        the client (docs/live-protocol.md, "Close codes")."""
        await self._leave()
        with contextlib.suppress(ClientGone):
            if not self.accepted:
                if not self.connect_received:
                    message = await receive()
                    if message["type"] != "websocket.connect":
                        return  # the client left before its handshake
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": code})

    async def accept(self, subprotocol: Any = None, headers: Any = None) -> None:
        await super().accept(subprotocol, headers)
        self.accepted = True

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its ``aclose_old_connections`` hop.

        That hop runs in the one thread every thread-sensitive call of the
        process shares, so with hundreds of sockets each message would queue
        there. Nothing here touches the database outside ``_db``, whose worker
        threads close stale connections themselves before and after each call.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.seat, self.last_seq = None, None
        await self.accept()
        if self.scope.get("auth_error"):
            # The reason in an error frame too: not every server sends a
            # close frame's reason (daphne drops it).
            code, message = self.scope["auth_error"]
            await self.send_json({"type": "error", "code": code, "message": message})
            await self.close(code=CLOSE_INVALID_TOKEN, reason=message)
            return
        # Join the group before the first read: a move committed after that
        # read is then announced to us, one committed before is in the read.
        # Marked joined first: should Redis fail the subscription, the
        # layer's local membership is left again (``_groups_leave``).
        self.joined = True
        await self.channel_layer.group_add(
            realtime.table_group(self.table_id), self.channel_name
        )
        if self.user is not None:  # closed should its credentials be revoked
            self.personal = realtime.user_group(self.user.pk)
            await self.channel_layer.group_add(self.personal, self.channel_name)
        try:
            opened = await _db(presence.connection_open)(
                table_id=self.table_id,
                user=self.user,
                channel_name=self.channel_name,
                process=realtime.listener_id(),
            )
        except NotFound:
            await self.close(code=CLOSE_UNKNOWN_TABLE)
            return
        self.seat = opened.seat
        self.registered = True
        # The audience group before the first read, as for the table's group
        # (the registration already names it).
        await self._audience_join(opened.seat, register=False)
        await self._catch_up(after=_after_param(self.scope), always=True)
        seats = await _db(frames.presence_list)(table_id=self.table_id)
        await self.send_json({"type": "presence", "seats": seats})

    async def disconnect(self, code: int) -> None:
        if not self.joined:
            return
        await self._groups_leave()
        if self.registered:
            await _db(presence.connection_close)(
                table_id=self.table_id, channel_name=self.channel_name
            )

    # --- client -> server --------------------------------------------------

    async def receive(
        self, text_data: str | None = None, bytes_data: Any = None
    ) -> None:
        if text_data is None:
            await self._error(
                "parse_error",
                "Messages are JSON in text frames; a binary frame is not read.",
            )
            return
        if len(text_data) > MAX_MESSAGE_CHARS:  # never parsed: see the limit
            await self._error(
                TOO_LARGE_CODE,
                f"A message is longer than the limit of {MAX_MESSAGE_CHARS} "
                "characters.",
            )
            return
        try:
            content = json_loads_bounded(text_data)
        except JSONTooDeep:
            await self._error(
                TOO_DEEP_CODE,
                f"A message is nested deeper than {MAX_JSON_DEPTH} levels.",
            )
            return
        except ValueError:
            content = None
        if not isinstance(content, dict):  # not JSON, or a list, string, number
            await self._error("parse_error", "A message must be a JSON object.")
            return
        try:
            await self.receive_json(content)
        except ClientGone:
            raise  # the client left meanwhile: nothing went wrong here
        except NotFound:
            # The table was deleted under the socket (a lobby table, in the
            # admin): as for a handshake on a table that does not exist.
            await self.close(code=CLOSE_UNKNOWN_TABLE)
        except DatabaseError as exc:
            # A ping's or a sync's database session ended under it, or a wait
            # ran out: no bug, as for a move (``_act``). Send it again.
            message = busy(exc, "on a socket")
            if message is None:
                self._failed(exc)
                await self._error("server_error", SERVER_ERROR_MESSAGE)
            else:
                await self._error(BUSY_CODE, message)
        except Exception as exc:
            # A bug, not the client's doing: say so as REST's 500 does and
            # keep the socket (closing it would leave its registration
            # behind until it went stale).
            self._failed(exc)
            await self._error("server_error", SERVER_ERROR_MESSAGE)

    def _failed(self, exc: BaseException) -> None:
        """Log a message's failure without the exception's message, which
        may quote the seat's hand or its move."""
        logger.error(
            "Live play: a message on table %s failed\n%s",
            self.table_id,
            traceback_without_values(exc),
        )

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type")
        if kind == "act":
            await self._act(content)
        elif kind == "sync":
            after = content.get("after")
            if not isinstance(after, int) or isinstance(after, bool) or after < 0:
                await self._error(
                    "invalid",
                    "after: A valid integer >= 0 is required (your last seq).",
                )
                return
            await self._catch_up(after=after, always=True)
        elif kind == "ping":
            if self.registered:
                await _db(presence.connection_seen)(channel_name=self.channel_name)
            await self._catch_up(after=self.last_seq)
            await self.send_json({"type": "pong"})
        else:
            named = repr(kind)
            if len(named) > 40:  # a huge "type" is not sent back whole
                named = named[:37] + "..."
            await self._error(
                "unknown_message",
                f"Unknown message type {named}; send act, sync or ping.",
            )

    async def _act(self, content: dict[str, Any]) -> None:
        command_id = content.get("command_id")
        if self.user is None:
            body = api_error_body(NOT_AUTHENTICATED)
            await self._error(body["code"], body["message"], command_id)
            return
        try:  # REST's own validation, and its answer to a bad request
            validated = ActionSubmitApi.validated(content)
        except exceptions.ValidationError as exc:
            body = api_error_body(exc)
            await self._error(body["code"], body["message"], command_id)
            return
        # A socket opened with ``?token=`` has its token checked again in the
        # move's transaction, holding the token's row: once its revocation
        # has returned, no move of this socket lands, even one sent before
        # the close reached us (``accounts.authentication.PendingToken``).
        key = self.scope.get("auth_token")
        vouch = PendingToken(key, self.user.pk) if key else None
        try:
            answer = await _db(services.action_submit)(
                table_id=self.table_id, user=self.user, vouch=vouch, **validated
            )
        except exceptions.AuthenticationFailed as exc:
            body = api_error_body(exc)
            await self._error(body["code"], body["message"], command_id)
            await self.close(code=CLOSE_INVALID_TOKEN)
            return
        except TableError as exc:
            await self._error(exc.code, exc.message, command_id)
            if isinstance(exc, NotFound):  # deleted meanwhile: see ``receive``
                await self.close(code=CLOSE_UNKNOWN_TABLE)
            return
        except rules.RulesError as exc:
            await self._error(exc.code, str(exc), command_id)
            return
        except DatabaseError as exc:  # as REST answers it: 503 busy
            message = busy(exc, "on a socket")
            if message is None:
                raise
            await self._error(BUSY_CODE, message, command_id)
            return
        # Our own move reaches us like everyone's: its frame is pushed to our
        # audience's group on commit, queued here without a round trip.
        if self.last_seq is not None and answer["seq"] <= self.last_seq:
            # A retry of a command already played (docs/architecture.md §4):
            # this connection has its events already, so no push will come.
            # The retry still gets its answer: a state frame at the table's
            # seq, with only what this connection lacks (usually nothing).
            await self._catch_up(after=self.last_seq, always=True)

    # --- group -> server ---------------------------------------------------

    async def table_changed(self, message: dict[str, Any]) -> None:
        """The table's log now ends at ``message["seq"]``: send what is new.

        Notifications of seqs we already delivered are dropped (the echo of
        our own move, late arrivals). One that says the seats changed (a seat
        taken, or handed to a bot) always gets a frame, so the view matches
        the connection's seat again.
        """
        if message.get("seats"):
            await self._catch_up(after=self.last_seq, always=True)
        elif self.last_seq is None or message["seq"] > self.last_seq:
            await self._catch_up(after=self.last_seq)

    async def table_frame(self, message: dict[str, Any]) -> None:
        """A frame pushed to this connection's audience: forward it if it
        continues from ``last_seq``, drop it if already delivered, else read
        what is missing."""
        frame, holder = message["frame"], message["user"]
        if self.last_seq is not None and frame["seq"] <= self.last_seq:
            return  # delivered already (a read got there first, a late push)
        mine = frame["seat"] is None or (
            self.user is not None and holder == self.user.pk
        )
        if message["after"] != self.last_seq or frame["seat"] != self.seat or not mine:
            # A gap, or a seat's frame meant for another holder (the seat
            # changed hands): read what is ours instead.
            await self._catch_up(after=self.last_seq)
            return
        self.last_seq = frame["seq"]
        await self.send_json(frame)

    async def layer_failed(self, message: dict[str, Any]) -> None:
        """The channel layer lost Redis (``config.channel_layer``): this socket
        hears nothing more, so it closes with ``CLOSE_FEED_LOST`` (see
        ``__call__``) and its client reconnects and resyncs."""
        raise ConnectionError(message.get("error", "the channel layer lost Redis"))

    async def presence_changed(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "presence", "seats": message["seats"]})

    async def credentials_revoked(self, message: dict[str, Any]) -> None:
        """What this socket was opened with stopped being valid: a revoked
        API token closes the sockets opened with it, a changed password or a
        deactivated account every socket of the person, a log-out the sockets
        of the browser session it ended (``accounts.signals``). Closed with
        ``CLOSE_INVALID_TOKEN``; a browser whose own session stands
        reconnects as it is now."""
        by_token = bool(self.scope.get("auth_by_token"))
        if message.get("session") is not None:
            key = getattr(self.scope.get("session"), "session_key", None)
            ended = bool(key) and not by_token
            ended = ended and session_digest(str(key)) == message["session"]
        else:
            ended = message["sessions"] or by_token
        if ended:
            await self.close(code=CLOSE_INVALID_TOKEN)

    # --- server -> client --------------------------------------------------

    async def _catch_up(self, *, after: int | None, always: bool = False) -> None:
        """Send one ``state`` frame with everything after ``after``."""
        frame = await _db(frames.frame_state)(
            table_id=self.table_id,
            user_id=self.user.pk if self.user else None,
            after=after,
            always=always,
        )
        if frame is None:
            return
        self.seat = frame["seat"]
        self.last_seq = frame["seq"]
        await self.send_json(frame)
        if realtime.audience_group(self.table_id, self.seat) != self.audience:
            # The seat changed (a bot took it over, a seat was taken): move to
            # the new audience, then read what was pushed there before we
            # joined.
            await self._audience_join(self.seat)
            await self._catch_up(after=self.last_seq)

    async def _groups_leave(self) -> None:
        if self.joined:
            self.joined = False
            await self.channel_layer.group_discard(
                realtime.table_group(self.table_id), self.channel_name
            )
        if self.audience is not None:
            audience, self.audience = self.audience, None
            await self.channel_layer.group_discard(audience, self.channel_name)
        if self.personal is not None:
            personal, self.personal = self.personal, None
            await self.channel_layer.group_discard(personal, self.channel_name)

    async def _audience_join(self, seat: int | None, *, register: bool = True) -> None:
        """Receive the frames pushed to ``seat``'s audience (None: spectators),
        and register it (``register``), before the next read: moves push
        frames only to audiences with a registered socket."""
        group = realtime.audience_group(self.table_id, seat)
        if group == self.audience:
            return
        if self.audience is not None:
            await self.channel_layer.group_discard(self.audience, self.channel_name)
        self.audience = group  # before the subscription, as in ``connect``
        await self.channel_layer.group_add(group, self.channel_name)
        if register and self.registered:
            await _db(presence.connection_moved)(
                table_id=self.table_id, channel_name=self.channel_name, seat=seat
            )

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return json_text(content)  # orjson: frames are the bulk of the traffic

    async def _error(self, code: str, message: str, command_id: Any = None) -> None:
        frame = {"type": "error", "code": code, "message": message}
        if isinstance(command_id, str):
            frame["command_id"] = command_id
        await self.send_json(frame)


def _after_param(scope: dict[str, Any]) -> int | None:
    """``?after=<seq>`` on the URL: the last seq a reconnecting client holds."""
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("after")
    if values and values[0].isascii() and values[0].isdigit():  # not "²"
        # Past every log's end: a full state, as for no seq (Python would
        # refuse to convert thousands of digits).
        return int(values[0]) if len(values[0]) <= 18 else None
    return None
