"""A player's counted tables, newest first, unrated ones and those they left
included: the statistics count every one of them (``matches``), so the
player's list of tables shows every one, with what became of their seat."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Seat, Table
from stats.selectors import (
    UNCOUNTED_LIMIT,
    player_tables_list,
    player_tables_uncounted,
)
from stats.services import table_record
from stats.simulate import match_play, tables_insert

pytestmark = pytest.mark.django_db


def _left(table_id: int, seat: int, bot) -> None:
    """The person at ``seat`` left the match in play; a basic bot played on."""
    row = Seat.objects.get(table_id=table_id, index=seat)
    row.replaced_user_id = row.user_id
    row.user, row.bot_level = bot, "basic"
    row.save()


def test_unrated_and_left_tables_are_in_the_players_tables(
    api_client, people, bot, finished_table
):
    ada, bob = people(2)
    basic = bot("basic")
    opts = {"target": 1}
    rated = finished_table("alkort", [ada, bob], seed="t-r", options=opts)
    unrated = finished_table(
        "alkort", [bob, ada], seed="t-u", options=opts, rated=False
    )
    left = finished_table("alkort", [ada, bob], seed="t-l", options=opts, rated=False)
    _left(left, 0, basic)
    for table_id in (rated, unrated, left):
        table_record(table_id=table_id)

    response = api_client.get("/api/stats/players/p0/tables/")

    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "p0"
    assert body["count"] == 3
    assert body["computed_through"]["tables"] == 3
    rows = body["results"]
    assert [(r["table"], r["seat"], r["rated"], r["left"]) for r in rows] == [
        (left, 0, False, True),
        (unrated, 1, False, False),
        (rated, 0, True, False),
    ]
    for r in rows:
        assert set(r) == {
            "table", "game", "finished_at", "players", "seat", "place", "score",
            "won", "rated", "left",
        }  # fmt: skip
        assert (r["game"], r["players"]) == ("alkort", 2)
        assert r["won"] is (r["place"] == 1)
    # As many tables as the statistics count.
    figures = api_client.get("/api/stats/players/p0/").json()["games"]["alkort"]
    assert figures["matches"] == 3
    # The bot that played the left seat on is not credited with it.
    bots = api_client.get(f"/api/stats/players/{basic.username}/tables/").json()
    assert bots["count"] == 0
    # Bob sat at all three to the end.
    assert [
        r["left"]
        for r in api_client.get("/api/stats/players/P1/tables/").json()["results"]
    ] == [False] * 3


def test_a_bot_has_a_row_per_seat_and_a_game_filter(
    api_client, people, bot, finished_table
):
    (ada,) = people(1)
    basic = bot("basic")
    alager = finished_table("alager", [ada, basic, basic], seed="t-b")
    alkort = finished_table("alkort", [ada, basic], seed="t-k", options={"target": 1})
    for table_id in (alager, alkort):
        table_record(table_id=table_id)

    body = api_client.get(
        f"/api/stats/players/{basic.username}/tables/", {"game": "alager"}
    ).json()

    assert [(r["table"], r["seat"]) for r in body["results"]] == [
        (alager, 1),
        (alager, 2),
    ]
    assert body["game"] == "alager"
    assert api_client.get("/api/stats/players/p0/tables/").json()["count"] == 2


def test_player_tables_errors(api_client, people):
    people(1)
    unknown = api_client.get("/api/stats/players/nobody/tables/")
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "unknown_player"
    game = api_client.get("/api/stats/players/p0/tables/", {"game": "poker"})
    assert game.status_code == 404
    assert game.json()["code"] == "unknown_game"
    empty = api_client.get("/api/stats/players/p0/tables/").json()
    assert (empty["count"], empty["results"]) == (0, [])


def test_a_page_of_tables_is_read_in_order_from_an_index(people, bot, finished_table):
    """A house bot sits at most tables: its page of tables, newest first, is
    read from an index in that order, not sorted from all its seats."""
    (ada,) = people(1)
    basic = bot("basic")
    table_record(table_id=finished_table("alager", [ada, basic, basic], seed="t-i"))
    rows = player_tables_list(user=basic)[:50]
    sql, params = rows.query.sql_with_params()
    with connection.cursor() as cursor:
        # A few rows here: ask the planner for the plan it takes for many.
        for setting in ("seqscan", "bitmapscan", "sort"):
            cursor.execute(f"SET LOCAL enable_{setting} = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(line for (line,) in cursor.fetchall())

    assert "stats_result_user_order" in plan, plan
    assert "Sort" not in plan, plan


def test_the_players_own_uncounted_tables_are_found_however_busy_the_site(
    api_client, people, bot, finished_table
):
    """The profile looked for a player's uncounted tables among the site's
    latest 100 finished tables: 101 tables of others finishing after theirs
    pushed it out. They are read from the player's own seats now."""
    ada, bob, cy = people(3)
    basic = bot("basic")
    opts = {"target": 1}
    mine = finished_table("alkort", [ada, bob], seed="u-a", options=opts)
    left = finished_table("alager", [basic, ada, basic], seed="u-l")
    _left(left, 1, basic)
    counted = finished_table("alkort", [bob, ada], seed="u-c", options=opts)
    table_record(table_id=counted)
    match = match_play("alkort", 2, "u-o", opts)
    tables_insert([match] * 101, [[bob, cy]] * 101, creator=bob)

    body = api_client.get("/api/stats/players/p0/tables/").json()

    assert [r["table"] for r in body["results"]] == [counted]
    rows = body["uncounted"]
    assert [(r["table"], r["seat"], r["left"]) for r in rows] == [
        (left, 1, True),
        (mine, 0, False),
    ]
    places = {t: Table.objects.get(pk=t).outcome["places"] for t in (mine, left)}
    for r in rows:
        assert set(r) == {
            "table", "game", "finished_at", "players", "seat", "place", "left",
        }  # fmt: skip
        assert r["place"] == places[r["table"]][r["seat"]]
    assert body["computed_through"]["pending"] == 103
    # The game filter applies to them too.
    alkort = api_client.get("/api/stats/players/p0/tables/", {"game": "alkort"})
    assert [r["table"] for r in alkort.json()["uncounted"]] == [mine]
    # The bot that played Ada's seat on is credited with its own seats only.
    bots = api_client.get(f"/api/stats/players/{basic.username}/tables/").json()
    assert [(r["table"], r["seat"]) for r in bots["uncounted"]] == [
        (left, 0),
        (left, 2),
    ]
    # Once counted, a table is in the counted list only.
    table_record(table_id=mine)
    body = api_client.get("/api/stats/players/p0/tables/").json()
    assert [r["table"] for r in body["results"]] == [counted, mine]
    assert [r["table"] for r in body["uncounted"]] == [left]


def test_uncounted_tables_are_at_most_ten(people, bot, finished_table):
    """At most ten tables (the profile lists ten), newest finish first, each
    with every seat the player held."""
    (ada,) = people(1)
    basic = bot("basic")
    match = match_play("alager", 3, "u-m", None)
    ids = tables_insert([match] * 12, [[ada, basic, basic]] * 12, creator=ada)
    rows = player_tables_uncounted(user=basic)
    assert [(r["table"], r["seat"]) for r in rows] == [
        (t, s) for t in ids[::-1][:UNCOUNTED_LIMIT] for s in (1, 2)
    ]

    with CaptureQueriesContext(connection) as queries:
        player_tables_uncounted(user=ada)
    assert "LIMIT 10" in queries[0]["sql"].upper()
