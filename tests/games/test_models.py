"""The constraints of tables, seats, events and processed commands."""

import pytest
from django.db import IntegrityError, transaction

from games.models import GameEvent, ProcessedCommand, Seat
from tests.accounts.factories import BotFactory, UserFactory
from tests.games.factories import SeatFactory, TableFactory

pytestmark = pytest.mark.django_db


def test_one_seat_index_per_table() -> None:
    seat = SeatFactory(index=1)

    with pytest.raises(IntegrityError, match="games_seat_unique_index"):
        SeatFactory(table=seat.table, index=1)


def test_a_person_holds_one_seat_per_table() -> None:
    seat = SeatFactory(index=0)

    with pytest.raises(IntegrityError, match="games_seat_one_per_person"):
        SeatFactory(table=seat.table, index=1, user=seat.user)


def test_a_house_bot_may_hold_several_seats() -> None:
    table = TableFactory(players=4)
    bot = BotFactory()

    for index in (1, 2, 3):
        Seat.objects.create(table=table, index=index, user=bot, bot_level="basic")

    assert table.seats.filter(user=bot).count() == 3
    assert all(seat.is_bot for seat in table.seats.all())


def test_one_event_per_table_and_seq() -> None:
    table = TableFactory()
    GameEvent.objects.create(table=table, seq=1, type="alkort.x", payload={})

    with pytest.raises(IntegrityError, match="games_gameevent_unique_seq"):
        GameEvent.objects.create(table=table, seq=1, type="alkort.y", payload={})


def test_one_command_id_per_seat() -> None:
    table = TableFactory()
    fields = {"table": table, "action": {}, "seq": 3, "command_id": "c-1"}
    ProcessedCommand.objects.create(seat=0, **fields)
    ProcessedCommand.objects.create(seat=1, **fields)  # another seat may reuse it

    with (
        transaction.atomic(),
        pytest.raises(IntegrityError, match="games_command_unique_per_seat"),
    ):
        ProcessedCommand.objects.create(seat=0, **fields)


def test_str_names_the_table() -> None:
    table = TableFactory(created_by=UserFactory())

    assert str(table) == f"Table {table.pk} (alkort, lobby)"
