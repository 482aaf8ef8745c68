"""Two habits of Twisted's HTTP request that daphne inherits, set right.

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

``daphne_http_adjust`` does both when this process serves with daphne
(``daphne.server`` imports Twisted and daphne's request class before it
loads the application); anywhere else it does nothing.
"""

import sys
from http import HTTPStatus
from typing import Any


def daphne_http_adjust() -> None:
    """Complete Twisted's reason phrases and stop its form parsing, for
    daphne's requests; nothing when this process does not serve with daphne."""
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


def _forms_left_to_django(web_request: Any) -> Any:
    class WebRequest(web_request):  # type: ignore[misc, valid-type]
        """daphne's request, leaving form bodies to Django."""

        forms_left_to_django = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["parsePOSTFormSubmission"] = False
            super().__init__(*args, **kwargs)

    return WebRequest
