"""The round services end to end: a round robin, withdrawals, what tables get."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest

from accounts.models import User
from games.errors import Conflict
from games.models import Seat
from tests.games.tables import play_to_end
from tests.tournaments.factories import (
    TournamentFactory,
    enter,
    play_people,
    round_tables,
)
from tournaments import services
from tournaments.models import Entry, Round, Tournament, TournamentStatus
from tournaments.services.standings import standings_rows

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(180)]

Commit = Callable[[], AbstractContextManager[Any]]


def duel(entries: int, **kwargs: Any) -> Tournament:
    tournament = TournamentFactory(
        game="alkort", table_size=2, options={"target": 1}, **kwargs
    )
    services.registration_open(tournament_id=tournament.pk)
    enter(tournament, entries)
    tournament.refresh_from_db()
    return tournament


def play_round(
    tournament: Tournament, organiser: User, commit: Commit, seed: int
) -> Round:
    rnd = services.round_seat(tournament_id=tournament.pk)
    with commit():
        services.round_start(tournament_id=tournament.pk, user=organiser)
    for index, table in enumerate(round_tables(rnd)):
        play_people(table, random.Random(seed * 100 + index), commit)
    services.round_finish(tournament_id=tournament.pk)
    return rnd


def test_a_round_robin_of_five_with_byes(organiser: User, on_commit: Commit) -> None:
    tournament = duel(5, format="round_robin", fill_policy="byes", rounds=1)
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for number in range(1, 6):
        rnd = play_round(tournament, organiser, on_commit, number)
        tournament.refresh_from_db()
        assert tournament.rounds == 5  # set by the first seating
        for rt in rnd.tables.all():
            met[frozenset(s.entry_id for s in rt.seats.all())] += 1
        byes.update(b.entry_id for b in rnd.byes.all())
    entries = [e.pk for e in tournament.entries.all()]
    assert set(met) == {frozenset(p) for p in itertools.combinations(entries, 2)}
    assert set(met.values()) == {1}
    assert byes == Counter(entries)
    assert tournament.status == TournamentStatus.FINISHED
    with pytest.raises(Conflict) as refused:
        services.round_seat(tournament_id=tournament.pk)
    assert refused.value.code == "tournament_finished"
    standings = tournament.standings.all()
    assert sum(s.points for s in standings) == 10 + 5  # ten games, five byes
    assert all(s.played == 4 and s.byes == 1 for s in standings)


def test_a_withdrawn_entry_is_seated_no_more(
    organiser: User, on_commit: Commit
) -> None:
    tournament = duel(4, rounds=2)
    play_round(tournament, organiser, on_commit, 1)
    gone = tournament.entries.first()
    assert gone is not None
    gone.withdrawn = True
    gone.save()
    rnd = services.round_seat(tournament_id=tournament.pk)
    seated = {
        s.entry_id for rt in rnd.tables.all() for s in rt.seats.all() if s.entry_id
    }
    assert gone.pk not in seated and len(seated) == 3
    # Three left at 2-player tables, bots by default: one plays a bot.
    assert (
        sum(s.entry_id is None for rt in rnd.tables.all() for s in rt.seats.all()) == 1
    )
    # The withdrawn entry keeps its place in the standings.
    assert tournament.standings.filter(entry=gone).exists()


def test_tables_get_the_tournaments_options_rating_and_bots(organiser: User) -> None:
    tournament = duel(3, rated=True, bot_level="random", time_control=30)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    tables = round_tables(Round.objects.get())
    assert all(t.rated and t.options == tournament.options for t in tables)
    assert [s.bot_level for t in tables for s in t.seats.all() if s.bot_level] == [
        "random"
    ]
    # The clock is stored on the tournament until tables accept one.
    tournament.refresh_from_db()
    assert tournament.time_control == 30


def test_a_round_cannot_be_seated_beyond_the_last(
    organiser: User, on_commit: Commit
) -> None:
    tournament = duel(2, rounds=1)
    play_round(tournament, organiser, on_commit, 1)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    tournament.status = TournamentStatus.RUNNING  # as if an organiser reopened it
    tournament.save()
    with pytest.raises(Conflict) as refused:
        services.round_seat(tournament_id=tournament.pk)
    assert (refused.value.code, refused.value.message) == (
        "all_rounds_played",
        f"{tournament.name!r} has played all its rounds (1).",
    )


@pytest.mark.parametrize("fill_policy", ["byes", "bots"])
def test_a_round_robin_left_with_one_player_is_not_seated(
    organiser: User, on_commit: Commit, fill_policy: str
) -> None:
    """Withdrawals can leave a round robin with one player: no table can be
    seated, so the round is refused as a Swiss round is (rather than a round
    of byes alone, or of one person against a bot), and the organiser ends
    the event early."""
    tournament = duel(3, format="round_robin", fill_policy=fill_policy, rounds=1)
    play_round(tournament, organiser, on_commit, 1)
    left, *gone = tournament.entries.order_by("pk")
    Entry.objects.filter(pk__in=[e.pk for e in gone]).update(withdrawn=True)
    with pytest.raises(Conflict) as refused:
        services.round_seat(tournament_id=tournament.pk)
    assert (refused.value.code, refused.value.message) == (
        "cannot_seat",
        "Too few players for one table: 1 player, a table seats 2.",
    )
    assert Round.objects.filter(tournament=tournament).count() == 1
    services.tournament_finish(tournament_id=tournament.pk)


def test_an_incomplete_team_cannot_be_seated() -> None:
    tournament = TournamentFactory(game="alkort", table_size=4, team_event=True)
    services.registration_open(tournament_id=tournament.pk)
    for team in ("Ravens", "Ravens", "Owls", "Owls", "Crows"):
        enter(tournament, 1, team=team)
    crow = tournament.entries.get(team="Crows").player.username
    with pytest.raises(Conflict) as refused:
        services.round_seat(tournament_id=tournament.pk)
    assert refused.value.message == (
        f"Every team needs two players still in the event; incomplete: Crows "
        f"({crow} alone). To go on, enter a partner or withdraw the player left."
    )
    assert not Round.objects.exists()


def test_a_team_left_incomplete_mid_event_says_how_to_go_on(
    organiser: User, on_commit: Callable[[], AbstractContextManager[Any]]
) -> None:
    """A partner withdrawn after round 1: no partner can be entered any more,
    so the message names the player left and the one way on."""
    tournament = TournamentFactory(
        game="alkort", table_size=4, team_event=True, rounds=2, options={"target": 1}
    )
    services.registration_open(tournament_id=tournament.pk)
    for team in ("Ravens", "Ravens", "Owls", "Owls"):
        enter(tournament, 1, team=team)
    play_round(tournament, organiser, on_commit, 1)
    gone, left = tournament.entries.filter(team="Owls").order_by("pk")
    gone.withdrawn = True
    gone.save(update_fields=["withdrawn"])
    with pytest.raises(Conflict) as refused:
        services.round_seat(tournament_id=tournament.pk)
    assert refused.value.message == (
        f"Every team needs two players still in the event; incomplete: Owls "
        f"({left.player.username} alone). To go on, withdraw the player left to "
        "seat the round without that team."
    )


# --- the organisers' audit ----------------------------------------------------


def test_set_up_fields_cannot_change_once_running(organiser: User) -> None:
    from django.core.exceptions import ValidationError

    tournament = duel(4, rounds=3)
    # During registration the rounds may change, the game settings not.
    tournament.rounds = 2
    tournament.full_clean()
    tournament.save()
    tournament.table_size = 4
    with pytest.raises(ValidationError) as refused:
        tournament.save()
    assert refused.value.message_dict == {
        "table_size": [
            "The tournament is open for registration: its table size can no "
            "longer change."
        ]
    }
    tournament.refresh_from_db()
    services.round_seat(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    for field, value in (("rounds", 1), ("rounds", 5), ("rated", True)):
        setattr(tournament, field, value)
        with pytest.raises(ValidationError) as refused:
            tournament.full_clean()
        assert field in refused.value.message_dict
        with pytest.raises(ValidationError):
            tournament.save()
        with pytest.raises(ValidationError):
            tournament.save(update_fields=[field])
        tournament.refresh_from_db()
    assert (tournament.rounds, tournament.rated) == (2, False)
    # What is not set-up still saves.
    tournament.name = "Renamed"
    tournament.save()


def test_a_round_with_a_withdrawn_player_is_refused_then_seated_again(
    organiser: User, on_commit: Commit
) -> None:
    tournament = duel(5, format="round_robin")
    services.round_seat(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.rounds == 5
    gone = tournament.entries.select_related("player").order_by("pk")[0]
    gone.withdrawn = True
    gone.save()
    with pytest.raises(Conflict) as refused:
        services.round_start(tournament_id=tournament.pk, user=organiser)
    assert refused.value.code == "withdrawn_seated"
    assert gone.player.username in refused.value.message
    assert Round.objects.get().tables.filter(table__isnull=False).count() == 0
    # Seating again replaces round 1: four left, three rounds, no one withdrawn.
    rnd = services.round_seat(tournament_id=tournament.pk)
    assert rnd.number == 1 and Round.objects.count() == 1
    tournament.refresh_from_db()
    assert tournament.rounds == 3
    gone.refresh_from_db()
    assert gone.number is None
    seated = {s.entry_id for t in rnd.tables.all() for s in t.seats.all()}
    assert gone.pk not in seated and None not in seated
    with on_commit():
        services.round_start(tournament_id=tournament.pk, user=organiser)
    # Never seated: not in the standings.
    services.standings_recompute(tournament_id=tournament.pk)
    assert not tournament.standings.filter(entry=gone).exists()
    assert tournament.standings.count() == 4


def test_a_seated_round_without_withdrawals_is_still_already_seated() -> None:
    tournament = duel(4)
    services.round_seat(tournament_id=tournament.pk)
    with pytest.raises(Conflict) as refused:
        services.round_seat(tournament_id=tournament.pk)
    assert refused.value.code == "round_already_seated"


def test_players_withdrawn_in_registration_are_not_in_the_standings(
    organiser: User, on_commit: Commit
) -> None:
    tournament = duel(4, rounds=2)
    (early,) = enter(tournament, 1)
    services.entry_withdraw(tournament_id=tournament.pk, user=early.player)
    play_round(tournament, organiser, on_commit, 1)
    standings = tournament.standings.all()
    assert early.pk not in {s.entry_id for s in standings}
    assert standings.count() == 4
    rows = standings_rows(tournament=tournament)
    assert early.pk not in {r.entry for r in rows}


def test_a_deactivated_players_round_is_refused_until_they_are_withdrawn(
    organiser: User,
) -> None:
    """A deactivated account cannot log in: seated, its table would wait for
    it forever. Seating and starting name it, and withdrawing it lets the
    round go on."""
    tournament = duel(4, rounds=2)
    idle = tournament.entries.order_by("pk").first()
    assert idle is not None
    idle.player.is_active = False
    idle.player.save(update_fields=["is_active"])
    with pytest.raises(Conflict) as refused:
        services.round_seat(tournament_id=tournament.pk)
    assert (refused.value.code, refused.value.message) == (
        "deactivated",
        f"Round 1 cannot be seated: the account of {idle.player.username} is "
        "deactivated, so they cannot play. Withdraw them (tick withdrawn on "
        "their entry), or reactivate the account, then try again.",
    )
    assert not Round.objects.exists()
    idle.player.is_active = True
    idle.player.save(update_fields=["is_active"])
    services.round_seat(tournament_id=tournament.pk)
    # Deactivated between the seating and the start.
    idle.player.is_active = False
    idle.player.save(update_fields=["is_active"])
    with pytest.raises(Conflict) as refused:
        services.round_start(tournament_id=tournament.pk, user=organiser)
    assert refused.value.message.startswith("Round 1 cannot start: the account of")
    idle.withdrawn = True
    idle.save(update_fields=["withdrawn"])
    rnd = services.round_seat(tournament_id=tournament.pk)  # seated again
    assert not rnd.tables.filter(seats__entry=idle).exists()


def test_a_player_deactivated_mid_round_keeps_their_seat_until_withdrawn(
    organiser: User,
) -> None:
    """Deactivated while their match is in play: nothing changes at that
    table by itself (their seat is theirs until the organiser withdraws them,
    or a clock runs their time out); the round finishes once its tables end,
    and the next seating is refused naming them, as at the first."""
    tournament = duel(4, rounds=2)
    services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    idle = tournament.entries.order_by("pk").first()
    assert idle is not None
    idle.player.is_active = False
    idle.player.save(update_fields=["is_active"])
    tables = [t.table for t in Round.objects.get().tables.select_related("table")]
    seat = Seat.objects.get(table__in=tables, user=idle.player)
    assert (seat.bot_level, seat.replaced_user_id) == (None, None)
    with pytest.raises(Conflict) as refused:
        services.round_seat(tournament_id=tournament.pk)
    assert refused.value.code == "round_unfinished"
    for table in tables:
        assert table is not None
        play_to_end(table)  # as a clock would, for the idle seat
    services.round_finish(tournament_id=tournament.pk)
    with pytest.raises(Conflict) as refused:
        services.round_seat(tournament_id=tournament.pk)
    assert (refused.value.code, refused.value.message) == (
        "deactivated",
        f"Round 2 cannot be seated: the account of {idle.player.username} is "
        "deactivated, so they cannot play. Withdraw them (tick withdrawn on "
        "their entry), or reactivate the account, then try again.",
    )
    Entry.objects.filter(pk=idle.pk).update(withdrawn=True)
    rnd = services.round_seat(tournament_id=tournament.pk)
    assert not rnd.tables.filter(seats__entry=idle).exists()
    services.standings_recompute(tournament_id=tournament.pk)
    idle.refresh_from_db()
    assert idle.standing.played == 1  # their round 1 result stands
