"""Fixtures for the tournaments tests."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest

from accounts.models import User
from tests.tournaments.factories import organiser_user


@pytest.fixture
def organiser(db: None) -> User:
    return organiser_user()


@pytest.fixture
def on_commit(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> Callable[[], AbstractContextManager[Any]]:
    """``with on_commit():`` runs what a real commit would (bot turns, tasks)."""

    def run() -> AbstractContextManager[Any]:
        return django_capture_on_commit_callbacks(execute=True)

    return run
