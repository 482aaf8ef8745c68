"""The statistics admin: read-only pages and the "recount this table" action."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from accounts.models import User
from games import event_store
from stats import admin as stats_admin
from stats.models import (
    CountedTable,
    GameStat,
    PlayerGameStat,
    PlayerResult,
    Rating,
    RatingChange,
)
from stats.services import table_record
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "model",
    [
        "countedtable",
        "playerresult",
        "rating",
        "ratingchange",
        "playergamestat",
        "gamestat",
    ],
)
def test_pages_open_and_nothing_can_be_added(
    admin_client, people, finished_table, model
):
    table_record(table_id=finished_table("alkort", people(2), options={"target": 1}))

    assert admin_client.get(f"/admin/stats/{model}/").status_code == 200
    assert admin_client.get(f"/admin/stats/{model}/add/").status_code == 403


def test_recount_this_table_reads_its_events_again(
    admin_client, people, finished_table
):
    ada, bob = people(2)
    table_id = finished_table("alkort", [ada, bob], options={"target": 1})
    table_record(table_id=table_id)
    total = GameStat.objects.get(game="alkort").counters["tricks"]
    counted = CountedTable.objects.get(table_id=table_id)

    # An upcaster that credits every trick to seat 0 (a "fix" to old events).
    def to_seat_0(payload):
        return 2, {**payload, "seat": 0}

    with event_store.upcasters_added({("alkort.trick_won", 1): to_seat_0}):
        response = admin_client.post(
            "/admin/stats/countedtable/",
            {"action": "recount_tables", "_selected_action": [counted.pk]},
            follow=True,
        )

    assert response.status_code == 200
    assert f"Recounted 1 of 1 table: {table_id}" in response.content.decode()
    assert PlayerGameStat.objects.get(user=ada).counters["tricks"] == total
    assert PlayerGameStat.objects.get(user=bob).counters["tricks"] == 0
    assert GameStat.objects.get(game="alkort").counters["matches"] == 1
    assert Rating.objects.get(user=ada).matches == 1
    assert CountedTable.objects.filter(table_id=table_id).count() == 1


@pytest.mark.parametrize("model", ["countedtable", "playerresult", "ratingchange"])
def test_recounting_needs_more_than_the_right_to_view(
    client, people, finished_table, model, monkeypatch
):
    """The statistics pages are read-only, but recounting rewrites a game's
    ratings from the table on: staff who may only view them see no such
    action, and posting it does nothing. The right to change counted tables
    (a superuser has it) allows it."""
    table_id = finished_table("alkort", people(2), options={"target": 1})
    table_record(table_id=table_id)
    viewer = UserFactory(is_staff=True)
    viewer.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="stats", codename__startswith="view_"
        )
    )
    recounted: list[int] = []
    monkeypatch.setattr(
        stats_admin,
        "table_recount",
        lambda table_id: recounted.append(table_id) or True,
    )
    model_class = {
        "countedtable": CountedTable,
        "playerresult": PlayerResult,
        "ratingchange": RatingChange,
    }[model]
    row = model_class.objects.filter(table_id=table_id).first()
    url = f"/admin/stats/{model}/"
    post = {"action": "recount_tables", "_selected_action": [row.pk]}

    client.force_login(viewer)
    assert "recount_tables" not in client.get(url).content.decode()
    client.post(url, post, follow=True)
    assert recounted == []

    viewer.user_permissions.add(
        Permission.objects.get(
            content_type__app_label="stats", codename="change_countedtable"
        )
    )
    client.force_login(User.objects.get(pk=viewer.pk))  # permissions are cached
    assert "recount_tables" in client.get(url).content.decode()
    client.post(url, post, follow=True)
    assert recounted == [table_id]


def test_rating_changes_list_their_seat(admin_client, people, bot, finished_table):
    """A house bot holding several seats has a rating change per seat: the
    list tells them apart by seat."""
    (ada,) = people(1)
    table_record(table_id=finished_table("alager", [ada, bot("basic"), bot("basic")]))

    page = admin_client.get("/admin/stats/ratingchange/").content.decode()

    assert "column-seat" in page
