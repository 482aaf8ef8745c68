"""One page shape for every paginated list of the API, and its schema.

Lists answer ``{"count", "next", "previous", "results"}``, 20 items a page by
default and ``page_size`` up to 100. DRF's ``PageNumberPagination`` silently
uses the default size for ``?page_size=abc`` or ``0`` and the maximum for one
past it, so the OpenAPI schema (an integer from 1 to the maximum) and the
server would disagree: ``Pagination`` answers 400 for a size that is not a
whole number from 1 to ``max_page_size`` (none, or an empty one: the
default), as the tables' list always did. A ``page`` that is not a whole
number of at least 1 is a 400 too (DRF says 404 "Invalid page."); a page past
the last one stays a 404. ``page_serializer``
names the page shape in the schema for a given item serializer, and
``page_parameters`` its query parameters for a view that paginates by hand,
so the schema says what the API really sends (``tests/config/test_schema.py``).
Every paginated list uses them.
"""

from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class CheckedPageNumberPagination(PageNumberPagination):
    """``PageNumberPagination`` with a 400 for a page or a page size that is
    no integer, for a page below 1 (DRF answers both pages 404, as if the
    page were past the last one) and for a page size outside 1 to
    ``max_page_size`` (DRF quietly uses another)."""

    last_page_strings = ()  # "?page=last" is not in the schema: a number

    def get_page_number(self, request: Any, paginator: Any) -> int:
        name = self.page_query_param
        raw = request.query_params.get(name, "")
        if raw == "":
            return 1
        try:
            number = int(raw)
        except ValueError as exc:
            raise ValidationError(
                {name: ["A valid integer is required."]}, code="invalid"
            ) from exc
        if number < 1:
            raise ValidationError(
                {name: ["Ensure this value is greater than or equal to 1."]},
                code="invalid",
            )
        return number

    def get_page_size(self, request: Any) -> int | None:
        name = self.page_size_query_param
        raw = request.query_params.get(name) if name else None
        if raw is not None and raw != "":
            try:
                size = int(raw)
            except ValueError as exc:
                raise ValidationError(
                    {name: ["A valid integer is required."]}, code="invalid"
                ) from exc
            if size < 1:
                raise ValidationError(
                    {name: ["Ensure this value is greater than or equal to 1."]},
                    code="invalid",
                )
            if self.max_page_size is not None and size > self.max_page_size:
                raise ValidationError(
                    {
                        name: [
                            "Ensure this value is less than or equal to "
                            f"{self.max_page_size}."
                        ]
                    },
                    code="invalid",
                )
        return super().get_page_size(request)


class Pagination(CheckedPageNumberPagination):
    """20 items a page by default; ``page_size`` up to 100."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


def page_parameters(pagination: type[PageNumberPagination]) -> list[OpenApiParameter]:
    """The query parameters of a list paginated by ``pagination``, for its
    schema (a view that paginates by hand has to name them itself)."""
    return [
        OpenApiParameter(
            "page",
            {"type": "integer", "minimum": 1},
            description="Page number, from 1.",
        ),
        OpenApiParameter(
            "page_size",
            {"type": "integer", "minimum": 1, "maximum": pagination.max_page_size},
            description=f"Entries per page (default {pagination.page_size}, "
            f"up to {pagination.max_page_size}).",
        ),
    ]


def page_serializer(
    item: type[serializers.Serializer], *, name: str
) -> type[serializers.Serializer]:
    """A serializer class documenting one page of ``item``, as ``name``."""
    meta = type("Meta", (), {"ref_name": name})
    fields: dict[str, Any] = {
        "Meta": meta,
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": item(many=True),
    }
    return type(f"{name}Serializer", (serializers.Serializer,), fields)
