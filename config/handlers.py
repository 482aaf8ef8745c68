"""Django's ASGI handler, with the whole request handled in one thread hop.

Under ASGI, Django runs the middleware chain as coroutines, and every hook of
a ``MiddlewareMixin`` middleware (security, sessions, common, CSRF,
authentication, messages, clickjacking) and the sync view itself is called
through ``sync_to_async``: about sixteen hops between the event loop and a
thread per request, each a GIL handoff and a wake-up. On two cores that cost
about 9 ms per request, for a page that takes well under one to build
(docs/performance.md). Every view here is sync, so this handler loads the
chain in sync mode and runs it, view included, in a single
``sync_to_async`` call per request; everything else (reading the body,
streaming the response, disconnects) is still Django's own ASGI handling.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest


class OneHopASGIHandler(ASGIHandler):
    """``ASGIHandler`` running the sync middleware chain in one thread hop."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> Any:
        # thread_sensitive, as Django runs sync code under ASGI: one thread per
        # request (ASGIHandler.handle's ThreadSensitiveContext).
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
