"""What several apps' API views share."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.views import APIView


class PrivateApi(APIView):
    """A view whose answers no cache on the way may keep: they are shaped for
    the requester (a seat's hand and moves, who is logged in, an API token, a
    visitor's CSRF token) at one URL for everyone, so a proxy or a browser's
    disk cache must not hand one to the next person asking."""

    def finalize_response(
        self, request: Request, response: Any, *args: Any, **kwargs: Any
    ) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Cache-Control"] = "private, no-store"
        return response
