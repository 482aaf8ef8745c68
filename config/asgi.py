"""The ASGI entry point: HTTP goes to Django, WebSockets to Channels.

HTTP requests run through ``config.handlers.OneHopASGIHandler`` (one thread
hop per request). ``make run`` serves it with daphne; ``make up`` and the containers with
uvicorn (``scripts/web.sh``, see docs/performance.md for why).
WebSocket routes come from ``games.routing``; the origin check keeps foreign
pages out, the session cookie authenticates browsers (``AuthMiddlewareStack``)
and ``?token=`` API clients (``TokenAuthMiddleware``). Every connection
records the server's running loop, so live notifications committed in this
process's threads go out on it (``games.realtime``). On the embedded default
Celery beat's periodic sweeps run on this process's scheduler thread
(``games.scheduler.beat_repeat``).

A worker process of uvicorn's (``scripts/web.sh`` with ``WEB_WORKERS`` above 1)
stops when its parent, the supervisor, is gone (``stop_with_supervisor``).
"""

import asyncio
import ctypes
import multiprocessing
import os
import signal
import sys
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

#: Linux's ``prctl`` option: the signal a process gets when its parent dies.
PR_SET_PDEATHSIG = 1


def stop_with_supervisor() -> None:
    """In a process that ``multiprocessing`` started (a uvicorn worker; the
    supervisor binds the port and hands it to them), ask Linux for
    ``SIGTERM`` when the parent dies: uvicorn then shuts the worker down as
    on a normal stop (its sockets closed, its requests finished).

    Without it, workers whose supervisor was killed (``SIGKILL``, the OOM
    killer) served on unsupervised and held the port, so starting the web
    process again failed with ``Address already in use`` (and ``make up``,
    whose worker and beat stop with it, served moves that no bot answered).
    uvicorn's supervisor starts its workers from its main thread, which
    lives as long as it does. Elsewhere (daphne, a single uvicorn process,
    Celery, tests) there is no such parent, and nothing changes.
    """
    parent = multiprocessing.parent_process()
    if parent is None or not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM) != 0:
        return
    if os.getppid() != parent.pid:  # it died before the request
        os.kill(os.getpid(), signal.SIGTERM)


stop_with_supervisor()

# Set Django up before anything imports models (consumers, auth middleware).
django.setup(set_prefix=False)

from config.daphne_http import daphne_http_adjust  # noqa: E402
from config.handlers import OneHopASGIHandler  # noqa: E402

# Under daphne: a 429's status line says "Too Many Requests", and a form body
# Twisted cannot parse reaches Django instead of a bare 400
# (config/daphne_http.py).
daphne_http_adjust()

# HTTP: Django's handler, the middleware chain and views in one thread hop
# per request (config/handlers.py).
django_asgi_app = OneHopASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.websocket import TokenAuthMiddleware, browser_origin_validator  # noqa: E402
from games import realtime, scheduler  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402


class LoopRecorder:
    """Tell ``games.realtime`` which loop this server runs on."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        realtime.loop_register(asyncio.get_running_loop())
        return await self.inner(scope, receive, send)


application = LoopRecorder(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": browser_origin_validator(
                AuthMiddlewareStack(
                    TokenAuthMiddleware(URLRouter(websocket_urlpatterns))
                )
            ),
        }
    )
)

# The embedded default has no Celery beat: its scheduler thread runs beat's
# schedule (the turn, statistics and tournaments sweeps).
scheduler.beat_repeat()
