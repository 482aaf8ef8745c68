"""The statistics API: paths, rating fields, pagination, errors, caching."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Table
from stats.models import PlayerResult, Rating
from stats.services import table_record
from stats.simulate import match_play

pytestmark = pytest.mark.django_db

RATING_KEYS = {"mu", "sigma", "display", "matches", "provisional"}


@pytest.fixture
def counted(people, bot, finished_table):
    """Three counted Alkort tables of ada and bob, one with a basic bot."""
    ada, bob = people(2)
    ids = [
        finished_table("alkort", [ada, bob], seed=f"api-{i}", options={"target": 2})
        for i in range(2)
    ]
    ids.append(
        finished_table(
            "alkort", [ada, bot("basic")], seed="api-b", options={"target": 2}
        )
    )
    for table_id in ids:
        table_record(table_id=table_id)
    return ada, bob, ids


def test_leaderboard_entries_carry_username_and_rating_fields(api_client, counted):
    ada, bob, ids = counted
    response = api_client.get("/api/stats/leaderboards/alkort/")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3
    assert body["computed_through"]["table"] == ids[-1]
    assert body["computed_through"]["tables"] == 3
    assert body["computed_through"]["pending"] == 0
    entries = body["results"]
    assert {e["username"] for e in entries} == {"p0", "p1", "bot-basic"}
    assert [e["rank"] for e in entries] == [1, 2, 3]
    displays = [e["display"] for e in entries]
    assert displays == sorted(displays, reverse=True)
    for e in entries:
        assert set(e) >= RATING_KEYS
        assert e["display"] == pytest.approx(e["mu"] - 3 * e["sigma"])
    rating = Rating.objects.get(user=ada, game="alkort")
    [ada_entry] = [e for e in entries if e["username"] == "p0"]
    assert (ada_entry["mu"], ada_entry["sigma"], ada_entry["matches"]) == (
        rating.mu,
        rating.sigma,
        3,
    )


def test_leaderboard_filters(api_client, counted):
    names = lambda r: sorted(e["username"] for e in r.json()["results"])  # noqa: E731
    assert names(api_client.get("/api/stats/leaderboards/alkort/?min_matches=2")) == [
        "p0",
        "p1",
    ]
    assert names(api_client.get("/api/stats/leaderboards/alkort/?players=2")) == [
        "bot-basic",
        "p0",
        "p1",
    ]
    assert names(api_client.get("/api/stats/leaderboards/alkort/?players=4")) == []
    assert names(api_client.get("/api/stats/leaderboards/alkort/?bots=false")) == [
        "p0",
        "p1",
    ]
    page = api_client.get("/api/stats/leaderboards/alkort/?page_size=2&page=2").json()
    assert [e["rank"] for e in page["results"]] == [3]


def test_equal_ratings_share_a_rank_on_every_page(
    api_client, people, bot, finished_table
):
    """Partners who sat together have the very same rating: one rank, not two
    ranks in the order of their names (``docs/stats.md``, "The API")."""
    p0, p1, p2, p3 = people(4)
    table_record(
        table_id=finished_table(
            "alkort", [p0, p1, p2, p3], seed="ranks", options={"target": 2}
        )
    )
    board = api_client.get("/api/stats/leaderboards/alkort/").json()["results"]
    assert [e["rank"] for e in board] == [1, 1, 3, 3]
    assert board[0]["display"] == board[1]["display"]
    assert board[1]["display"] > board[2]["display"]
    second = api_client.get("/api/stats/leaderboards/alkort/?page_size=1&page=2")
    assert [e["rank"] for e in second.json()["results"]] == [1]
    fourth = api_client.get("/api/stats/leaderboards/alkort/?page_size=1&page=4")
    assert [e["rank"] for e in fourth.json()["results"]] == [3]


@pytest.mark.parametrize(
    ("query", "code", "message"),
    [
        (
            "min_matches=-1",
            "invalid",
            "min_matches: Ensure this value is greater than or equal to 0.",
        ),
        ("min_matches=lots", "invalid", "min_matches: A valid integer is required."),
        (
            "players=3",
            "invalid_players",
            "Alkort is played by 2 players or by 4 in partnerships, not 3.",
        ),
    ],
)
def test_bad_leaderboard_filters_answer_400(api_client, db, query, code, message):
    response = api_client.get(f"/api/stats/leaderboards/alkort/?{query}")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["message"] == message


@pytest.mark.parametrize(
    "path",
    [
        "/api/stats/leaderboards/poker/",
        "/api/stats/games/poker/",
        "/api/stats/players/p0/ratings/poker/",
    ],
)
def test_unknown_game_answers_404(api_client, counted, path):
    response = api_client.get(path)
    assert response.status_code == 404
    assert response.json() == {
        "code": "unknown_game",
        "message": "Unknown game 'poker'; Cardroom offers: alager, alkort, allegra.",
    }


@pytest.mark.parametrize(
    "path", ["/api/stats/players/nobody/", "/api/stats/players/nobody/ratings/alkort/"]
)
def test_unknown_player_answers_404(api_client, db, path):
    response = api_client.get(path)
    assert response.status_code == 404
    assert response.json() == {
        "code": "unknown_player",
        "message": "There is no player named 'nobody'.",
    }


def test_a_player_is_found_whatever_the_case_of_the_name(api_client, counted):
    exact = api_client.get("/api/stats/players/p0/").json()
    history = api_client.get("/api/stats/players/p0/ratings/alkort/").json()

    assert api_client.get("/api/stats/players/P0/").json() == exact
    assert api_client.get("/api/stats/players/P0/ratings/alkort/").json() == history
    assert history["username"] == "p0"


def test_player_has_ratings_per_game_and_statistics(api_client, counted):
    body = api_client.get("/api/stats/players/p0/").json()

    assert set(body["ratings"]) == {"alager", "alkort", "allegra"}
    assert body["ratings"]["alager"] is None
    assert set(body["ratings"]["alkort"]) >= RATING_KEYS
    assert body["ratings"]["alkort"]["matches"] == 3
    assert body["ratings"]["alkort"]["provisional"] is True
    alkort = body["games"]["alkort"]
    assert alkort["matches"] == 3
    assert alkort["tricks_per_deal"] == pytest.approx(
        alkort["tricks"] / alkort["deals"]
    )
    assert body["games"]["alager"]["matches"] == 0
    assert body["games"]["alager"]["average_place"] is None
    assert body["computed_through"]["tables"] == 3


def test_rating_history_oldest_first_one_entry_per_table(api_client, counted):
    ada, bob, ids = counted
    body = api_client.get("/api/stats/players/p1/ratings/alkort/").json()

    assert [e["table"] for e in body["results"]] == ids[:2]
    first, second = body["results"]
    assert first["before"] == {"mu": 25.0, "sigma": pytest.approx(25 / 3)}
    assert second["before"] == first["after"]
    assert set(first["after"]) == {"mu", "sigma"}
    assert first["place"] in (1, 2)
    assert body["rating"]["matches"] == 2


def test_game_statistics(api_client, counted):
    body = api_client.get("/api/stats/games/alkort/").json()

    assert body["matches"] == 3
    assert body["rated_matches"] == 3
    assert body["average_moves"] > 10
    assert body["first_player"]["2"]["matches"] == 3
    assert body["first_player"]["2"]["fair_share"] == 0.5
    assert body["totals"]["deals"] >= 3
    assert body["timeouts"] == 0


def test_head_to_head(api_client, counted):
    body = api_client.get("/api/stats/head-to-head/?a=p0&b=p1&game=alkort").json()

    assert body["count"] == 2
    assert (body["a"], body["b"]) == ("p0", "p1")
    assert (
        api_client.get("/api/stats/head-to-head/?a=P0&b=P1&game=alkort").json() == body
    )
    summary = body["summary"]
    assert summary["matches"] == 2
    assert summary["a_ahead"] + summary["b_ahead"] + summary["level"] == 2
    assert {m["result"] for m in body["results"]} <= {"a_ahead", "b_ahead", "level"}


def test_head_to_head_reads_one_page_not_every_shared_table(
    api_client, counted, monkeypatch
):
    """Two accounts with a long shared history (two bots): the summary is
    counted in the database and only the page's rows are read."""
    ada, bob, ids = counted
    shared = list(PlayerResult.objects.filter(table_id__in=ids[:2]).order_by("pk"))
    for n in range(40):
        table = Table.objects.get(pk=ids[0])
        table.pk = None
        table.save()
        PlayerResult.objects.bulk_create(
            PlayerResult(
                **{f.attname: getattr(r, f.attname) for f in r._meta.concrete_fields}
                | {"id": None, "table_id": table.pk, "finished_at": r.finished_at}
            )
            for r in shared[2 * (n % 2) : 2 * (n % 2) + 2]
        )
    built = []
    from_db = PlayerResult.from_db.__func__
    monkeypatch.setattr(
        PlayerResult,
        "from_db",
        classmethod(lambda cls, *a: built.append(1) or from_db(cls, *a)),
    )

    body = api_client.get(
        "/api/stats/head-to-head/?a=p0&b=p1&game=alkort&page_size=5"
    ).json()

    assert len(built) == 5
    assert body["count"] == body["summary"]["matches"] == 42
    summary = body["summary"]
    assert summary["a_ahead"] + summary["b_ahead"] + summary["level"] == 42
    first = body["results"][0]
    a_row, b_row = (
        PlayerResult.objects.get(table_id=ids[0], user=u) for u in (ada, bob)
    )
    assert first["table"] == ids[0]
    assert first["a"] == {
        "seat": a_row.seat,
        "place": a_row.place,
        "score": a_row.score,
    }
    assert first["b"] == {
        "seat": b_row.seat,
        "place": b_row.place,
        "score": b_row.score,
    }


