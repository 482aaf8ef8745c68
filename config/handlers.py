"""Django's ASGI handler, with the whole request handled in one thread hop.

Under ASGI, Django runs the middleware chain as coroutines, and every hook of
a ``MiddlewareMixin`` middleware (security, sessions, common, CSRF,
authentication, messages, clickjacking) and the sync view itself is called
through ``sync_to_async``: about sixteen hops between the event loop and a
thread per request, each a GIL handoff and a wake-up. On two cores that cost
about 9 ms per request, for a page that takes well under one to build
(docs/performance.md). Every view here is sync, so this handler loads the
chain in sync mode and runs it in a single hop per request, together with
what Django runs around it in hops of their own: the ``request_started``
signal, building the request, and (for a response that is not streamed)
closing it, which sends ``request_finished`` and so hands the thread's
database connection back to the pool.

The hop goes to a fixed pool of ``WEB_THREADS`` threads, not to a thread
Django creates and joins for every request (its ``ThreadSensitiveContext``):
thread creation was about a tenth of a request's samples. Each thread keeps
its own database connection between the start and the end of a request, as
Django's own threads do. Reading the body and sending the response are
still Django's own ASGI handling; a client going away is listened for only
while a response streams, since a sync view cannot be cancelled (``handle``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

from config.postgresql.base import keep_connections_in_this_thread

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def http_executor() -> ThreadPoolExecutor:
    """This process's request threads (``WEB_THREADS``)."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=settings.WEB_THREADS,
                thread_name_prefix="http",
                initializer=keep_connections_in_this_thread,
            )
        return _executor


class OneHopASGIHandler(ASGIHandler):
    """``ASGIHandler`` running the sync middleware chain in one thread hop."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(
                f"Django can only handle ASGI/HTTP connections, not {scope['type']}."
            )
        # No ThreadSensitiveContext: the request's sync work runs in one hop
        # on this handler's own threads (_hop).
        await self.handle(scope, receive, send)

    async def _hop(self, fn: Any) -> Any:
        """``fn()`` in one of the request threads, in a copy of this task's
        context: what ``sync_to_async`` does for a function that is not
        thread-sensitive, without its bookkeeping for ``async_to_sync`` and
        thread-sensitive code, which no request uses (about 0.1 ms of CPU a
        request: docs/performance.md). It does not carry ``asgiref`` locals
        set on this thread over to that one (they are kept per thread):
        whatever ``fn`` needs of them it sets itself (``_respond``). A
        cancelled hop lets its thread finish, as ``sync_to_async``'s does."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            http_executor(), contextvars.copy_context().run, fn
        )

    def _respond(self, scope: Any, body_file: Any) -> HttpResponseBase:
        """Everything a request does in a thread, as Django's ``handle`` does
        it in several hops: ``request_started``, the request, the middleware
        chain and the view, and closing a response that is not streamed.

        The script prefix is set here, not on the event loop's thread as
        Django sets it: ``asgiref``'s locals are kept per thread, and only
        ``sync_to_async`` would carry one over."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error = self.create_request(scope, body_file)
        if request is None:
            assert error is not None  # Django's answer to a bad request
            response: HttpResponseBase = error
        else:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            # Its content is in memory: close it here, so request_finished
            # runs in this thread and returns its database connection.
            response.close()
        return response

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        """Django's ``ASGIHandler.handle``, with the sync work in one hop.

        Django also listens for the client going away while the view runs,
        to cancel it: a sync view cannot be cancelled (its thread runs on),
        so for a response built in memory that listener only cost each
        request a task, a wait and a cancellation (about 0.1 ms of CPU:
        docs/performance.md); a client gone by then has its answer dropped by
        the server. A streamed response is sent as Django sends it, stopped
        when the client goes away.
        """
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response: HttpResponseBase = await self._hop(
                partial(self._respond, scope, body_file)
            )
            if response.streaming:
                # Streamed content may be produced on this thread.
                set_script_prefix(get_script_prefix(scope))
                await self._stream(response, receive, send)
            else:
                await self.send_response(response, send)
        finally:
            body_file.close()

    async def _stream(
        self, response: HttpResponseBase, receive: Any, send: Any
    ) -> None:
        """Send a streamed response until it ends or the client goes away,
        then close it (in a hop: closing sends ``request_finished``)."""
        sending = asyncio.create_task(self.send_response(response, send))
        listening = asyncio.create_task(self.listen_for_disconnect(receive))
        try:
            await asyncio.wait(
                [sending, listening], return_when=asyncio.FIRST_COMPLETED
            )
            for task in (sending, listening):
                if not task.done():
                    task.cancel()
                with contextlib.suppress(asyncio.CancelledError, RequestAborted):
                    await task
        finally:
            await self._hop(response.close)
