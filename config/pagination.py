"""Page-number pagination that refuses a page size that is no number.

DRF's ``PageNumberPagination`` silently uses the default size for
``?page_size=abc``, so the OpenAPI schema (an integer) and the server disagree
and ``tests/config/test_schema.py`` flags it. ``CheckedPageNumberPagination``
answers 400 for a value that is not a whole number and otherwise behaves as
DRF's (no or a non-positive size: the default; over ``max_page_size``: the
maximum); a page past the last one stays a 404. Every paginated list should
use it (or check ``page_size`` in its filter serializer, as the tables list
does).
"""

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class CheckedPageNumberPagination(PageNumberPagination):
    """``PageNumberPagination`` with a 400 for a page size that is no integer."""

    def get_page_size(self, request: Any) -> int | None:
        name = self.page_size_query_param
        raw = request.query_params.get(name) if name else None
        if raw is not None and raw != "":
            try:
                int(raw)
            except ValueError as exc:
                raise ValidationError(
                    {name: ["A valid integer is required."]}, code="invalid"
                ) from exc
        return super().get_page_size(request)
