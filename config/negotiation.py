"""DRF's content negotiation, with the plain case answered without parsing.

Nearly every API request accepts anything (no ``Accept`` header, or
``*/*``) or JSON exactly, and every view renders JSON first: DRF parses the
header into media types and ranks them on every request all the same (about
45 µs of CPU a request; 3 µs here: docs/performance.md). ``Negotiation``
answers those requests with what DRF's negotiation would choose, and hands
every other one to it unchanged (``tests/config/test_negotiation.py`` holds
the two to the same answers), with one difference: an ``Accept`` header that
allows none of the view's formats is disregarded (RFC 9110 lets a server do
so) and the view's first format, JSON, is sent, where DRF would refuse with
406. The API speaks only JSON, its errors are JSON whatever ``Accept`` says,
and the contract's error statuses have no 406 (docs/architecture.md §9).
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation

JSON = "application/json"
_PLAIN = frozenset({"*/*", JSON})


class Negotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Any, renderers: Any, format_suffix: str | None = None
    ) -> tuple[Any, str]:
        meta = request.META  # not request.headers, built afresh from all of it
        if (
            format_suffix is None
            and renderers
            and renderers[0].media_type == JSON
            and meta.get("HTTP_ACCEPT", "*/*") in _PLAIN
            and (
                not meta.get("QUERY_STRING")
                or self.settings.URL_FORMAT_OVERRIDE not in request.query_params
            )
        ):
            return renderers[0], JSON
        try:
            return super().select_renderer(request, renderers, format_suffix)  # type: ignore[no-any-return]
        except NotAcceptable:
            return renderers[0], renderers[0].media_type
