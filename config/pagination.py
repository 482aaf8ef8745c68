"""One page shape for every paginated list of the API, and its schema.

Lists answer ``{"count", "next", "previous", "results"}``; ``page_serializer``
names that shape in the OpenAPI schema for a given item serializer, so the
schema says what the API really sends (``tests/config/test_schema.py``).
"""

from typing import Any

from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """20 items a page by default; ``page_size`` up to 100."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


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
