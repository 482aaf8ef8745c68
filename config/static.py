"""Static files from the web process itself (WhiteNoise), without slowing the API.

WhiteNoise's middleware is sync-only. Under an ASGI server Django runs the
middleware chain as coroutines, and one sync-only middleware in it makes every
request, static or not, hop into a thread, start a fresh event loop for the
rest of the chain and hop back (about 10 ms a request on the benchmark
machine: docs/performance.md). This subclass answers both ways: static files
are served from a worker thread (they are files on disk), everything else
passes straight through to the next middleware.
"""

from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest
from whitenoise.middleware import WhiteNoiseMiddleware

from config.middleware import SyncAndAsync


class StaticFilesMiddleware(SyncAndAsync, WhiteNoiseMiddleware):  # type: ignore[misc]
    """``whitenoise.middleware.WhiteNoiseMiddleware``, sync and async capable."""

    def __init__(self, get_response: Callable[[HttpRequest], Any], **kw: Any) -> None:
        super().__init__(get_response, **kw)
        self._mode(get_response)

    def _call(self, request: HttpRequest) -> Any:
        return WhiteNoiseMiddleware.__call__(self, request)

    async def _acall(self, request: HttpRequest) -> Any:
        if self.autorefresh:  # DEBUG: looks on disk for every request
            static_file = await sync_to_async(self.find_file, thread_sensitive=False)(
                request.path_info
            )
        else:
            static_file = self.files.get(request.path_info)
        if static_file is None:
            return await self.get_response(request)
        return await sync_to_async(self.serve, thread_sensitive=False)(
            static_file, request
        )