def test_head_to_head_meets_a_player_at_each_of_their_seats(
    api_client, people, bot, finished_table
):
    """A house bot holding two seats of one table played it as two copies (as
    its counters and its rating update count it): a person meets each copy,
    so the table gives one row per pair of seats, whichever side asks."""
    [ada] = people(1)
    basic = bot("basic")
    table_id = finished_table("alager", [ada, basic, basic], seed="h2h-copies")
    table_record(table_id=table_id)
    rows = {r.seat: r for r in PlayerResult.objects.filter(table_id=table_id)}

    def expected(mine, theirs):
        if mine.place < theirs.place:
            return "a_ahead"
        return "b_ahead" if theirs.place < mine.place else "level"

    for a, b in (("p0", "bot-basic"), ("bot-basic", "p0")):
        body = api_client.get(
            f"/api/stats/head-to-head/?a={a}&b={b}&game=alager"
        ).json()
        pairs = [(0, 1), (0, 2)] if a == "p0" else [(1, 0), (2, 0)]
        assert body["count"] == body["summary"]["matches"] == 2
        assert [(m["a"]["seat"], m["b"]["seat"]) for m in body["results"]] == pairs
        results = [expected(rows[x], rows[y]) for x, y in pairs]
        assert [m["result"] for m in body["results"]] == results
        assert [m["table"] for m in body["results"]] == [table_id, table_id]
        for kind in ("a_ahead", "b_ahead", "level", "partners"):
            assert body["summary"][kind] == results.count(kind)


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("a=p0&game=alkort", 400, "invalid"),
        ("a=p0&b=p0&game=alkort", 400, "same_player"),
        ("a=p0&b=P0&game=alkort", 400, "same_player"),
        ("a=p0&b=nobody&game=alkort", 404, "unknown_player"),
        ("a=p0&b=p1&game=poker", 404, "unknown_game"),
    ],
)
def test_head_to_head_errors(api_client, counted, query, status, code):
    response = api_client.get(f"/api/stats/head-to-head/?{query}")
    assert response.status_code == status
    assert response.json()["code"] == code


