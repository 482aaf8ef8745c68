"""An unfinished table reveals nothing through the statistics."""

from __future__ import annotations

import pytest

from games.models import Table, TableStatus
from stats.selectors import table_list_uncounted
from stats.services import table_record
from stats.tasks import stats_sweep

pytestmark = pytest.mark.django_db

PATHS = [
    "/api/stats/players/p0/",
    "/api/stats/players/p0/ratings/alkort/",
    "/api/stats/players/p0/tables/",
    "/api/stats/leaderboards/alkort/",
    "/api/stats/games/alkort/",
    "/api/stats/head-to-head/?a=p0&b=p1&game=alkort",
]


def test_stats_of_a_player_at_an_unfinished_table_reveal_nothing(
    api_client, people, finished_table, settings
):
    settings.STATS_SWEEP_GRACE_SECONDS = 0
    ada, bob = people(2)
    table_record(
        table_id=finished_table(
            "alkort", [ada, bob], seed="done", options={"target": 1}
        )
    )
    before = {path: api_client.get(path).json() for path in PATHS}

    # The same two at a table in play: every event stored, the match not over.
    playing = finished_table("alkort", [ada, bob], seed="live", options={"target": 2})
    Table.objects.filter(pk=playing).update(
        status=TableStatus.PLAYING, outcome=None, finished_at=None
    )
    assert table_record(table_id=playing) is False
    assert table_list_uncounted() == []
    assert stats_sweep.apply().get() == 0

    after = {path: api_client.get(path).json() for path in PATHS}
    assert after == before
