"""A URLconf with views that fail on purpose, for the error-shape tests.

The project's own URLs stay first, so real endpoints (/healthz, /api/schema/)
and the catch-all answer as they do in production.
"""

from typing import NoReturn

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest
from django.urls import path
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from config.urls import urlpatterns as project_urlpatterns


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


class BrokenView(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request) -> NoReturn:
        raise RuntimeError("secret internals: password=hunter2")


def broken_django_view(request: HttpRequest) -> NoReturn:
    raise RuntimeError("secret internals: password=hunter2")


urlpatterns = [
    path("test-api/echo/", EchoView.as_view()),
    path("test-api/seat/", SeatTakenView.as_view()),
    path("test-api/throttled/", ThrottledView.as_view()),
    path("test-api/private/", PrivateView.as_view()),
    path("test-api/django/<str:kind>/", DjangoErrorsView.as_view()),
    path("test-api/broken/", BrokenView.as_view()),
    path("test-django/broken/", broken_django_view),
    *project_urlpatterns,
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
