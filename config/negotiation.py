"""DRF's content negotiation, with the plain case answered without parsing.

Nearly every API request accepts anything (no ``Accept`` header, or
``*/*``) or JSON exactly, and every view renders JSON first: DRF parses the
header into media types and ranks them on every request all the same (about
45 µs of CPU a request; 3 µs here: docs/performance.md). ``Negotiation``
answers those requests with what DRF's negotiation would choose, and hands
every other one to it unchanged (``tests/config/test_negotiation.py`` holds
the two to the same answers).
"""

from __future__ import annotations

from typing import Any

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
        return super().select_renderer(request, renderers, format_suffix)  # type: ignore[no-any-return]
