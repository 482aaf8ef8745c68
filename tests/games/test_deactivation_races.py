"""A person deactivated (or removed) in the admin while a move of theirs is
in flight, on the real PostgreSQL: each side runs in a thread (and
connection) of its own (``tests.races``).

The move waits for its table (another transaction holds the row, a move in
progress) while staff save the person's page with *Active* unticked.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from games.models import GameEvent, Seat, Table
from games.services import table_seats_to_act_to_bots
from games.services.locking import table_lock
from tests.accounts.factories import UserFactory, token_for
from tests.games.tables import two_people_to_move
from tests.races import holding, in_background, wait_for_lock_waiters

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def _staff() -> Client:
    staff = Client()
    staff.force_login(UserFactory(is_staff=True, is_superuser=True))
    return staff


def _deactivator(user: User, table: Table) -> Any:
    """Untick *Active* on ``user``'s admin page and save; the table's seq
    read as soon as the save has returned."""
    staff = _staff()
    page = staff.get(f"/admin/accounts/user/{user.pk}/change/")
    form = page.context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if name in form.fields and value is not None and name != "password"
    }
    data.update(
        groups=[],
        user_permissions=[],
        date_joined_0=user.date_joined.strftime("%Y-%m-%d"),
        date_joined_1=user.date_joined.strftime("%H:%M:%S"),
    )
    for name in ("date_joined", "last_login", "is_active"):
        data.pop(name, None)  # an unticked box is not sent

    def deactivate() -> int:
        answer = staff.post(f"/admin/accounts/user/{user.pk}/change/", data)
        assert answer.status_code == 302, answer.content.decode()[:2000]
        assert not User.objects.get(pk=user.pk).is_active
        return Table.objects.get(pk=table.pk).seq

    return deactivate


def test_no_token_move_lands_after_its_person_was_deactivated() -> None:
    """A program's move (API token) waits for its table; staff deactivate the
    person meanwhile. The deactivation waits for the move, which got in line
    first, so the move lands before the save returns, never after; the next
    move is refused."""
    table, mover, move = two_people_to_move()
    key = token_for(mover)
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    url = f"/api/tables/{table.pk}/actions/"
    deactivate = _deactivator(mover, table)

    with holding(lambda: table_lock(table.pk)):
        moving = in_background(lambda: program.post(url, move, format="json"))
        wait_for_lock_waiters(1)  # the move waits for the table
        deactivating = in_background(deactivate)
        # The deactivation waits for the move (the token's row it holds).
        wait_for_lock_waiters(2, unless=deactivating.done)
    seq_when_deactivated = deactivating.wait().get()
    answer = moving.wait().get()

    assert answer.status_code == 200, answer.content
    assert Table.objects.get(pk=table.pk).seq == seq_when_deactivated == table.seq + 1
    later = program.get(f"/api/tables/{table.pk}/")
    assert later.status_code == 401


def test_a_seat_handed_over_behind_a_deactivated_persons_move_is_the_next_to_act() -> (
    None
):
    """Staff deactivate the person to act and hand "the seats to act" to bots
    while the person's move is in flight: all three queue for the table,
    the move first. The move lands; the deactivation returns after it; the
    hand-over finds the other seat to act and gives that one to a bot. The
    deactivated person keeps their seat (not to act now), nothing of theirs
    lands after the hand-over, and no bot plays for them."""
    table, mover, move = two_people_to_move()
    seat = Seat.objects.get(table=table, user=mover).index
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {token_for(mover)}")
    url = f"/api/tables/{table.pk}/actions/"
    deactivate = _deactivator(mover, table)
    staff = _staff()

    def hand_over() -> list[str]:
        answer = staff.post(
            "/admin/games/table/",
            {"action": "seats_to_act_to_bots", "_selected_action": [table.pk]},
            follow=True,
        )
        return [str(m) for m in answer.context["messages"]]

    with holding(lambda: table_lock(table.pk)):
        moving = in_background(lambda: program.post(url, move, format="json"))
        wait_for_lock_waiters(1)  # the move waits for the table
        deactivating = in_background(deactivate)
        wait_for_lock_waiters(2, unless=deactivating.done)  # for the move
        handing = in_background(hand_over)
        wait_for_lock_waiters(3, unless=handing.done)  # for the table
    assert moving.wait().get().status_code == 200
    assert deactivating.wait().get() >= table.seq + 1
    (shown,) = handing.wait().get()

    assert f"seat {1 - seat + 1} is played by a basic bot" in shown
    kept = Seat.objects.get(table=table, index=seat)
    assert (kept.user_id, kept.bot_level) == (mover.pk, None)
    events = GameEvent.objects.filter(table=table, seq__gt=table.seq)
    assert [e.actor_id for e in events.filter(seat=seat)] == [mover.pk]


def test_a_move_behind_the_hand_over_of_its_seat_is_refused() -> None:
    """Staff hand the deactivated person's seat to a bot (it is their turn)
    while their move is in flight behind the hand-over: the move is judged
    under the table's lock after it, finds the seat a bot's and is refused
    (403 ``not_seated``) with nothing written; the bot plays the turn, once."""
    table, mover, move = two_people_to_move()
    seat = Seat.objects.get(table=table, user=mover).index
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {token_for(mover)}")
    url = f"/api/tables/{table.pk}/actions/"
    deactivate = _deactivator(mover, table)

    with holding(
        lambda: table_lock(table.pk),
        then=lambda: table_seats_to_act_to_bots(table_id=table.pk),
    ) as handing:
        moving = in_background(lambda: program.post(url, move, format="json"))
        wait_for_lock_waiters(1)  # the move waits for the hand-over
        deactivating = in_background(deactivate)
        wait_for_lock_waiters(2, unless=deactivating.done)  # for the move
    assert handing.outcome.ok, handing.outcome.error
    answer = moving.wait().get()
    deactivating.wait().get()

    assert answer.status_code == 403, answer.content
    assert answer.json()["code"] == "not_seated"
    taken = Seat.objects.get(table=table, index=seat)
    assert (taken.bot_level, taken.replaced_user_id) == ("basic", mover.pk)
    events = GameEvent.objects.filter(table=table, seq__gt=table.seq)
    assert not events.filter(actor=mover).exists()
    # The bot's turn (run on the hand-over's commit) played the seat's move.
    assert events.filter(seat=seat).exists()


def test_a_deactivated_person_cannot_move() -> None:
    """After the deactivation, the person's program and browser are refused
    and nothing is written."""
    table, mover, move = two_people_to_move()
    key = token_for(mover)
    browser = Client()
    browser.force_login(mover)
    _deactivator(mover, table)()
    url = f"/api/tables/{table.pk}/actions/"

    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert program.post(url, move, format="json").status_code == 401
    answer = browser.post(url, move, content_type="application/json")
    assert answer.status_code in (401, 403)
    assert Table.objects.get(pk=table.pk).seq == table.seq


def test_a_seated_person_cannot_be_removed() -> None:
    """Deleting a person in the admin is refused while they hold a seat (or
    made a move): seats and events protect their person, so no table is left
    with a seat or a move of nobody. Staff deactivate them instead."""
    table, mover, move = two_people_to_move()
    staff = _staff()

    answer = staff.post(f"/admin/accounts/user/{mover.pk}/delete/", {"post": "yes"})

    assert answer.status_code == 200  # the page that lists what protects them
    assert "Cannot delete" in answer.content.decode()
    assert User.objects.filter(pk=mover.pk).exists()
    assert Seat.objects.filter(table=table, user=mover).exists()
