"""Fixtures for the statistics tests: people, bot accounts, finished tables."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from accounts.models import User
from accounts.services import bot_account_get
from stats.simulate import Match, match_play, tables_insert
from tests.accounts.factories import UserFactory


@pytest.fixture
def people(db: None) -> Callable[[int], list[User]]:
    """``people(n)``: n new people, named p0, p1, … in creation order."""
    made: list[User] = []

    def make(n: int) -> list[User]:
        new = [UserFactory(username=f"p{len(made) + i}") for i in range(n)]
        made.extend(new)
        return new

    return make


@pytest.fixture
def bot(db: None) -> Callable[[str], User]:
    return lambda level: bot_account_get(level=level)


FinishedTable = Callable[..., int]


@pytest.fixture
def finished_table(db: None) -> FinishedTable:
    """``finished_table(game, seating, seed=..., options=..., rated=True)``: the
    id of a finished, uncounted table played by random bots."""

    def make(
        game: str,
        seating: Sequence[User],
        *,
        seed: str = "s",
        options: dict[str, Any] | None = None,
        rated: bool = True,
        match: Match | None = None,
    ) -> int:
        played = match or match_play(game, len(seating), seed, options)
        [table_id] = tables_insert(
            [played], [list(seating)], creator=seating[0], rated=rated
        )
        return table_id

    return make
