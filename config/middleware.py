"""Middleware that Django can run either way, sync or async.

Under an ASGI server (uvicorn, daphne) Django runs the middleware chain as
coroutines; one sync-only middleware in it makes every request hop into a
thread, start a fresh event loop for the rest of the chain and hop back
(docs/performance.md). Our middleware take this mixin and say what they do
both ways: ``_call`` (sync) and ``_acall`` (async).
"""

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage import default_storage
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject, empty


class SyncAndAsync:
    """Call ``_mode(get_response)`` from ``__init__``; implement ``_call`` and
    ``_acall``."""

    sync_capable = True
    async_capable = True
    is_async = False

    def _mode(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        return self._call(request)

    def _call(self, request: HttpRequest) -> Any:
        raise NotImplementedError

    async def _acall(self, request: HttpRequest) -> Any:
        raise NotImplementedError


class LazyMessageMiddleware(MessageMiddleware):
    """Django's ``MessageMiddleware``, building a request's message storage
    only when something reads or adds a message.

    Django builds it on every request (a cookie storage and a session
    storage, about 25 µs), and nearly every request (every API call) never
    touches it; saving a storage nobody used does nothing, so skipping it
    changes nothing (docs/performance.md).
    """

    def process_request(self, request: HttpRequest) -> None:
        request._messages = SimpleLazyObject(lambda: default_storage(request))  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: Any) -> Any:
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and messages._wrapped is empty:  # type: ignore[attr-defined]
            return response
        return super().process_response(request, response)
