"""A URLconf with views that fail on purpose, for the error-shape tests.

The project's own URLs stay first, so real endpoints (/healthz, /api/schema/)
and the catch-all answer as they do in production.
"""

from collections.abc import AsyncIterator
from typing import NoReturn

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, JsonResponse, StreamingHttpResponse
from django.urls import path, reverse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import rules
from accounts.errors import LoginRefused
from config.limits import JSONTooDeep, json_loads_bounded
from config.throttling import AnonRateThrottle
from config.urls import urlpatterns as project_urlpatterns
from games import errors as games_errors


class NameSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=5)


class EchoView(APIView):
    """Parses and validates its body: malformed JSON, missing fields."""

    permission_classes = [AllowAny]

    def post(self, request: Request) -> Response:
        serializer = NameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(serializer.validated_data)


class SeatTakenView(APIView):
    permission_classes = [AllowAny]

    def post(self, request: Request) -> NoReturn:
        raise ValidationError("Seat 2 is taken.", code="seat_taken")


class OncePerMinute(AnonRateThrottle):
    scope = "test-once"
    rate = "1/minute"


class ThrottledView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [OncePerMinute]

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


class PrivateView(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


class DjangoErrorsView(APIView):
    """Raises Django's own exceptions inside a DRF view."""

    permission_classes = [AllowAny]

    def get(self, request: Request, kind: str) -> NoReturn:
        if kind == "missing":
            raise Http404("Table 7 has a secret seed 1234")
        if kind == "invalid-field":
            raise DjangoValidationError({"seat": ["Seat 9 does not exist."]})
        if kind == "invalid":
            raise DjangoValidationError("The table is full.", code="table_full")
        raise PermissionDenied("internal detail")


class ApplicationErrorsView(APIView):
    """Raises application errors from a plain APIView: no per-view mapping."""

    permission_classes = [AllowAny]

    def get(self, request: Request, kind: str) -> NoReturn:
        if kind == "conflict":
            raise games_errors.Conflict("table_full", "The table is full.")
        if kind == "forbidden":
            raise games_errors.Forbidden("not_creator", "Only the creator may start.")
        if kind == "not-found":
            raise games_errors.NotFound("not_found", "No table 7.")
        if kind == "bot-login":
            raise LoginRefused("bot_account", "Bots cannot log in.")
        if kind == "bad-login":
            raise LoginRefused("invalid_credentials", "Wrong password.")
        if kind == "illegal":
            raise rules.NotYourTurn("It is seat 1's turn.")
        raise rules.InvalidOptions("target: must be at least 1.")


class BrokenView(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request) -> NoReturn:
        raise RuntimeError("secret internals: password=hunter2")


@csrf_exempt
def plain_json_view(request: HttpRequest) -> JsonResponse:
    """A plain Django view reading a JSON body the bounded way."""
    try:
        data = json_loads_bounded(request.body)
    except JSONTooDeep as exc:
        return JsonResponse(
            {"code": "too_deeply_nested", "message": str(exc)}, status=400
        )
    return JsonResponse({"keys": sorted(data)})


@csrf_exempt
def plain_form_view(request: HttpRequest) -> JsonResponse:
    """A plain Django view reading a form."""
    return JsonResponse({"fields": len(request.POST)})


def broken_django_view(request: HttpRequest) -> NoReturn:
    raise RuntimeError("secret internals: password=hunter2")


async def _endless() -> AsyncIterator[bytes]:
    while True:
        yield b"chunk"


def where(request: HttpRequest) -> JsonResponse:
    """Where the project's own URLs are, as this request sees them."""
    return JsonResponse({"healthz": reverse("healthz")})


def endless(request: HttpRequest) -> StreamingHttpResponse:
    """A response streamed until the client goes away."""
    return StreamingHttpResponse(_endless())


urlpatterns = [
    path("test-api/echo/", EchoView.as_view()),
    path("test-api/endless/", endless),
    path("test-api/where/", where),
    path("test-api/seat/", SeatTakenView.as_view()),
    path("test-api/throttled/", ThrottledView.as_view()),
    path("test-api/private/", PrivateView.as_view()),
    path("test-api/django/<str:kind>/", DjangoErrorsView.as_view()),
    path("test-api/app/<str:kind>/", ApplicationErrorsView.as_view()),
    path("test-api/broken/", BrokenView.as_view()),
    path("test-django/broken/", broken_django_view),
    path("test-django/json/", plain_json_view),
    path("test-django/form/", plain_form_view),
    *project_urlpatterns,
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
