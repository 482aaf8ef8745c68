"""factory_boy factories and helpers for tournaments."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import factory
from django.contrib.auth.models import Permission

from accounts.models import User
from games import selectors as games_selectors
from games import services as games_services
from games.models import Table, TableStatus
from tests.accounts.factories import UserFactory
from tournaments.models import Entry, Round, Tournament, TournamentStatus


class TournamentFactory(factory.django.DjangoModelFactory):
    """A draft Swiss tournament; pass ``status`` to skip ahead."""

    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Club night {n}")
    game = "alager"
    table_size = 3
    rounds = 3

    @classmethod
    def _create(cls, model_class: Any, *args: Any, **kwargs: Any) -> Tournament:
        tournament = model_class(*args, **kwargs)
        tournament.full_clean()  # the rules complete and check the options
        tournament.save()
        return tournament


def enter(tournament: Tournament, count: int, **kwargs: Any) -> list[Entry]:
    """``count`` new people entered in ``tournament`` (in registration order)."""
    return [
        Entry.objects.create(tournament=tournament, player=UserFactory(), **kwargs)
        for _ in range(count)
    ]


def organiser_user(**kwargs: Any) -> User:
    """A staff member (not a superuser) with every tournaments permission."""
    user: User = UserFactory(is_staff=True, **kwargs)
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label="tournaments")
    )
    return user


def running(tournament: Tournament) -> Tournament:
    tournament.status = TournamentStatus.REGISTRATION
    tournament.save(update_fields=["status"])
    return tournament


def play_people(
    table: Table,
    rng: random.Random,
    commit: Callable[[], AbstractContextManager[Any]],
    limit: int = 5000,
) -> None:
    """Play every person's seat at ``table`` with random legal moves to the end.

    Bot seats are played by the server: each move runs in ``commit()`` (the
    on-commit callbacks of a real commit), which queues the bot-turn task
    when a bot is next, so this only ever moves people.
    """
    for _ in range(limit):
        table.refresh_from_db()
        if table.status != TableStatus.PLAYING:
            return
        moved = False
        for seat in table.seats.filter(bot_level__isnull=True).select_related("user"):
            detail = games_selectors.table_detail(table=table, user=seat.user)
            if detail["legal_actions"]:
                with commit():
                    games_services.action_submit(
                        table_id=table.pk,
                        user=seat.user,
                        action=rng.choice(detail["legal_actions"]),
                    )
                moved = True
                break
        assert moved, f"table {table.pk}: nobody can move but it is in play"
    raise AssertionError(f"table {table.pk} did not finish in {limit} moves")


def round_tables(rnd: Round) -> list[Table]:
    return [t.table for t in rnd.tables.select_related("table") if t.table is not None]
