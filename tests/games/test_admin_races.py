"""The games admin racing the players, on the real PostgreSQL: each side
runs in a thread (and connection) of its own (``tests.races``)."""

from __future__ import annotations

import pytest
from django.test import Client

import rules
from games import event_store
from games.models import GameEvent, Seat, Table
from games.services import action_submit
from games.services.locking import table_lock
from tests.accounts.factories import UserFactory
from tests.games.tables import seat_users, table_started
from tests.races import holding, in_background, wait_for_lock_waiters

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

ALKORT = rules.get_game("alkort")


def test_handing_the_seat_to_act_to_a_bot_waits_for_a_move_in_progress() -> None:
    """Staff hand "the seats to act" to bots while the person to act is
    making their move: the hand-over waits for the move and goes to the seat
    that is to act after it, never to the person who has just moved."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    people = seat_users(table)
    state = ALKORT.load_state(table.state)
    assert ALKORT.to_act(state) == (1,)
    move = ALKORT.legal_actions(state, 1)[0]
    staff = Client()
    staff.force_login(UserFactory(is_staff=True, is_superuser=True))

    with holding(
        lambda: table_lock(table.pk),
        then=lambda: action_submit(table_id=table.pk, user=people[1], action=move),
    ) as moving:
        handing = in_background(
            lambda: staff.post(
                "/admin/games/table/",
                {"action": "seats_to_act_to_bots", "_selected_action": [table.pk]},
                follow=True,
            )
        )
        wait_for_lock_waiters(1)
    assert moving.outcome.ok, moving.outcome.error
    response = handing.wait().get()

    shown = [str(m) for m in response.context["messages"]]
    assert shown == [
        f"Table {table.pk}: {people[0].username}'s seat 1 is played by a basic "
        "bot from now on."
    ]
    moved = Seat.objects.get(table=table, index=1)
    assert (moved.user_id, moved.bot_level) == (people[1].pk, None)
    handed = Seat.objects.get(table=table, index=0)
    assert (handed.bot_level, handed.replaced_user_id) == ("basic", people[0].pk)
    assert Table.objects.get(pk=table.pk).seq > table.seq + 1  # the bot moved


def test_saving_a_tables_admin_page_during_a_move_leaves_the_move_stored() -> None:
    """Staff press Save on a table's page (nothing on it is editable) while a
    move is being stored: the page must not write the table back as it read
    it, which would put the cached state and seq behind the event log and
    refuse every later move."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    people = seat_users(table)
    state = ALKORT.load_state(table.state)
    move = ALKORT.legal_actions(state, 1)[0]
    staff = Client()
    staff.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = f"/admin/games/table/{table.pk}/change/"
    seats = {
        "seats-TOTAL_FORMS": 2,
        "seats-INITIAL_FORMS": 2,
        "seats-0-id": Seat.objects.get(table=table, index=0).pk,
        "seats-1-id": Seat.objects.get(table=table, index=1).pk,
    }

    with holding(
        lambda: table_lock(table.pk),
        then=lambda: action_submit(table_id=table.pk, user=people[1], action=move),
    ) as moving:
        saving = in_background(lambda: staff.post(url, seats))
        wait_for_lock_waiters(1, unless=saving.done)
    assert moving.outcome.ok, moving.outcome.error
    saving.wait().get()

    stored = Table.objects.get(pk=table.pk)
    assert stored.seq == table.seq + 1
    assert GameEvent.objects.filter(table=table).count() == stored.seq
    assert ALKORT.load_state(stored.state) == ALKORT.replay(
        event_store.load_events(stored)
    )
