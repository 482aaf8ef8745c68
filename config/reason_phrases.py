"""The status line's reason phrase for every status, under daphne too.

ASGI gives a server only the status number; the server picks the reason
phrase. daphne takes it from Twisted's ``twisted.web.http.RESPONSES``, which
lacks some statuses the service answers, 429 (the API's throttle) first of
all: a throttled client read ``HTTP/1.1 429 Unknown Status``, and so did
daphne's access log. ``reason_phrases_complete`` adds the standard library's
phrase (``http.HTTPStatus``) for every status Twisted does not know, keeping
Twisted's own; uvicorn already uses the standard library's.
"""

import sys
from http import HTTPStatus


def reason_phrases_complete() -> None:
    """Teach Twisted every standard reason phrase it lacks (``429 Too Many
    Requests``, ``422``, ``431``, …), if this process serves with it (daphne
    imports Twisted before it loads the application); otherwise nothing."""
    twisted_http = sys.modules.get("twisted.web.http")
    if twisted_http is None:
        return
    for status in HTTPStatus:
        twisted_http.RESPONSES.setdefault(status.value, status.phrase.encode("ascii"))