def test_etag_and_last_modified(api_client, counted, people, finished_table):
    first = api_client.get("/api/stats/leaderboards/alkort/")
    etag = first.headers["ETag"]
    assert first.headers["Last-Modified"]

    again = api_client.get("/api/stats/leaderboards/alkort/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.headers["ETag"] == etag
    # If-None-Match compares weakly (RFC 9110): a compressing proxy's W/"…"
    # tag, and one tag of a list, still match.
    for sent in (f"W/{etag}", f'"other", W/{etag}'):
        weak = api_client.get(
            "/api/stats/leaderboards/alkort/", HTTP_IF_NONE_MATCH=sent
        )
        assert weak.status_code == 304, sent

    ada = counted[0]
    (cy,) = people(1)
    table_record(
        table_id=finished_table(
            "alkort", [ada, cy], match=match_play("alkort", 2, "new", {"target": 1})
        )
    )
    changed = api_client.get("/api/stats/leaderboards/alkort/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag


def test_the_paths_are_in_the_openapi_schema(api_client, db):
    schema = api_client.get("/api/schema/?format=json").json()
    for path in (
        "/api/stats/leaderboards/{game}/",
        "/api/stats/players/{username}/",
        "/api/stats/players/{username}/ratings/{game}/",
        "/api/stats/players/{username}/tables/",
        "/api/stats/games/{game}/",
        "/api/stats/head-to-head/",
    ):
        assert "get" in schema["paths"][path]


QUERY_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    path=st.sampled_from(
        [
            "/api/stats/leaderboards/alager/",
            "/api/stats/leaderboards/x/",
            "/api/stats/players/p0/",
            "/api/stats/players/p0/ratings/alkort/",
            "/api/stats/players/p0/tables/",
            "/api/stats/games/allegra/",
            "/api/stats/head-to-head/",
        ]
    ),
    params=st.dictionaries(
        st.sampled_from(
            ["min_matches", "players", "page", "page_size", "a", "b", "game"]
        ),
        QUERY_TEXT | st.integers(-(10**12), 10**12).map(str),
        max_size=4,
    ),
)
def test_no_query_string_gets_a_500(api_client, counted, path, params):
    response = api_client.get(path, params)

    assert response.status_code in (200, 400, 404)
    if response.status_code != 200:
        assert set(response.json()) >= {"code", "message"}


def test_a_bots_rating_counts_tables_and_its_statistics_count_seats(
    api_client, people, bot, finished_table
):
    """The one figure that counts a house bot's tables, not its seats: its
    rating's ``matches`` (one update a table, ``docs/stats.md``), which the
    leaderboard shows and its filters count, as the pages label it."""
    (ada,) = people(1)
    basic = bot("basic")
    for i in range(2):
        table_record(
            table_id=finished_table(
                "alager",
                [ada, basic, basic],
                seed=f"seats-{i}",
                options={"penalty_limit": 1},
            )
        )
    figures = api_client.get("/api/stats/players/bot-basic/").json()
    assert figures["ratings"]["alager"]["matches"] == 2
    assert figures["games"]["alager"]["matches"] == 4
    assert figures["games"]["alager"]["rated_matches"] == 4

    def shown(query):
        body = api_client.get(f"/api/stats/leaderboards/alager/?{query}").json()
        return {e["username"]: e["matches"] for e in body["results"]}

    assert shown("")["bot-basic"] == 2
    assert "bot-basic" in shown("min_matches=2")
    assert "bot-basic" not in shown("min_matches=3")
    assert "bot-basic" in shown("players=3&min_matches=2")
    assert "bot-basic" not in shown("players=3&min_matches=3")
