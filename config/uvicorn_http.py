"""uvicorn's httptools protocol, answering ``414`` to an over-long URL.

``scripts/web.sh`` names this class to ``uvicorn --http``. httptools keeps
reading a URL until it is 64 KiB long and then fails to parse it, which
uvicorn answers with ``400 Invalid HTTP request received.``; shorter ones,
however long, reached Django. Here a URL stops being read as soon as it is
longer than ``config.request_head.MAX_URL_BYTES`` (the limit daphne has too),
and the answer is ``414 URI Too Long`` with the API's error body
(``config/request_head.py``). WebSocket handshakes are requests too: the same
holds for them.
"""

import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import (
    HttpToolsProtocol as UvicornHttpToolsProtocol,
)

from config.request_head import MAX_URL_BYTES, uri_too_long

logger = logging.getLogger("cardroom.request_head")


class URLTooLong(Exception):
    """Raised from the parser's URL callback: httptools stops parsing."""


class HttpToolsProtocol(UvicornHttpToolsProtocol):
    """uvicorn's protocol with Cardroom's URL limit."""

    url_too_long = False

    def on_message_begin(self) -> None:
        self.url_too_long = False
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > MAX_URL_BYTES:
            self.url_too_long = True
            # httptools turns this into a parser error, which uvicorn's
            # data_received answers through send_400_response (below).
            raise URLTooLong

    def send_400_response(self, msg: str) -> None:
        if not self.url_too_long:
            super().send_400_response(msg)
            return
        logger.warning(
            "Refused a URL longer than %s bytes from %s (414).",
            MAX_URL_BYTES,
            _client(self.client),
        )
        self.transport.write(uri_too_long())
        self.transport.close()


def _client(client: Any) -> str:
    if not client:
        return "an unknown client"
    host, port = client
    return f"{host}:{port}"
