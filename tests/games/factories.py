"""factory_boy factories for tables and seats (lobby state only).

Tables in play are made through the services (``tests.games.tables``), the
same path as production, so their events and cache are real.
"""

import factory

import rules
from games.models import Seat, Table
from tests.accounts.factories import UserFactory


class TableFactory(factory.django.DjangoModelFactory):
    """A lobby table of two-player Alkort with complete default options."""

    class Meta:
        model = Table

    game = "alkort"
    players = 2
    options = factory.LazyAttribute(
        lambda t: rules.get_game(t.game).validate_options({})
    )
    created_by = factory.SubFactory(UserFactory)


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    index = 0
    user = factory.SubFactory(UserFactory)
