"""The tables list and idle tables: ``active_at``, ``idle`` and ``order=active``.

A match everyone walked away from without leaving (no turn clock, so no bot
takes over) stays in play for ever. The list says when each table last
moved on (``active_at``), can leave out or keep only the tables idle for
longer than ``TABLE_IDLE_HOURS`` (``idle``), and can put the latest activity
first (``order=active``), for the lobby's Playing tab (docs/api.md). An open
table whose creator went away stays open for ever too (only they can start
it): its activity is the latest of its opening and its seats taken, and it
is idle as long past it, for the lobby's Open tab.
"""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts.models import User
from games.models import Table, TableStatus
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.games.factories import SeatFactory, TableFactory
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


def test_an_ended_table_is_never_idle(
    player: Callable[..., Player], three_matches: tuple[Table, Table, Table]
) -> None:
    """A match that ended, or a table aborted in the lobby, days ago is not
    idle: idle says a table nobody moves on any more, not an old table."""
    recent, abandoned, newest = three_matches
    ended = table_started(seating=[UserFactory(), UserFactory()])
    Table.objects.filter(pk=ended.pk).update(status=TableStatus.FINISHED)
    aborted = TableFactory(status=TableStatus.ABORTED)
    for table in (ended, aborted):
        _last_move(table, 100)
    anyone = player(anonymous=True)

    listed = anyone.get("/api/tables/").json()["results"]
    not_idle = anyone.get("/api/tables/", idle="false").json()
    unfiltered = anyone.get("/api/tables/", idle="").json()

    assert {t["id"] for t in listed if t["idle"]} == {abandoned.pk}
    assert set(_ids(not_idle)) == {recent.pk, newest.pk, ended.pk, aborted.pk}
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


# --- open tables: opened, and nobody takes a seat -----------------------------


@pytest.fixture
def three_open() -> tuple[Table, Table, Table]:
    """Three open tables, by creation: one opened 2 h ago, one whose creator
    went away 3 days ago, one opened 10 minutes ago."""
    recent, deserted, newest = (table_open(UserFactory()) for _ in range(3))
    _last_move(recent, 2)
    _last_move(deserted, 72)
    _last_move(newest, 1 / 6)
    return recent, deserted, newest


def table_open(creator: User) -> Table:
    """A two-player table ``creator`` opened and sits at, as the API opens it."""
    table = TableFactory(created_by=creator)
    SeatFactory(table=table, index=0, user=creator)
    return table


def test_an_open_table_nobody_took_a_seat_at_is_idle(
    player: Callable[..., Player], three_open: tuple[Table, Table, Table]
) -> None:
    """Only its creator can start an open table: one opened days ago that
    nobody has joined since is as dead as a match nobody moves on."""
    recent, deserted, newest = three_open
    anyone = player(anonymous=True)

    listed = anyone.get("/api/tables/", status="lobby").json()["results"]
    active = anyone.get("/api/tables/", status="lobby", idle="false").json()
    idle = anyone.get("/api/tables/", status="lobby", idle="true").json()

    assert {t["id"]: t["idle"] for t in listed} == {
        recent.pk: False,
        deserted.pk: True,
        newest.pk: False,
    }
    assert _ids(active) == [newest.pk, recent.pk] and active["count"] == 2
    assert _ids(idle) == [deserted.pk] and idle["count"] == 1


def test_a_seat_taken_is_an_open_tables_activity(
    player: Callable[..., Player], three_open: tuple[Table, Table, Table]
) -> None:
    """A person joining, or the creator adding a bot, moves an open table on:
    it comes first in order of activity and is no longer idle."""
    recent, deserted, newest = three_open
    anyone = player(anonymous=True)
    joined = player().post(f"/api/tables/{deserted.pk}/join/")
    assert joined.status_code == 200, joined.json()

    page = anyone.get("/api/tables/", status="lobby", order="active").json()

    assert _ids(page) == [deserted.pk, newest.pk, recent.pk]
    assert not page["results"][0]["idle"]
    assert joined.json()["active_at"] == page["results"][0]["active_at"]

    creator = player(recent.created_by)
    added = creator.post(f"/api/tables/{recent.pk}/bots/", {"level": "basic"})
    assert added.status_code == 200, added.json()
    page = anyone.get("/api/tables/", status="lobby", order="active").json()
    assert _ids(page) == [recent.pk, deserted.pk, newest.pk]


def test_a_leave_is_not_activity(
    player: Callable[..., Player], three_open: tuple[Table, Table, Table]
) -> None:
    """Someone giving up their seat says nothing of whether the creator
    will start the table: a deserted table stays idle."""
    recent, deserted, newest = three_open
    someone = UserFactory()
    SeatFactory(table=deserted, index=1, user=someone)
    _last_move(deserted, 72)

    left = player(someone).post(f"/api/tables/{deserted.pk}/leave/")
    assert left.status_code == 200, left.json()

    assert left.json()["idle"] is True
    idle = player(anonymous=True).get("/api/tables/", status="lobby", idle="true")
    assert _ids(idle.json()) == [deserted.pk]


def test_mine_lists_a_creators_idle_open_table(
    player: Callable[..., Player], three_open: tuple[Table, Table, Table]
) -> None:
    recent, deserted, newest = three_open

    own = player(deserted.created_by).get("/api/tables/", mine="true").json()

    assert _ids(own) == [deserted.pk]
    assert own["results"][0]["idle"] is True
