"""Fixtures for the games tests: people, API clients that run on-commit work."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.response import Response
from rest_framework.test import APIClient

from accounts.models import User
from tests.accounts.factories import UserFactory, token_for


class Player:
    """An API client authenticated with a user's token (or anonymous).

    Every request runs the on-commit callbacks it registers (bot turns,
    notifications), as a real commit would, although the test's transaction
    never commits.
    """

    def __init__(self, user: User | None, capture: Callable[..., Any]) -> None:
        self.user = user
        self.client = APIClient()
        if user is not None:
            self.client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
        self._capture = capture

    def get(self, path: str, **params: Any) -> Response:
        with self._capture(execute=True):
            response: Response = self.client.get(path, params)
        return response

    def post(self, path: str, data: Any = None) -> Response:
        """POST ``data`` as JSON, non-ASCII escaped as most clients send it
        (so a lone surrogate reaches the server as ``\\ud800``)."""
        body = None if data is None else json.dumps(data)
        with self._capture(execute=True):
            response: Response = self.client.post(
                path, body, content_type="application/json"
            )
        return response


@pytest.fixture
def player(
    db: None, django_capture_on_commit_callbacks: Callable[..., Any]
) -> Callable[..., Player]:
    """``player(user=None)``: a Player for ``user`` (a new person by default)."""

    def make(user: User | None = None, *, anonymous: bool = False) -> Player:
        if anonymous:
            return Player(None, django_capture_on_commit_callbacks)
        return Player(user or UserFactory(), django_capture_on_commit_callbacks)

    return make
