"""The tables list and idle tables: ``active_at``, ``idle`` and ``order=active``.

A match everyone walked away from without leaving (no turn clock, so no bot
takes over) stays in play for ever. The list says when each table last
moved on (``active_at``), can leave out or keep only the tables idle for
longer than ``TABLE_IDLE_HOURS`` (``idle``), and can put the latest activity
first (``order=active``), for the lobby's Playing tab (docs/api.md).
"""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from games.models import Table, TableStatus
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.games.factories import TableFactory
from tests.games.tables import table_started

pytestmark = pytest.mark.django_db


def _last_move(table: Table, hours_ago: float) -> None:
    Table.objects.filter(pk=table.pk).update(
        updated_at=timezone.now() - timedelta(hours=hours_ago)
    )


@pytest.fixture
def three_matches() -> tuple[Table, Table, Table]:
    """Three matches in play, by creation: one moved 2 h ago, one abandoned
    3 days ago, one moved 10 minutes ago."""
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    recent = table_started(seating=[ada, bo])
    abandoned = table_started(seating=[UserFactory(), UserFactory()])
    newest = table_started(seating=[UserFactory(), UserFactory()])
    _last_move(recent, 2)
    _last_move(abandoned, 72)
    _last_move(newest, 1 / 6)
    return recent, abandoned, newest


def _ids(page: dict) -> list[int]:
    return [t["id"] for t in page["results"]]


def test_each_table_says_when_it_last_moved_on(
    player: Callable[..., Player], three_matches: tuple[Table, Table, Table]
) -> None:
    recent, abandoned, newest = three_matches

    listed = player(anonymous=True).get("/api/tables/").json()["results"]

    by_id = {t["id"]: t for t in listed}
    for table in three_matches:
        table.refresh_from_db()
        active_at = by_id[table.pk]["active_at"]
        assert active_at == table.updated_at.isoformat().replace("+00:00", "Z")
    assert {t["id"]: t["idle"] for t in listed} == {
        recent.pk: False,
        abandoned.pk: True,
        newest.pk: False,
    }


def test_only_a_match_in_play_is_ever_idle(
    player: Callable[..., Player], three_matches: tuple[Table, Table, Table]
) -> None:
    """A table left open in the lobby, or a match that ended, days ago is not
    idle: idle says a match nobody plays on, not an old table."""
    recent, abandoned, newest = three_matches
    waiting = TableFactory()
    ended = table_started(seating=[UserFactory(), UserFactory()])
    Table.objects.filter(pk=ended.pk).update(status=TableStatus.FINISHED)
    for table in (waiting, ended):
        _last_move(table, 100)
    anyone = player(anonymous=True)

    listed = anyone.get("/api/tables/").json()["results"]
    not_idle = anyone.get("/api/tables/", idle="false").json()
    unfiltered = anyone.get("/api/tables/", idle="").json()

    assert {t["id"] for t in listed if t["idle"]} == {abandoned.pk}
    assert set(_ids(not_idle)) == {recent.pk, newest.pk, waiting.pk, ended.pk}
    assert unfiltered["count"] == 5


def test_the_default_list_is_unchanged(
    player: Callable[..., Player], three_matches: tuple[Table, Table, Table]
) -> None:
    recent, abandoned, newest = three_matches

    page = player(anonymous=True).get("/api/tables/", status="playing").json()

    # Newest first, idle tables included, as the contract has always said.
    assert _ids(page) == [newest.pk, abandoned.pk, recent.pk]


def test_idle_false_leaves_out_tables_idle_past_the_threshold(
    player: Callable[..., Player], three_matches: tuple[Table, Table, Table]
) -> None:
    recent, abandoned, newest = three_matches
    anyone = player(anonymous=True)

    active = anyone.get("/api/tables/", status="playing", idle="false").json()
    idle = anyone.get("/api/tables/", status="playing", idle="true").json()

    assert _ids(active) == [newest.pk, recent.pk] and active["count"] == 2
    assert _ids(idle) == [abandoned.pk] and idle["count"] == 1
    with override_settings(TABLE_IDLE_HOURS=1):
        assert _ids(anyone.get("/api/tables/", idle="true").json()) == [
            abandoned.pk,
            recent.pk,
        ]


def test_order_active_puts_the_latest_move_first(
    player: Callable[..., Player], three_matches: tuple[Table, Table, Table]
) -> None:
    recent, abandoned, newest = three_matches
    anyone = player(anonymous=True)
    _last_move(newest, 5)  # now the oldest move of the three active ones

    page = anyone.get("/api/tables/", status="playing", order="active").json()
    created = anyone.get("/api/tables/", status="playing", order="created").json()

    assert _ids(page) == [recent.pk, newest.pk, abandoned.pk]
    assert _ids(created) == [newest.pk, abandoned.pk, recent.pk]


def test_mine_keeps_a_players_idle_table_when_asked_for_everything(
    player: Callable[..., Player], three_matches: tuple[Table, Table, Table]
) -> None:
    recent, abandoned, newest = three_matches
    seated = abandoned.seats.get(index=0).user
    _last_move(recent, 100)

    own = player(seated).get("/api/tables/", mine="true", order="active").json()
    ada = player(recent.seats.get(index=0).user)
    ada_active = ada.get("/api/tables/", mine="true", idle="false").json()

    assert _ids(own) == [abandoned.pk]
    assert _ids(ada_active) == []


@pytest.mark.parametrize(
    ("query", "field"),
    [({"idle": "maybe"}, "idle"), ({"order": "oldest"}, "order")],
)
def test_a_bad_idle_or_order_is_a_400_naming_it(
    player: Callable[..., Player], query: dict[str, str], field: str
) -> None:
    response = player(anonymous=True).get("/api/tables/", **query)

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert field in body["message"]


def test_an_empty_idle_or_order_means_the_default(
    player: Callable[..., Player], three_matches: tuple[Table, Table, Table]
) -> None:
    """As an empty ``?status=`` means no filter (docs/api.md)."""
    recent, abandoned, newest = three_matches
    anyone = player(anonymous=True)

    for query in ({"status": ""}, {"idle": ""}, {"order": ""}):
        page = anyone.get("/api/tables/", **query)
        assert page.status_code == 200, (query, page.json())
        assert _ids(page.json()) == [newest.pk, abandoned.pk, recent.pk]
