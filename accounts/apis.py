"""The accounts API: sign-up, API tokens, the current user, browser sessions.

Thin views: validate the input, call one service, shape the output. Errors
reach clients as ``{"code", "message"}`` through ``config.errors``.
"""

from typing import Any

from django.contrib.auth import login, logout, update_session_auth_hash
from django.middleware.csrf import get_token
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.errors import LoginRefused
from accounts.login_limit import login_failed, login_wait
from accounts.models import User
from accounts.services import (
    password_change,
    token_get_or_create,
    token_revoke,
    user_authenticate,
    user_register,
)
from config.fields import TextField
from config.views import PrivateApi


class AccountsApi(PrivateApi):
    """Base of the accounts views: their answers are never stored by a cache
    (who is logged in, an API token, a visitor's CSRF token)."""


class CredentialsSerializer(serializers.Serializer):
    username = TextField(max_length=150)
    password = TextField(max_length=128, trim_whitespace=False)


class UserOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_bot = serializers.BooleanField()


def _authenticated(request: Request, data: dict[str, Any]) -> User:
    # Too many wrong passwords for this name from this address: 429, as the
    # throttle answers, with the wait (accounts.login_limit).
    wait = login_wait(username=data["username"], request=request)
    if wait is not None:
        raise Throttled(wait=wait)
    return user_authenticate(
        username=data["username"], password=data["password"], request=request
    )


class RegisterApi(AccountsApi):
    """Create an account and return its API token."""

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "RegisterOutput"

        id = serializers.IntegerField()
        username = serializers.CharField()
        token = serializers.CharField()

    @extend_schema(
        request=CredentialsSerializer,
        responses={201: OutputSerializer},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = user_register(**serializer.validated_data)
        token = token_get_or_create(user=user)
        body = {"id": user.id, "username": user.username, "token": token}
        return Response(
            self.OutputSerializer(body).data, status=status.HTTP_201_CREATED
        )


class TokenApi(AccountsApi):
    """Exchange a username and password for the account's API token
    (``POST``), or revoke the token of the account making the request
    (``DELETE``)."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "DELETE":
            return [IsAuthenticated()]
        return [AllowAny()]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TokenOutput"

        token = serializers.CharField()

    @extend_schema(
        request=CredentialsSerializer, responses={200: OutputSerializer}, auth=[]
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = _authenticated(request, serializer.validated_data)
        return Response({"token": token_get_or_create(user=user)})

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        """Revoke the API token: programs using it are refused from now on,
        and sockets opened with it are closed. A new one comes from ``POST``
        with the username and password. Browser sessions stand."""
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeSerializer(serializers.Serializer):
    old_password = TextField(max_length=128, trim_whitespace=False)
    new_password = TextField(max_length=128, trim_whitespace=False)


class PasswordApi(AccountsApi):
    """Change the password of the account making the request.

    The current password is asked for again. Every other browser session
    ends, the API token is revoked (get a new one with ``POST
    /api/accounts/token/``), and the person's open live sockets are closed;
    the browser session making the request stays logged in.
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(request=PasswordChangeSerializer, responses={204: None})
    def post(self, request: Request) -> Response:
        serializer = PasswordChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        # Wrong current passwords count as wrong log-ins (accounts.login_limit):
        # a session or token left behind is no way to find the password out.
        name = request.user.username
        wait = login_wait(username=name, request=request)
        if wait is not None:
            raise Throttled(wait=wait)
        try:
            user = password_change(user=request.user, **serializer.validated_data)
        except LoginRefused:
            login_failed(username=name, request=request)
            raise
        if request._request.user.is_authenticated:  # a browser session
            update_session_auth_hash(request._request, user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(AccountsApi):
    """Who the request is authenticated as."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: UserOutputSerializer})
    def get(self, request: Request) -> Response:
        return Response(UserOutputSerializer(request.user).data)


class LoginApi(AccountsApi):
    """Open a browser session (cookie) and set the CSRF cookie for later writes.

    The login itself needs the CSRF token too (``GET`` this path for the
    cookie, then send it back in ``X-CSRFToken``): without it, a page on
    another site could post a form here and log the visitor into the
    attacker's account ("login CSRF"), so that what they then type lands there.
    """

    permission_classes = [AllowAny]

    class CsrfOutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "CsrfOutput"

        csrf_token = serializers.CharField(
            help_text="Send it back in the X-CSRFToken header of the login POST."
        )

    @extend_schema(responses={200: CsrfOutputSerializer}, auth=[])
    def get(self, request: Request) -> Response:
        """Set the CSRF cookie (and return the token) before logging in."""
        return Response({"csrf_token": get_token(request._request)})

    @extend_schema(
        request=CredentialsSerializer, responses={200: UserOutputSerializer}, auth=[]
    )
    def post(self, request: Request) -> Response:
        # DRF checks CSRF only for requests already logged in; a login is not.
        SessionAuthentication().enforce_csrf(request)
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = _authenticated(request, serializer.validated_data)
        login(request._request, user)
        get_token(request._request)  # rotate and send the CSRF cookie
        return Response(UserOutputSerializer(user).data)


class LogoutApi(AccountsApi):
    """End the browser session."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
