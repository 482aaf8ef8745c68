"""The games admin: events read-only and redacted in play; tables kept."""

from typing import Any

import pytest
from django.test import Client

from games.models import GameEvent, Seat, Table
from tests.accounts.factories import UserFactory
from tests.games.factories import TableFactory
from tests.games.tables import SEED, play_to_end, seat_users, table_started

pytestmark = pytest.mark.django_db


def test_events_cannot_be_added_changed_or_deleted(admin_client: Client) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    event = GameEvent.objects.get(table=table, seq=1)

    listing = admin_client.get("/admin/games/gameevent/")
    add = admin_client.get("/admin/games/gameevent/add/")
    delete = admin_client.get(f"/admin/games/gameevent/{event.pk}/delete/")
    change = admin_client.post(
        f"/admin/games/gameevent/{event.pk}/change/", {"type": "alkort.x"}
    )

    assert listing.status_code == 200
    assert (add.status_code, delete.status_code, change.status_code) == (403, 403, 403)
    assert GameEvent.objects.get(pk=event.pk).type == "alkort.match_started"


def test_in_play_staff_see_events_as_a_spectator(admin_client: Client) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])
    deal = GameEvent.objects.get(table=table, seq=2)
    hand = deal.payload["hands"][0][0]

    page = admin_client.get(f"/admin/games/gameevent/{deal.pk}/change/")

    assert page.status_code == 200
    text = page.content.decode()
    assert "alkort.cards_dealt" in text
    assert f"&#x27;{hand}&#x27;" not in text and SEED not in text


def test_after_the_end_staff_see_everything(admin_client: Client) -> None:
    table = play_to_end(
        table_started(seating=[UserFactory(), UserFactory()], options={"target": 1})
    )
    start = GameEvent.objects.get(table=table, seq=1)

    page = admin_client.get(f"/admin/games/gameevent/{start.pk}/change/")

    assert SEED in page.content.decode()


def test_a_table_with_events_offers_no_delete(admin_client: Client) -> None:
    played = table_started(seating=[UserFactory(), UserFactory()])
    lobby = TableFactory()

    refused = admin_client.get(f"/admin/games/table/{played.pk}/delete/")
    allowed = admin_client.get(f"/admin/games/table/{lobby.pk}/delete/")
    page = admin_client.get(f"/admin/games/table/{played.pk}/change/")

    assert (refused.status_code, allowed.status_code, page.status_code) == (
        403,
        200,
        200,
    )
    assert SEED not in page.content.decode()  # no seed, no cached state


def test_the_seed_shows_on_the_table_page_only_after_the_end(
    admin_client: Client,
) -> None:
    playing = table_started(seating=[UserFactory(), UserFactory()])
    finished = play_to_end(
        table_started(seating=[UserFactory(), UserFactory()], options={"target": 1})
    )

    during = admin_client.get(f"/admin/games/table/{playing.pk}/change/")
    after = admin_client.get(f"/admin/games/table/{finished.pk}/change/")

    assert "(hidden until the match ends)" in during.content.decode()
    assert SEED not in during.content.decode()
    assert SEED in after.content.decode()


def test_a_seat_to_act_is_handed_to_a_bot_so_the_match_goes_on(
    admin_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    """A person who walked away from a table without a turn timer: the
    organiser hands their seat to a basic bot, which plays it to the end."""
    table = table_started(seating=[UserFactory(), UserFactory()], options={"target": 1})
    gone = seat_users(table)[1]  # seat 1 acts first
    lobby = TableFactory()

    with django_capture_on_commit_callbacks(execute=True):  # the bot's turn
        response = admin_client.post(
            "/admin/games/table/",
            {
                "action": "seats_to_act_to_bots",
                "_selected_action": [table.pk, lobby.pk],
            },
            follow=True,
        )

    shown = [str(m) for m in response.context["messages"]]
    assert (
        f"Table {table.pk}: {gone.username}'s seat 2 is played by a basic bot "
        "from now on." in shown
    )
    assert f"Table {lobby.pk} is not in play: nothing to hand over." in shown
    seat = Seat.objects.get(table=table, index=1)
    assert (seat.bot_level, seat.replaced_user_id) == ("basic", gone.pk)
    assert Table.objects.get(pk=table.pk).seq > table.seq  # the bot has moved


def test_a_tables_rated_flag_cannot_be_changed(admin_client: Client) -> None:
    """Whether a table is rated is chosen when it is created (docs/stats.md):
    flipping it afterwards would leave the counted statistics and ratings
    disagreeing with the table (and with what a rebuild computes)."""
    table = play_to_end(
        table_started(seating=[UserFactory(), UserFactory()], options={"target": 1})
    )
    assert table.rated
    url = f"/admin/games/table/{table.pk}/change/"
    page = admin_client.get(url)
    assert 'name="rated"' not in page.content.decode()

    admin_client.post(
        url,
        {
            "seats-TOTAL_FORMS": 2,
            "seats-INITIAL_FORMS": 2,
            "seats-0-id": table.seats.get(index=0).pk,
            "seats-1-id": table.seats.get(index=1).pk,
        },
    )

    table.refresh_from_db()
    assert table.rated
