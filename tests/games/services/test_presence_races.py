"""A socket opening while its person's seat changes hands, on the real
PostgreSQL (``tests.races``)."""

from __future__ import annotations

import pytest

import rules
from games.clock import turn_deadline
from games.models import Seat, Table
from games.services import table_leave
from games.services.locking import table_lock
from games.services.presence import connection_open
from tests.accounts.factories import UserFactory
from tests.games.tables import seat_users, table_started
from tests.races import holding, in_background, wait_for_lock_waiters

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

ALKORT = rules.get_game("alkort")


def test_a_socket_of_a_person_who_just_left_brings_back_no_seat() -> None:
    """A person whose seat was marked away opens a socket just as they leave
    the match (a bot takes the seat). The socket saw them seated and away,
    and waits for the table to bring the seat back: under the lock the seat
    is a bot's, so nothing is brought back, and the clock of the person to
    act is not restarted."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    Table.objects.filter(pk=table.pk).update(time_control=60)
    gone = seat_users(table)[0]
    assert ALKORT.to_act(ALKORT.load_state(table.state)) == (1,)
    Seat.objects.filter(table=table, index=0).update(away=True, timeouts=3)
    deadline = turn_deadline(Table.objects.get(pk=table.pk))

    with holding(
        lambda: table_lock(table.pk),
        then=lambda: table_leave(table_id=table.pk, user=gone),
    ) as leaving:
        opening = in_background(
            lambda: connection_open(table_id=table.pk, user=gone, channel_name="c-1")
        )
        wait_for_lock_waiters(1, unless=opening.done)
    assert leaving.outcome.ok, leaving.outcome.error
    opening.wait().get()

    assert turn_deadline(Table.objects.get(pk=table.pk)) == deadline
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.bot_level, seat.replaced_user_id) == ("basic", gone.pk)
