"""Three habits of Twisted's HTTP server that daphne inherits, set right.

daphne serves HTTP with a subclass of Twisted's ``twisted.web.http.Request``,
which does two things before Django sees a request that an ASGI server
should leave to the application:

* **The reason phrase.** ASGI gives a server only the status number; daphne
  takes the phrase from Twisted's ``RESPONSES``, which lacks some statuses
  the service answers, 429 (the API's throttle) first of all: a throttled
  client read ``HTTP/1.1 429 Unknown Status``. Every status Twisted does not
  know gets the standard library's phrase (``http.HTTPStatus``); Twisted's
  own stand. uvicorn already uses the standard library's.
* **Form bodies.** Twisted parses every ``POST`` form body
  (``multipart/form-data``, ``application/x-www-form-urlencoded``) into
  ``request.args``, which daphne never reads: it passes the raw body on. A
  multipart body Twisted cannot parse (no boundary, a broken part) was
  answered by Twisted itself with a bare ``400 Bad Request``, no body, and
  the connection dropped, so the client never got the API's
  ``{"code", "message"}``. With the parsing off (the request's
  ``parsePOSTFormSubmission=False``, which Twisted offers since the parsing
  "can use large amounts of memory for large uploads"), Django and DRF judge
  every body, as under uvicorn, and no body is parsed twice.

* **Over-long requests.** Twisted reads a request's head line by line, each
  line at most 16 KiB and the whole head at most 16 KiB: a longer request
  line (a long URL) had the connection dropped without any answer, a longer
  head got a bare ``400 Bad Request`` with no body. Each connection is now
  read by a channel with Cardroom's limits (``config/request_head.py``, the
  same as under uvicorn): a URL longer than ``MAX_URL_BYTES`` answers ``414
  URI Too Long``, a head longer than ``MAX_HEAD_BYTES`` (or a header line
  longer than the URL's limit) ``431 Request Header Fields Too Large``, both
  with the API's error body, and the connection is closed.

``daphne_http_adjust`` does all three when this process serves with daphne
(``daphne.server`` imports Twisted and daphne's request class before it
loads the application); anywhere else it does nothing.
"""

import logging
import sys
from http import HTTPStatus
from typing import Any

from config.request_head import (
    MAX_HEAD_BYTES,
    MAX_URL_BYTES,
    headers_too_large,
    uri_too_long,
)

logger = logging.getLogger("cardroom.request_head")

# Room on a request line around its URL: the method, two spaces, "HTTP/1.1".
_REQUEST_LINE_ROOM = 64


def daphne_http_adjust() -> None:
    """Complete Twisted's reason phrases, stop its form parsing and answer
    over-long requests, for daphne's connections; nothing when this process
    does not serve with daphne."""
    twisted_http = sys.modules.get("twisted.web.http")
    if twisted_http is not None:
        for status in HTTPStatus:
            twisted_http.RESPONSES.setdefault(
                status.value, status.phrase.encode("ascii")
            )
    daphne_http: Any = sys.modules.get("daphne.http_protocol")
    if daphne_http is not None and not getattr(
        daphne_http.WebRequest, "forms_left_to_django", False
    ):
        # daphne's factory makes each request from this module global.
        daphne_http.WebRequest = _forms_left_to_django(daphne_http.WebRequest)
    if (
        twisted_http is not None
        and daphne_http is not None
        and not getattr(daphne_http.HTTPFactory, "limits_answered", False)
    ):
        # Twisted's factory makes each connection's channel by calling its
        # ``protocol``; daphne's factory inherits it.
        daphne_http.HTTPFactory.protocol = _channel_factory(twisted_http)
        daphne_http.HTTPFactory.limits_answered = True


def _forms_left_to_django(web_request: Any) -> Any:
    class WebRequest(web_request):  # type: ignore[misc, valid-type]
        """daphne's request, leaving form bodies to Django."""

        forms_left_to_django = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["parsePOSTFormSubmission"] = False
            super().__init__(*args, **kwargs)

    return WebRequest


def _channel_factory(twisted_http: Any) -> Any:
    """A ``protocol`` for Twisted's HTTP factory whose channels answer
    over-long requests (414, 431) instead of dropping them."""

    class HTTPChannel(twisted_http.HTTPChannel):  # type: ignore[misc, name-defined]
        """Twisted's channel with Cardroom's limits on a request's head."""

        # The longest line read: a request line with the longest URL.
        MAX_LENGTH = MAX_URL_BYTES + _REQUEST_LINE_ROOM
        totalHeadersSize = MAX_HEAD_BYTES
        refused = False

        def _in_request_line(self) -> bool:
            # Twisted counts the head's bytes from the request line on and
            # starts again at 0 for each request on the connection.
            return bool(self._receivedHeaderSize == 0)

        def _refuse(self, answer: bytes, status: int) -> None:
            peer = self.transport.getPeer()
            logger.warning(
                "Refused %s from %s:%s (%s).",
                f"a URL longer than {MAX_URL_BYTES} bytes"
                if status == 414
                else f"a request head larger than {MAX_HEAD_BYTES} bytes",
                getattr(peer, "host", "?"),
                getattr(peer, "port", "?"),
                status,
            )
            self.transport.write(answer)
            # Read nothing more of this request; close once the answer is out.
            self.refused = True
            self.loseConnection()

        def dataReceived(self, data: bytes) -> None:
            if not self.refused:
                super().dataReceived(data)

        def lineLengthExceeded(self, line: bytes) -> None:
            if self._in_request_line():
                self._refuse(uri_too_long(), 414)
            else:
                self._refuse(headers_too_large(), 431)

        def lineReceived(self, line: bytes) -> Any:
            if self.refused:
                return None
            if self._in_request_line():
                parts = line.split(b" ")
                if len(parts) == 3 and len(parts[1]) > MAX_URL_BYTES:
                    self._refuse(uri_too_long(), 414)
                    return None
            elif self._receivedHeaderSize + len(line) > self.totalHeadersSize:
                self._refuse(headers_too_large(), 431)
                return None
            return super().lineReceived(line)

    def protocol(factory: Any) -> Any:
        return twisted_http._GenericHTTPChannelProtocol(HTTPChannel())

    return protocol
