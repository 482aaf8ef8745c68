"""The statistics admin: read-only pages and the "recount this table" action."""

from __future__ import annotations

import pytest

from games import event_store
from stats.models import CountedTable, GameStat, PlayerGameStat, Rating
from stats.services import table_record

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
