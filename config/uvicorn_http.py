"""uvicorn's httptools protocol, with the limits daphne has on a request's head.

``scripts/web.sh`` names this class to ``uvicorn --http``. httptools keeps
reading a URL until it is 64 KiB long and then fails to parse it, which
uvicorn answers with ``400 Invalid HTTP request received.``; shorter ones,
however long, reached Django. Header fields had no limit at all: httptools
buffers a header line until it ends, so one endless line grew the process's
memory for as long as the client kept sending. Here, as under daphne
(``config/request_head.py``):

* a URL stops being read as soon as it is longer than ``MAX_URL_BYTES``, and
  the answer is ``414 URI Too Long`` with the API's error body;
* a head (URL and header lines) longer than ``MAX_HEAD_BYTES``, or one header
  line longer than ``MAX_URL_BYTES``, answers ``431 Request Header Fields Too
  Large``. Header lines are counted as httptools completes them; a line still
  being received is counted by the bytes that arrive while the head is open,
  so an endless one is refused once the head's room is spent, not when (or
  if) it ends.

WebSocket handshakes are requests too: the same holds for them.
"""

import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import (
    HttpToolsProtocol as UvicornHttpToolsProtocol,
)

from config.request_head import (
    MAX_HEAD_BYTES,
    MAX_URL_BYTES,
    headers_too_large,
    uri_too_long,
)

logger = logging.getLogger("cardroom.request_head")

# A header line's bytes beyond its name and value: ": " and CRLF.
_HEADER_LINE_ROOM = 4


class HeadTooLong(Exception):
    """Raised from a parser callback: httptools stops parsing."""


class HttpToolsProtocol(UvicornHttpToolsProtocol):
    """uvicorn's protocol with Cardroom's limits on a request's head."""

    refused_status = 0
    #: A request's head is being read: from the end of the previous request
    #: (or the connection's start) to the end of its header lines.
    head_open = True
    #: The open head's bytes as httptools has handed them over (URL, lines).
    head_bytes = 0
    #: Bytes of whole chunks received while the head stayed open: the part of
    #: the head httptools still holds back (a line not yet ended).
    head_chunk_bytes = 0
    message_began = False

    def data_received(self, data: bytes) -> None:
        if self.refused_status:
            return
        inside_head = self.head_open
        self.message_began = False
        super().data_received(data)
        if self.refused_status or not (
            inside_head and self.head_open and not self.message_began
        ):
            return
        self.head_chunk_bytes += len(data)
        if self.head_chunk_bytes > MAX_HEAD_BYTES:
            self._refuse(431)

    def on_message_begin(self) -> None:
        self.message_began = True
        self.head_open = True
        self.head_bytes = 0
        self.head_chunk_bytes = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self.head_bytes += len(url)
        if len(self.url) > MAX_URL_BYTES:
            self.refused_status = 414
            # httptools turns this into a parser error, which uvicorn's
            # data_received answers through send_400_response (below).
            raise HeadTooLong

    def on_header(self, name: bytes, value: bytes) -> None:
        line = len(name) + len(value) + _HEADER_LINE_ROOM
        self.head_bytes += line
        if line > MAX_URL_BYTES or self.head_bytes > MAX_HEAD_BYTES:
            self.refused_status = 431
            raise HeadTooLong
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.head_open = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.head_open = True
        self.head_bytes = 0
        self.head_chunk_bytes = 0

    def send_400_response(self, msg: str) -> None:
        if not self.refused_status:
            super().send_400_response(msg)
            return
        self._refuse(self.refused_status)

    def _refuse(self, status: int) -> None:
        self.refused_status = status
        logger.warning(
            "Refused %s from %s (%s).",
            f"a URL longer than {MAX_URL_BYTES} bytes"
            if status == 414
            else f"a request head larger than {MAX_HEAD_BYTES} bytes",
            _client(self.client),
            status,
        )
        self.transport.write(uri_too_long() if status == 414 else headers_too_large())
        self.transport.close()


def _client(client: Any) -> str:
    if not client:
        return "an unknown client"
    host, port = client
    return f"{host}:{port}"
