"""Every admin action through the test client, as a staff member who is not a
superuser but holds the tournaments permissions; refused actions included,
each checked to change nothing."""

from __future__ import annotations

import csv
import io
import random
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.test import Client

from accounts.models import User
from games.models import Table, TableStatus
from tests.accounts.factories import UserFactory
from tests.tournaments.factories import (
    TournamentFactory,
    enter,
    play_people,
    round_tables,
)
from tournaments import services
from tournaments.models import (
    Entry,
    Round,
    RoundStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.services.rounds import round_plan

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/tournaments/tournament/"


def _add_form(name: str, **fields: Any) -> dict[str, Any]:
    """The admin's add form for a 2-player Alkort Swiss of 3 rounds named
    ``name``, with ``fields`` changed."""
    return {
        "name": name,
        "game": "alkort",
        "options": "{}",
        "table_size": 2,
        "format": "swiss",
        "fill_policy": "bots",
        "bot_level": "basic",
        "rounds": 3,
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        **fields,
    }


@pytest.fixture
def staff(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def act(client: Client, action: str, *tournaments: Tournament, **extra: Any) -> Any:
    data = {"action": action, "_selected_action": [t.pk for t in tournaments], **extra}
    return client.post(CHANGELIST, data, follow=True)


def messages_of(response: Any) -> list[tuple[str, str]]:
    return [(m.level_tag, m.message) for m in get_messages(response.wsgi_request)]


def snapshot(tournament: Tournament) -> tuple[Any, ...]:
    tournament.refresh_from_db()
    return (
        tournament.status,
        tournament.rounds,
        list(tournament.round_set.values_list("number", "status")),
        list(
            Entry.objects.filter(tournament=tournament).values_list(
                "pk", "withdrawn", "number"
            )
        ),
        Table.objects.count(),
    )


def alkort_duel(entries: int = 4, **kwargs: Any) -> Tournament:
    """A quick 2-player Alkort event (one trick's worth of points ends a match)."""
    tournament = TournamentFactory(
        name="Duels", game="alkort", table_size=2, options={"target": 1}, **kwargs
    )
    services.registration_open(tournament_id=tournament.pk)
    enter(tournament, entries)
    tournament.refresh_from_db()
    return tournament


# --- access -----------------------------------------------------------------


def test_staff_without_tournament_permissions_are_refused(client: Client) -> None:
    client.force_login(UserFactory(is_staff=True))
    assert client.get(CHANGELIST).status_code == 403


def test_list_filters_and_search(staff: Client) -> None:
    TournamentFactory(name="Spring open")
    open_one = TournamentFactory(name="Autumn cup", game="allegra", table_size=3)
    services.registration_open(tournament_id=open_one.pk)
    by_status = staff.get(CHANGELIST, {"status__exact": "registration"})
    assert [t.name for t in by_status.context["cl"].result_list] == ["Autumn cup"]
    by_game = staff.get(CHANGELIST, {"game__exact": "alager"})
    assert [t.name for t in by_game.context["cl"].result_list] == ["Spring open"]
    found = staff.get(CHANGELIST, {"q": "spring"})
    assert [t.name for t in found.context["cl"].result_list] == ["Spring open"]


@pytest.mark.parametrize(
    "lookup",
    ["round_set__tables__table__seed", "round_set__tables__table__state__icontains"],
)
def test_no_lookup_reaches_a_tables_secrets(staff: Client, lookup: str) -> None:
    assert staff.get(CHANGELIST, {lookup: "a"}).status_code == 400


# --- open registration ------------------------------------------------------


def test_open_registration(staff: Client) -> None:
    tournament = TournamentFactory(name="Spring open")
    response = act(staff, "open_registration", tournament)
    assert messages_of(response) == [("success", "Spring open: registration is open.")]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTRATION


def test_open_registration_twice_is_refused(staff: Client) -> None:
    tournament = TournamentFactory(name="Spring open")
    services.registration_open(tournament_id=tournament.pk)
    before = snapshot(tournament)
    response = act(staff, "open_registration", tournament)
    assert messages_of(response) == [
        (
            "error",
            "Registration for 'Spring open' cannot be opened: only a "
            "draft can be opened, and it is already open for registration.",
        )
    ]
    assert snapshot(tournament) == before


# --- seat next round --------------------------------------------------------


def test_seat_next_round_shows_the_seating_then_creates_it(staff: Client) -> None:
    tournament = alkort_duel(5, fill_policy="byes")
    page = act(staff, "seat_next_round", tournament)
    assert page.status_code == 200
    assert "admin/tournaments/seat_round_confirm.html" in [
        t.name for t in page.templates
    ]
    assert Round.objects.count() == 0  # nothing created by looking
    content = page.content.decode()
    names = [e.player.username for e in tournament.entries.order_by("pk")]
    for name in names:
        assert name in content
    assert "Byes: " + names[4] in content  # the lowest seed sits out
    fingerprint = page.context["proposal"].fingerprint

    done = act(
        staff, "seat_next_round", tournament, confirm="yes", fingerprint=fingerprint
    )
    assert messages_of(done) == [
        (
            "success",
            "Duels: round 1 is seated at 2 tables, 1 bye. Start the round to open "
            "its tables.",
        )
    ]
    rnd = Round.objects.get(tournament=tournament)
    assert rnd.number == 1 and rnd.status == RoundStatus.SEATED
    assert rnd.tables.count() == 2 and rnd.byes.count() == 1
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert sorted(tournament.entries.values_list("number", flat=True)) == [
        1,
        2,
        3,
        4,
        5,
    ]


def test_seating_a_round_twice_is_refused(staff: Client) -> None:
    tournament = alkort_duel()
    services.round_seat(tournament_id=tournament.pk)
    before = snapshot(tournament)
    for extra in ({}, {"confirm": "yes", "fingerprint": "x"}):
        response = act(staff, "seat_next_round", tournament, **extra)
        assert messages_of(response) == [
            (
                "error",
                "Duels: Round 1 is already seated: start it before seating another.",
            )
        ]
    assert snapshot(tournament) == before


def test_seating_a_changed_plan_is_refused(staff: Client) -> None:
    tournament = alkort_duel()
    fingerprint = round_plan(tournament=tournament).fingerprint
    enter(tournament, 1)  # the seating shown is no longer the seating
    before = snapshot(tournament)
    response = act(
        staff, "seat_next_round", tournament, confirm="yes", fingerprint=fingerprint
    )
    assert messages_of(response) == [
        (
            "error",
            "Duels: The seating changed since it was shown (an entry or a result "
            "changed): review it again.",
        )
    ]
    assert snapshot(tournament) == before


def test_seating_with_tables_unfinished_is_refused(
    staff: Client, organiser: User
) -> None:
    tournament = alkort_duel()
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    ids = sorted(t.pk for t in round_tables(Round.objects.get()))
    before = snapshot(tournament)
    response = act(staff, "seat_next_round", tournament)
    assert messages_of(response) == [
        (
            "error",
            f"Duels: Round 1 still has 2 tables in play ({ids[0]}, {ids[1]}): wait "
            "for them, then finish the round.",
        )
    ]
    assert snapshot(tournament) == before


def test_seating_too_few_players_is_refused(staff: Client) -> None:
    tournament = alkort_duel(1)
    before = snapshot(tournament)
    response = act(staff, "seat_next_round", tournament)
    assert messages_of(response) == [
        ("error", "Duels: Too few players for one table: 1 player, a table seats 2.")
    ]
    assert snapshot(tournament) == before


def test_seating_a_draft_is_refused(staff: Client) -> None:
    tournament = TournamentFactory(name="Spring open")
    before = snapshot(tournament)
    response = act(staff, "seat_next_round", tournament)
    assert messages_of(response) == [
        ("error", "Open registration for 'Spring open' before seating.")
    ]
    assert snapshot(tournament) == before


def test_seating_two_tournaments_at_once_is_refused(staff: Client) -> None:
    first, second = alkort_duel(), alkort_duel()
    response = act(staff, "seat_next_round", first, second)
    assert messages_of(response) == [
        ("error", "Seat one tournament at a time: select exactly one.")
    ]
    assert Round.objects.count() == 0


# --- start and finish -------------------------------------------------------


def test_start_round_opens_and_deals_the_tables(staff: Client, organiser: User) -> None:
    tournament = alkort_duel(3, fill_policy="bots", bot_level="random")
    services.round_seat(tournament_id=tournament.pk)
    response = act(staff, "start_round", tournament)
    assert messages_of(response) == [
        ("success", "Duels: round 1 has started at 2 tables.")
    ]
    rnd = Round.objects.get()
    assert rnd.status == RoundStatus.RUNNING
    tables = round_tables(rnd)
    assert len(tables) == 2
    assert all(t.status != TableStatus.LOBBY for t in tables)
    seated = {
        s.user.username for t in tables for s in t.seats.all() if s.bot_level is None
    }
    assert seated == {e.player.username for e in tournament.entries.all()}
    assert sum(s.bot_level == "random" for t in tables for s in t.seats.all()) == 1
    assert all(t.created_by == organiser and t.options["target"] == 1 for t in tables)


def test_starting_twice_or_with_nothing_seated_is_refused(staff: Client) -> None:
    tournament = alkort_duel()
    before = snapshot(tournament)
    response = act(staff, "start_round", tournament)
    assert messages_of(response) == [
        ("error", "Duels: Nothing to start: no round is seated.")
    ]
    assert snapshot(tournament) == before
    services.round_seat(tournament_id=tournament.pk)
    act(staff, "start_round", tournament)
    before = snapshot(tournament)
    response = act(staff, "start_round", tournament)
    assert messages_of(response) == [
        ("error", "Duels: Nothing to start: round 1 has already started.")
    ]
    assert snapshot(tournament) == before


def test_finish_round_waits_for_every_table(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    tournament = alkort_duel(rounds=1)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    first, second = sorted(round_tables(Round.objects.get()), key=lambda t: t.pk)
    play_people(first, random.Random(1), on_commit)
    before = snapshot(tournament)
    response = act(staff, "finish_round", tournament)
    assert messages_of(response) == [
        (
            "error",
            f"Duels: Round 1 cannot finish: 1 table is still in play ({second.pk}).",
        )
    ]
    assert snapshot(tournament) == before

    play_people(second, random.Random(2), on_commit)
    response = act(staff, "finish_round", tournament)
    assert messages_of(response) == [
        ("success", "Duels: round 1 is finished, and so is the tournament.")
    ]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert tournament.standings.count() == 4
    before = snapshot(tournament)
    response = act(staff, "finish_round", tournament)
    assert messages_of(response) == [
        ("error", "Duels: Nothing to finish: no round is in play.")
    ]
    response = act(staff, "seat_next_round", tournament)
    assert messages_of(response) == [
        ("error", "'Duels' has finished: nothing to seat.")
    ]
    assert snapshot(tournament) == before


def test_finish_round_names_a_deactivated_player_its_table_waits_for(
    staff: Client, organiser: User
) -> None:
    """An untimed table waits for a player whose account was deactivated
    mid-round; the refusal said only "1 table is still in play", so the
    organiser could not tell that withdrawing them is what unblocks it."""
    tournament = alkort_duel(entries=2, rounds=2)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    (table,) = round_tables(Round.objects.get())
    gone = tournament.entries.order_by("number", "id").first()
    assert gone is not None
    User.objects.filter(pk=gone.player_id).update(is_active=False)
    before = snapshot(tournament)
    response = act(staff, "finish_round", tournament)
    assert messages_of(response) == [
        (
            "error",
            f"Duels: Round 1 cannot finish: 1 table is still in play ({table.pk})."
            f" {gone.player}'s account is deactivated (table {table.pk}): "
            "withdraw them and a bot plays their seat to the end.",
        )
    ]
    assert snapshot(tournament) == before


def test_ending_early_discards_a_round_seated_but_not_started(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    """The organiser seated round 2, then decided to stop: a seated round
    cannot be finished, so ending the event drops it (no table was opened)
    rather than make everyone play it; round 1's standings are the record."""
    tournament = alkort_duel(entries=4, rounds=3)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    for index, table in enumerate(round_tables(Round.objects.get())):
        play_people(table, random.Random(index), on_commit)
    services.round_finish(tournament_id=tournament.pk)
    services.round_seat(tournament_id=tournament.pk)
    response = act(staff, "finish_tournament", tournament)
    assert messages_of(response) == [
        (
            "success",
            "Duels: the tournament is finished after 1 of its 3 rounds; round 2, "
            "seated but not started, was discarded.",
        )
    ]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert list(tournament.round_set.values_list("number", flat=True)) == [1]
    assert sum(s.played for s in tournament.standings.all()) == 4


def test_a_tournament_too_few_players_can_go_on_with_can_be_ended(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    """Two of three players withdraw after round 1: round 2 cannot be seated,
    and the organiser ends the tournament rather than leave it running."""
    tournament = alkort_duel(entries=3, rounds=3, fill_policy="byes")
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    response = act(staff, "finish_tournament", tournament)
    assert messages_of(response) == [
        (
            "error",
            "Duels: Round 1 is in play: finish it (Finish round, once its tables "
            "have ended) before ending the tournament.",
        )
    ]
    (table,) = round_tables(Round.objects.get())
    play_people(table, random.Random(4), on_commit)
    services.round_finish(tournament_id=tournament.pk)
    Entry.objects.filter(pk__in=[e.pk for e in tournament.entries.all()[:2]]).update(
        withdrawn=True
    )
    response = act(staff, "seat_next_round", tournament)
    assert messages_of(response)[0][0] == "error"

    response = act(staff, "finish_tournament", tournament)
    assert messages_of(response) == [
        ("success", "Duels: the tournament is finished after 1 of its 3 rounds.")
    ]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert tournament.finished_at is not None
    assert tournament.standings.count() == 3
    before = snapshot(tournament)
    response = act(staff, "finish_tournament", tournament)
    assert messages_of(response) == [
        (
            "error",
            "'Duels' is not running: only a running tournament can be ended early.",
        )
    ]
    assert snapshot(tournament) == before


# --- standings ----------------------------------------------------------------


def finished_duel(
    organiser: User, commit: Callable[[], AbstractContextManager[Any]]
) -> Tournament:
    tournament = alkort_duel(rounds=2)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    for index, table in enumerate(round_tables(Round.objects.get())):
        play_people(table, random.Random(index), commit)
    services.round_finish(tournament_id=tournament.pk)
    return tournament


def test_recompute_standings_is_idempotent(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    tournament = finished_duel(organiser, on_commit)
    rows = list(tournament.standings.values_list("entry", "rank", "points", "buchholz"))
    tournament.standings.all().delete()
    response = act(staff, "recompute_standings", tournament)
    assert messages_of(response) == [
        ("success", "Duels: standings recomputed from 2 finished tables.")
    ]
    act(staff, "recompute_standings", tournament)
    again = list(
        tournament.standings.values_list("entry", "rank", "points", "buchholz")
    )
    assert again == rows
    # Two winners on 1 point, two losers on 0; Buchholz is the opponent's points.
    assert sorted((r[2], r[3]) for r in rows) == [(0, 1), (0, 1), (1, 0), (1, 0)]


def test_export_standings_csv(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    tournament = finished_duel(organiser, on_commit)
    response = staff.post(
        CHANGELIST, {"action": "export_standings", "_selected_action": [tournament.pk]}
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "tournament", "name", "rank", "number", "player", "team", "points",
        "buchholz", "game_score", "played", "wins", "byes", "withdrawn",
    ]  # fmt: skip
    expected = [
        [
            str(tournament.pk),
            "Duels",
            str(s.rank),
            str(s.entry.number),
            s.entry.player.username,
            "",
            str(s.points),
            str(s.buchholz),
            str(s.game_score),
            str(s.played),
            str(s.wins),
            "0",
            "no",
        ]
        for s in tournament.standings.select_related("entry__player").order_by(
            "rank", "entry__number"
        )
    ]
    assert rows[1:] == expected


def finished_pairs(
    organiser: User, commit: Callable[[], AbstractContextManager[Any]]
) -> Tournament:
    """A one-round Alkort team event of three teams: two play, one has a bye."""
    tournament = TournamentFactory(
        name="Pairs", game="alkort", table_size=4, options={"target": 1},
        team_event=True, fill_policy="byes", rounds=1,
    )  # fmt: skip
    services.registration_open(tournament_id=tournament.pk)
    for team in ("Ravens", "Owls", "Crows", "Ravens", "Owls", "Crows"):
        enter(tournament, 1, team=team)
    services.round_seat(tournament_id=tournament.pk)
    with commit():
        services.round_start(tournament_id=tournament.pk, user=organiser)
    for index, table in enumerate(round_tables(Round.objects.get())):
        play_people(table, random.Random(index), commit)
    services.round_finish(tournament_id=tournament.pk)
    return tournament


def team_ranks(rows: list[tuple[str, Decimal, Decimal, Decimal]]) -> list[int]:
    """Standard competition ranking over teams: one more than the teams with
    a line strictly ahead (points, then Buchholz, then game score)."""
    return [
        1 + len({t for t, *key in rows if tuple(key) > tuple(mine)})
        for _, *mine in rows
    ]


def test_a_team_events_standings_and_export_rank_teams(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    """Partners share their team's place and the next team is 2nd: the
    panel's and the export's ranks count teams, as the podium does, and each
    team's players are listed together."""
    tournament = finished_pairs(organiser, on_commit)
    stored = list(
        tournament.standings.order_by("rank", "entry__number").values_list(
            "entry__team", "points", "buchholz", "game_score", "rank"
        )
    )
    ranks = team_ranks([row[:4] for row in stored])
    assert [row[4] for row in stored] == ranks
    # Three teams: whatever the table's result, the third team is 3rd at worst.
    assert max(ranks) <= 3 and ranks[:2] == [1, 1]
    detail = staff.get(f"/api/tournaments/{tournament.pk}/").json()
    assert [s["rank"] for s in detail["standings"]] == ranks
    response = staff.post(
        CHANGELIST, {"action": "export_standings", "_selected_action": [tournament.pk]}
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))[1:]
    assert [int(row[2]) for row in rows] == ranks
    teams = [row[5] for row in rows]
    assert teams[0] == teams[1] and teams[2] == teams[3] and teams[4] == teams[5]
    page = staff.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    panel = page.content.decode().split("<th>rank</th>", 1)[1].split("</table>")[0]
    cells = re.findall(r"<tr><td>(\d+)</td><td>[^<]*</td><td>([^<]*)</td>", panel)
    assert [int(rank) for rank, _ in cells] == ranks
    assert [team for _, team in cells] == teams


# --- entries and the change page -----------------------------------------------


def change_form_data(client: Client, url: str) -> dict[str, Any]:
    """The change form's current values, as the browser would post them back."""
    page = client.get(url)
    assert page.status_code == 200
    data: dict[str, Any] = {}
    form = page.context["adminform"].form
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is not None and not (isinstance(value, bool) and not value):
            data[name] = (
                value
                if not isinstance(value, dict)
                else __import__("json").dumps(value)
            )
    for inline in page.context["inline_admin_formsets"]:
        formset = inline.formset
        for key, value in formset.management_form.initial.items():
            data[f"{formset.prefix}-{key}"] = value
        # The inline's own hidden inputs (which row fields the page shows).
        for key, value in re.findall(
            rf'<input type="hidden" name="({formset.prefix}-[a-z_]+)" value="([^"]*)"',
            page.content.decode(),
        ):
            data.setdefault(key, value)
        for sub in formset.forms:
            for name in sub.fields:
                value = sub.instance.pk if name == "id" else sub.initial.get(name)
                if hasattr(value, "pk"):
                    value = value.pk
                if value is not None and value is not False:
                    data[f"{sub.prefix}-{name}"] = value
    return data


def test_registering_after_the_start_is_refused(staff: Client, organiser: User) -> None:
    tournament = alkort_duel()
    services.round_seat(tournament_id=tournament.pk)
    url = f"{CHANGELIST}{tournament.pk}/change/"
    data = change_form_data(staff, url)
    newcomer = UserFactory()
    data.update(
        {
            "entries-TOTAL_FORMS": 5,
            "entries-4-player": newcomer.pk,
            "entries-4-tournament": tournament.pk,
        }
    )
    before = snapshot(tournament)
    response = staff.post(url, data)
    assert response.status_code == 200  # the form again, with the error
    errors = response.context["inline_admin_formsets"][0].formset.non_form_errors()
    assert errors == ["'Duels' has started: players can no longer be registered."]
    assert snapshot(tournament) == before
    assert not Entry.objects.filter(player=newcomer).exists()


def test_withdrawing_after_the_start_is_allowed(staff: Client) -> None:
    tournament = alkort_duel()
    services.round_seat(tournament_id=tournament.pk)
    url = f"{CHANGELIST}{tournament.pk}/change/"
    data = change_form_data(staff, url)
    data["entries-0-withdrawn"] = "on"
    response = staff.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    assert tournament.entries.filter(withdrawn=True).count() == 1


def test_withdrawing_a_player_in_play_hands_their_seat_to_a_bot(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    """A player who cannot go on (or never turned up) does not stall the round:
    withdrawing them hands their seat in play to a bot, which plays it to the
    end, and the organiser needs no rights on the games' tables for it."""
    tournament = alkort_duel(entries=2, rounds=2)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    (table,) = round_tables(Round.objects.get())
    url = f"{CHANGELIST}{tournament.pk}/change/"
    data = change_form_data(staff, url)
    gone = Entry.objects.get(pk=data["entries-0-id"])
    data["entries-0-withdrawn"] = "on"
    with on_commit():
        response = staff.post(url, data, follow=True)
    assert response.status_code == 200
    message = (
        f"Table {table.pk}: {gone.player} is withdrawn from its match in play; a "
        "basic bot plays their seat to the end (they keep its result)."
    )
    assert ("info", message) in messages_of(response)
    # As shown: the admin capitalises a message's first letter, which turned
    # a username that began it ("ada") into another spelling ("Ada").
    assert gone.player.username[0].islower()
    assert f'<li class="info">{message}</li>' in response.content.decode()
    seat = table.seats.get(replaced_user=gone.player)
    assert seat.bot_level == "basic"
    play_people(table, random.Random(3), on_commit)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    response = act(staff, "finish_round", tournament)
    assert messages_of(response) == [("success", "Duels: round 1 is finished.")]
    standing = tournament.standings.get(entry=gone)
    assert standing.played == 1 and standing.entry.withdrawn


def unwithdraw(staff: Client, tournament: Tournament, entry: Entry) -> Any:
    """Post the change page with *withdrawn* unticked on ``entry``'s row."""
    url = f"{CHANGELIST}{tournament.pk}/change/"
    data = change_form_data(staff, url)
    (index,) = [
        key.split("-")[1]
        for key, value in data.items()
        if key.endswith("-id") and str(value) == str(entry.pk)
    ]
    del data[f"entries-{index}-withdrawn"]
    return staff.post(url, data)


def test_a_player_withdrawn_before_round_one_cannot_join_later(
    staff: Client, organiser: User
) -> None:
    """Unticking *withdrawn* brings back a player who has played; for one who
    withdrew before ever being seated it would be a late entry, which the
    admin refuses once round 1 has started (in a round robin they would sit
    in the standings without ever being paired)."""
    tournament = alkort_duel(entries=3)
    late = tournament.entries.order_by("pk").last()
    assert late is not None
    services.entry_withdraw(tournament_id=tournament.pk, user=late.player)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    response = unwithdraw(staff, tournament, late)
    assert response.status_code == 200  # the form again, with the error
    errors = response.context["inline_admin_formsets"][0].formset.non_form_errors()
    assert errors == [
        f"'Duels' has started: {late.player} withdrew before round 1 and cannot "
        "join now."
    ]
    late.refresh_from_db()
    assert late.withdrawn


def test_a_player_withdrawn_by_mistake_is_seated_again_before_round_one(
    staff: Client, organiser: User
) -> None:
    """The organiser withdrew the wrong player between seating round 1 and
    starting it, and seated it again: bringing them back is allowed while
    round 1 has not started, the start is refused until round 1 is seated
    with them, and the seating takes them in."""
    tournament = alkort_duel(entries=4)
    services.round_seat(tournament_id=tournament.pk)
    wrong = tournament.entries.order_by("pk").first()
    assert wrong is not None
    Entry.objects.filter(pk=wrong.pk).update(withdrawn=True)
    services.round_seat(tournament_id=tournament.pk)  # seated without them
    response = unwithdraw(staff, tournament, wrong)
    assert response.status_code == 302
    response = act(staff, "start_round", tournament)
    assert messages_of(response)[-1] == (
        "error",
        f"Duels: Round 1 cannot start: {wrong.player.username} is back in the "
        "event since it was seated. Seat round 1 again (Seat next round) to "
        "seat it with them.",
    )
    rnd = services.round_seat(tournament_id=tournament.pk)
    assert rnd.number == 1 and rnd.tables.filter(seats__entry=wrong).exists()
    services.round_start(tournament_id=tournament.pk, user=organiser)


def test_a_deactivated_players_entry_can_still_be_withdrawn(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    """A player whose account was deactivated mid-event stays on the page as
    themselves: the row is not blanked (which refused every save of the
    page, 'This field is required.'), and withdrawing them hands their seat
    in play to a bot as for anyone."""
    tournament = alkort_duel(entries=2, rounds=2)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    (table,) = round_tables(Round.objects.get())
    url = f"{CHANGELIST}{tournament.pk}/change/"
    gone = tournament.entries.order_by("number", "id").first()
    assert gone is not None
    gone.player.is_active = False
    gone.player.save(update_fields=["is_active"])
    page = staff.get(url)
    row = page.context["inline_admin_formsets"][0].formset.forms[0]
    assert row.instance == gone
    assert f'<option value="{gone.player.pk}" selected>' in str(row["player"])
    data = change_form_data(staff, url)
    assert int(data["entries-0-id"]) == gone.pk
    data["entries-0-withdrawn"] = "on"
    with on_commit():
        response = staff.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    gone.refresh_from_db()
    assert gone.withdrawn and gone.player_id is not None
    assert table.seats.get(replaced_user=gone.player).bot_level == "basic"


def test_a_deactivated_account_cannot_be_entered(staff: Client) -> None:
    tournament = alkort_duel(entries=2)
    idle = UserFactory(is_active=False)
    url = f"{CHANGELIST}{tournament.pk}/change/"
    data = change_form_data(staff, url)
    data["entries-TOTAL_FORMS"] = 3
    data["entries-2-tournament"] = tournament.pk
    data["entries-2-player"] = idle.pk
    response = staff.post(url, data)
    assert response.status_code == 200
    assert not Entry.objects.filter(player=idle).exists()
    # Nor brought back: a withdrawn entry whose account was deactivated since.
    gone = tournament.entries.order_by("id").first()
    assert gone is not None
    services.entry_withdraw(tournament_id=tournament.pk, user=gone.player)
    gone.player.is_active = False
    gone.player.save(update_fields=["is_active"])
    data = change_form_data(staff, url)
    assert data["entries-0-withdrawn"] is True
    del data["entries-0-withdrawn"]
    response = staff.post(url, data)
    assert response.status_code == 200
    assert response.context["inline_admin_formsets"][0].formset.forms[0].errors == {
        "player": [
            f"{gone.player}'s account is deactivated: they cannot play, so they "
            "cannot be entered."
        ]
    }
    gone.refresh_from_db()
    assert gone.withdrawn


def test_a_finished_tournaments_entries_do_not_change(staff: Client) -> None:
    """The standings of a finished event are its record: nobody can be marked
    withdrawn (or brought back) after the last round. The rows are read-only,
    on the page and on its save: a *withdrawn* posted anyway (a page of before
    the finish) is refused, and changes nothing."""
    tournament = alkort_duel()
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)
    url = f"{CHANGELIST}{tournament.pk}/change/"
    before = snapshot(tournament)
    data = change_form_data(staff, url)
    assert not any(key.endswith("-withdrawn") for key in data)
    data["entries-0-withdrawn"] = "on"
    response = staff.post(url, data)
    assert response.status_code == 200
    errors = response.context["inline_admin_formsets"][0].formset.non_form_errors()
    assert "nothing was saved" in errors[0]
    assert snapshot(tournament) == before
    assert not tournament.entries.filter(withdrawn=True).exists()


def test_unticking_the_only_withdrawal_on_a_page_of_before_the_finish_is_refused(
    staff: Client,
) -> None:
    """The page was loaded while the event ran, one player withdrawn; it
    finished before the save. Unticking that player's *withdrawn* leaves no
    row posting the box (a browser posts no unticked box), and the untick was
    dropped without a word while the rest saved: it is refused, naming the
    entry, and nothing is saved."""
    tournament = alkort_duel()
    services.round_seat(tournament_id=tournament.pk)
    entry = tournament.entries.order_by("pk").first()
    assert entry is not None
    Entry.objects.filter(pk=entry.pk).update(withdrawn=True)
    url = f"{CHANGELIST}{tournament.pk}/change/"
    page = staff.get(url)
    data = change_form_data(staff, url)
    index = next(
        k.split("-")[1] for k, v in data.items() if k.endswith("-id") and v == entry.pk
    )
    # The page says it showed the boxes, whichever are ticked.
    assert 'name="entries-withdrawn_shown"' in page.content.decode()
    del data[f"entries-{index}-withdrawn"]
    assert not any(key.endswith("-withdrawn") for key in data)
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)
    before = snapshot(tournament)
    data["name"] = "Duels renamed"
    response = staff.post(url, data)
    assert response.status_code == 200
    errors = response.context["inline_admin_formsets"][0].formset.non_form_errors()
    assert errors == [
        "This page was loaded before the tournament was finished: the withdrawal "
        f"of {entry.player} can no longer change, so nothing was saved. Reload "
        "the page to see the entries as they are now."
    ]
    assert snapshot(tournament) == before
    assert tournament.name == "Duels"
    assert tournament.entries.get(pk=entry.pk).withdrawn


def test_adding_a_tournament_validates_it_against_the_rules(staff: Client) -> None:
    url = f"{CHANGELIST}add/"
    data = _add_form("Bad", table_size=3)
    response = staff.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "table_size": ["Alkort is played by 2 players or by 4 in partnerships, not 3"]
    }
    data["table_size"] = 4
    data["options"] = '{"target": 5}'
    response = staff.post(url, data)
    assert response.status_code == 302
    created = Tournament.objects.get(name="Bad")
    assert created.options["target"] == 5 and created.options["lead_rule"] == "rotate"
    assert created.created_by is not None


def test_a_clock_the_tables_refuse_is_refused_when_set_up(staff: Client) -> None:
    """A time control the tables refuse (over an hour a move) would freeze with
    the set-up and then refuse every round's start: the form refuses it."""
    data = _add_form("Slow", fill_policy="byes", time_control=7200)
    response = staff.post(f"{CHANGELIST}add/", data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "time_control": ["Give from 1 to 3600 seconds per move, or leave it empty."]
    }
    assert not Tournament.objects.filter(name="Slow").exists()
    data["time_control"] = 3600
    assert staff.post(f"{CHANGELIST}add/", data).status_code == 302
    assert Tournament.objects.get(name="Slow").time_control == 3600


def test_the_change_page_shows_tables_but_no_secret(
    staff: Client, organiser: User
) -> None:
    tournament = alkort_duel()
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    tables = round_tables(Round.objects.get())
    page = staff.get(f"{CHANGELIST}{tournament.pk}/change/")
    content = page.content.decode()
    for table in tables:
        # In play: the live table (its spectator view), not the replay, whose
        # page only says the match can be replayed once it ends.
        assert f'<a href="/tables/{table.pk}/">watch table {table.pk}</a>' in content
        assert f"/tables/{table.pk}/replay/" not in content
        assert table.seed not in content
        assert table.seed_sha256 not in content
    assert "/admin/games/" not in content


def test_the_change_page_shows_places_once_a_table_has_ended(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    tournament = alkort_duel(2)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    (table,) = round_tables(Round.objects.get())
    content = staff.get(f"{CHANGELIST}{tournament.pk}/change/").content.decode()
    assert "(place " not in content
    play_people(table, random.Random(7), on_commit)
    table.refresh_from_db()
    content = staff.get(f"{CHANGELIST}{tournament.pk}/change/").content.decode()
    # Once ended, the table is replayed: the link says so.
    assert (
        f'<a href="/tables/{table.pk}/replay/">replay table {table.pk}</a>' in content
    )
    for seat in table.seats.all():
        place = table.outcome["places"][seat.index]
        lead = "▶ " if seat.index == 1 else ""
        assert f"{lead}{seat.index}: {seat.user.username} (place {place})" in content


def test_the_change_page_counts_a_rounds_tables_ended(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    """Each round's heading says how many of its tables have ended: in a big
    event the organiser had to read every table's status to know whether
    *Finish round* would go through."""
    tournament = alkort_duel(4)
    services.round_seat(tournament_id=tournament.pk)
    content = staff.get(f"{CHANGELIST}{tournament.pk}/change/").content.decode()
    assert "<h3>Round 1 (seated)</h3>" in content
    services.round_start(tournament_id=tournament.pk, user=organiser)
    content = staff.get(f"{CHANGELIST}{tournament.pk}/change/").content.decode()
    assert "<h3>Round 1 (running: 0 of 2 tables ended)</h3>" in content
    first, second = round_tables(Round.objects.get())
    play_people(first, random.Random(7), on_commit)
    content = staff.get(f"{CHANGELIST}{tournament.pk}/change/").content.decode()
    assert "<h3>Round 1 (running: 1 of 2 tables ended)</h3>" in content
    play_people(second, random.Random(8), on_commit)
    services.round_finish(tournament_id=tournament.pk)
    content = staff.get(f"{CHANGELIST}{tournament.pk}/change/").content.decode()
    assert "<h3>Round 1 (finished)</h3>" in content


@pytest.mark.parametrize("action", ["open_registration", "seat_next_round"])
def test_an_action_on_a_tournament_deleted_meanwhile_says_so(
    staff: Client, action: str
) -> None:
    """A list loaded before another organiser deleted a tournament: an
    action on it said nothing at all (or, for the seating, to select exactly
    one), as if it had been done. Now it says the tournament is gone."""
    gone = TournamentFactory(name="Gone cup")
    kept = TournamentFactory(name="Kept cup")
    pk = gone.pk
    gone.delete()
    data = {"action": action, "_selected_action": [pk]}
    response = staff.post(CHANGELIST, data, follow=True)
    assert messages_of(response) == [
        (
            "error",
            "The tournament you selected no longer exists (deleted since the list "
            "was loaded): nothing was done. The list now shows the tournaments as "
            "they are.",
        )
    ]
    # With another selected, the action goes on for that one.
    data = {"action": "open_registration", "_selected_action": [pk, kept.pk]}
    response = staff.post(CHANGELIST, data, follow=True)
    assert messages_of(response) == [
        (
            "warning",
            "1 of the tournaments you selected no longer exists (deleted since the "
            "list was loaded): nothing was done to it.",
        ),
        ("success", "Kept cup: registration is open."),
    ]


# --- the organisers' audit ----------------------------------------------------


@pytest.mark.parametrize(
    ("status", "frozen"),
    [
        (TournamentStatus.DRAFT, set()),
        (TournamentStatus.REGISTRATION, {"game", "options", "table_size", "format"}),
        (TournamentStatus.RUNNING, {"game", "options", "format", "rounds"}),
        (TournamentStatus.FINISHED, {"game", "options", "format", "rounds"}),
    ],
)
def test_set_up_fields_freeze_once_registration_has_closed(
    staff: Client, status: str, frozen: set[str]
) -> None:
    tournament = TournamentFactory(name="Duels", game="alkort", table_size=2)
    Tournament.objects.filter(pk=tournament.pk).update(status=status)
    page = staff.get(f"{CHANGELIST}{tournament.pk}/change/")
    editable = set(page.context["adminform"].form.fields)
    assert not frozen & editable
    assert "name" in editable
    assert ("rounds" in editable) == (
        status in (TournamentStatus.DRAFT, TournamentStatus.REGISTRATION)
    )


def test_rounds_posted_to_a_running_tournament_are_refused(
    staff: Client, organiser: User
) -> None:
    """The page was loaded while registration was open (the rounds editable);
    round 1 was seated before it was saved. Its new rounds were dropped
    unsaid: the save is refused, saying why, and nothing of it is saved."""
    tournament = alkort_duel(rounds=3)
    url = f"{CHANGELIST}{tournament.pk}/change/"
    data = change_form_data(staff, url)
    services.round_seat(tournament_id=tournament.pk)
    data.update({"rounds": 1, "name": "Duels renamed"})
    response = staff.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [
        "This page was loaded before the tournament was running: its rounds "
        "can no longer change, so nothing was saved. Reload the page to see "
        "the tournament as it is now."
    ]
    tournament.refresh_from_db()
    assert (tournament.rounds, tournament.name) == (3, "Duels")


def test_game_settings_edited_on_a_draft_page_are_refused_once_open(
    staff: Client,
) -> None:
    """Another organiser opened registration after this page was loaded: its
    edits to the game settings (a checkbox unticked among them) are refused,
    as is the whole save (its entry rows too)."""
    tournament = TournamentFactory(
        name="Duels", game="alkort", table_size=2, rated=True
    )
    url = f"{CHANGELIST}{tournament.pk}/change/"
    data = change_form_data(staff, url)
    assert data["rated"] is True
    services.registration_open(tournament_id=tournament.pk)
    del data["rated"]  # unticked: a browser posts nothing
    data.update(
        {
            "table_size": 4,
            "entries-TOTAL_FORMS": 1,
            "entries-0-player": UserFactory().pk,
            "entries-0-tournament": tournament.pk,
        }
    )
    response = staff.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [
        "This page was loaded before the tournament was open for registration: "
        "its table size and rated can no longer change, so nothing was saved. "
        "Reload the page to see the tournament as it is now."
    ]
    tournament.refresh_from_db()
    assert (tournament.table_size, tournament.rated) == (2, True)
    assert not tournament.entries.exists()


def test_a_stale_page_saves_when_its_frozen_fields_are_as_stored(
    staff: Client,
) -> None:
    """Only edits are refused: a page loaded before registration opened, its
    game settings untouched, still saves its name."""
    tournament = TournamentFactory(name="Duels", game="alkort", table_size=2)
    url = f"{CHANGELIST}{tournament.pk}/change/"
    data = change_form_data(staff, url)
    services.registration_open(tournament_id=tournament.pk)
    data["name"] = "Duels renamed"
    response = staff.post(url, data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Duels renamed"


@pytest.mark.parametrize(
    ("table_size", "message"),
    [
        (-3, "A table seats at least 2 players."),
        (1, "A table seats at least 2 players."),
        ("", "This field is required."),
        ("two", "Enter a whole number."),
        (70000, "Alkort is played by 2 to 4 players, not 70000"),
    ],
)
def test_a_bad_table_size_shows_one_clear_message(
    staff: Client, table_size: Any, message: str
) -> None:
    """Not the field's own message beside the rules' "must be a whole number"."""
    data = _add_form("Odd", table_size=table_size)
    response = staff.post(f"{CHANGELIST}add/", data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {"table_size": [message]}
    assert not Tournament.objects.filter(name="Odd").exists()


def test_adding_a_tournament_with_no_rounds_shows_a_form_error(staff: Client) -> None:
    data = _add_form("Empty", rounds=0)
    response = staff.post(f"{CHANGELIST}add/", data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "rounds": ["A tournament has at least one round."]
    }
    assert not Tournament.objects.filter(name="Empty").exists()


def test_a_round_robin_needs_no_rounds(staff: Client) -> None:
    """The rounds' help says a round robin sets its own count, but leaving
    them empty was refused ("This field is required."). A Swiss still needs
    them, and says so."""
    response = staff.post(
        f"{CHANGELIST}add/", _add_form("Circle", format="round_robin", rounds="")
    )
    assert response.status_code == 302
    assert Tournament.objects.filter(name="Circle", format="round_robin").exists()
    response = staff.post(f"{CHANGELIST}add/", _add_form("Ladder", rounds=""))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "rounds": ["Give a Swiss's number of rounds, from 1 to 50."]
    }
    assert not Tournament.objects.filter(name="Ladder").exists()


def test_start_round_message_counts_one_table(staff: Client) -> None:
    tournament = alkort_duel(2)
    services.round_seat(tournament_id=tournament.pk)
    response = act(staff, "start_round", tournament)
    assert messages_of(response) == [
        ("success", "Duels: round 1 has started at 1 table.")
    ]


def test_start_round_keeps_a_deactivated_players_bye_and_says_so(
    staff: Client,
) -> None:
    """A bye needs no play, so a player given one whose account has been
    deactivated since the seating does not stop the round: their bye stands.
    The organiser is told at once, as the next seating will refuse them."""
    tournament = alkort_duel(3, fill_policy="byes")
    rnd = services.round_seat(tournament_id=tournament.pk)
    bye = rnd.byes.select_related("entry__player").get()
    idle = bye.entry.player
    idle.is_active = False
    idle.save(update_fields=["is_active"])
    response = act(staff, "start_round", tournament)
    assert messages_of(response) == [
        (
            "success",
            "Duels: round 1 has started at 1 table. The bye of "
            f"{idle.username} stands, but their account is deactivated: withdraw "
            "them or reactivate the account before seating round 2.",
        )
    ]
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.RUNNING
    assert rnd.byes.get().entry_id == bye.entry_id


def test_start_round_names_players_withdrawn_since_the_seating(staff: Client) -> None:
    tournament = alkort_duel(4)
    services.round_seat(tournament_id=tournament.pk)
    gone = tournament.entries.select_related("player").order_by("pk")[0]
    gone.withdrawn = True
    gone.save(update_fields=["withdrawn"])
    before = snapshot(tournament)
    response = act(staff, "start_round", tournament)
    assert messages_of(response) == [
        (
            "error",
            f"Duels: Round 1 cannot start: {gone.player.username} has withdrawn "
            "since it was seated. Seat round 1 again (Seat next round) to seat it "
            "without them.",
        )
    ]
    assert snapshot(tournament) == before
    # Seating again replaces the round, without them; then it starts.
    page = act(staff, "seat_next_round", tournament)
    assert "confirming replaces its seating" in page.content.decode()
    proposal = round_plan(tournament=tournament)
    response = act(
        staff,
        "seat_next_round",
        tournament,
        confirm="yes",
        fingerprint=proposal.fingerprint,
    )
    assert messages_of(response)[0][0] == "success"
    rnd = Round.objects.get(tournament=tournament)
    seated = {s.entry_id for t in rnd.tables.all() for s in t.seats.all()}
    assert gone.pk not in seated
    response = act(staff, "start_round", tournament)
    assert messages_of(response) == [
        ("success", "Duels: round 1 has started at 2 tables.")
    ]


def test_the_standings_panel_marks_withdrawn_players(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    tournament = finished_duel(organiser, on_commit)
    Entry.objects.filter(pk=tournament.entries.order_by("pk")[0].pk).update(
        withdrawn=True
    )
    page = staff.get(f"{CHANGELIST}{tournament.pk}/change/")
    html = page.content.decode()
    assert "<th>withdrawn</th>" in html
    assert html.count("<td>yes</td>") == 1


def test_the_standings_panel_shows_teams_in_a_team_event_only(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    """An individual event's standings had an empty *team* column."""
    tournament = finished_duel(organiser, on_commit)
    html = staff.get(f"{CHANGELIST}{tournament.pk}/change/").content.decode()
    assert "<th>Buchholz</th>" in html
    assert "<th>team</th>" not in html
    Tournament.objects.filter(pk=tournament.pk).update(team_event=True)
    Entry.objects.filter(tournament=tournament).update(team="Ravens")
    html = staff.get(f"{CHANGELIST}{tournament.pk}/change/").content.decode()
    assert "<th>team</th>" in html
    assert "<td>Ravens</td>" in html


def test_the_standings_panel_shows_scores_as_the_web_page_does(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    """Points, Buchholz and game score read as on the tournament's web page
    ("1", "5", "2.5"): the admin showed the stored decimals ("1.0", "5.00"),
    so the organiser's figures and the players' looked different."""
    tournament = finished_duel(organiser, on_commit)
    first, second, *_ = tournament.standings.order_by("pk")
    type(first).objects.filter(pk=first.pk).update(
        points=Decimal("1.0"), buchholz=Decimal("2.5"), game_score=Decimal("5.00")
    )
    type(second).objects.filter(pk=second.pk).update(
        points=Decimal("0.5"), buchholz=Decimal("0.0"), game_score=Decimal("-3.25")
    )
    html = staff.get(f"{CHANGELIST}{tournament.pk}/change/").content.decode()
    row = f"<td>{first.entry.player}</td><td>1</td><td>2.5</td><td>5</td>"
    assert row in html
    row = f"<td>{second.entry.player}</td><td>0.5</td><td>0</td><td>-3.3</td>"
    assert row in html
    assert "5.00" not in html and "1.0<" not in html


def test_export_standings_neutralises_formulas(
    staff: Client, organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    tournament = finished_duel(organiser, on_commit)
    names = ['=HYPERLINK("x")', "+1", "-2+3", "@SUM(A1)"]
    for entry, team in zip(tournament.entries.order_by("pk"), names, strict=True):
        Entry.objects.filter(pk=entry.pk).update(team=team)
    Tournament.objects.filter(pk=tournament.pk).update(name="\tTabbed")
    response = staff.post(
        CHANGELIST, {"action": "export_standings", "_selected_action": [tournament.pk]}
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))[1:]
    assert sorted(r[5] for r in rows) == sorted("'" + n for n in names)
    assert {r[1] for r in rows} == {"'\tTabbed"}
    # Numbers (a negative game score) stay numbers.
    assert all(not r[8].startswith("'") for r in rows)


def test_the_list_shows_a_round_robins_rounds_from_its_players(staff: Client) -> None:
    tournament = TournamentFactory(
        name="Duels",
        game="alkort",
        table_size=2,
        options={"target": 1},
        format="round_robin",
    )
    services.registration_open(tournament_id=tournament.pk)
    enter(tournament, 5)

    page = staff.get(CHANGELIST).content.decode()

    assert "0 / 5" in page


def test_the_lists_delete_refuses_a_tournament_with_a_round(staff: Client) -> None:
    """Its own page offers no delete once a round is seated, but the list's
    bulk "Delete selected" deleted it, with its entries and results."""
    seated = alkort_duel()
    services.round_seat(tournament_id=seated.pk)
    draft = TournamentFactory(name="Not started")

    response = act(staff, "delete_selected", seated, draft, post="yes")

    assert Tournament.objects.filter(pk=seated.pk).exists()
    assert Tournament.objects.filter(pk=draft.pk).exists()  # nothing half-done
    assert messages_of(response) == [
        (
            "error",
            "Not deleted: a tournament with a round seated or played is part of "
            "the record (Duels). End it early instead.",
        )
    ]
    act(staff, "delete_selected", draft, post="yes")
    assert not Tournament.objects.filter(pk=draft.pk).exists()


@pytest.mark.parametrize("rounds", [51, 100000])
def test_a_swiss_with_too_many_rounds_is_refused_with_one_message(
    staff: Client, rounds: int
) -> None:
    data = _add_form("Marathon", rounds=rounds)
    response = staff.post(f"{CHANGELIST}add/", data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "rounds": ["A Swiss tournament plays at most 50 rounds."]
    }
    assert not Tournament.objects.filter(name="Marathon").exists()
    data["rounds"] = 50
    assert staff.post(f"{CHANGELIST}add/", data).status_code == 302
    assert Tournament.objects.get(name="Marathon").rounds == 50


def test_a_swiss_saved_before_the_bound_keeps_its_rounds() -> None:
    old = TournamentFactory(game="alkort", table_size=2, options={"target": 1})
    Tournament.objects.filter(pk=old.pk).update(rounds=60)
    old.refresh_from_db()

    old.name = "Renamed"
    old.full_clean()  # its rounds did not change: nothing to refuse

    old.rounds = 61
    with pytest.raises(ValidationError, match="at most 50 rounds"):
        old.full_clean()
