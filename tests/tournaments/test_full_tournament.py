"""A whole small Swiss tournament of each game: people and bots, three rounds.

The organiser seats and starts each round through the services the admin
calls; people play random legal moves through ``action_submit``; the bot
seats are played by the server's bot-turn task on commit. Each finished
table's ``table_finished`` signal queues the standings task, so the
standings are checked against the points table computed here, from the
outcomes, independently of ``tournaments.scoring``.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from contextlib import AbstractContextManager
from decimal import Decimal
from typing import Any

import pytest

from accounts.models import User
from games.models import TableStatus
from tests.accounts.factories import UserFactory
from tests.helpers import tables_finished_unqueued
from tests.tournaments.factories import TournamentFactory, play_people, round_tables
from tournaments import selectors, services
from tournaments.models import RoundStatus, TournamentStatus

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(300)]

EVENTS = [
    pytest.param(
        "alager",
        3,
        {"end_mode": "fixed_deals", "num_deals": 2, "max_turns_per_deal": 15},
        5,
        "bots",
        id="alager-3p-5-people-bot-fill",
    ),
    pytest.param(
        "alkort", 4, {"target": 1}, 6, "bots", id="alkort-4p-6-people-bot-fill"
    ),
    pytest.param(
        "allegra",
        3,
        {"rounds": 1, "max_turns_per_round": 30},
        7,
        "byes",
        id="allegra-3p-7-people-byes",
    ),
]


def expected_points(places: list[int]) -> list[Decimal]:
    """docs/tournaments.md: n − place, shared places averaged."""
    n = len(places)
    out = []
    for place in places:
        tied = places.count(place)
        spanned = [n - p for p in range(place, place + tied)]
        out.append(Decimal(sum(spanned)) / tied)
    return out


@pytest.mark.parametrize(("game", "size", "options", "people", "fill"), EVENTS)
def test_a_whole_swiss_tournament(
    organiser: User,
    finishing: set[int],
    on_commit: Callable[[], AbstractContextManager[Any]],
    game: str,
    size: int,
    options: dict[str, Any],
    people: int,
    fill: str,
) -> None:
    tournament = TournamentFactory(
        game=game,
        table_size=size,
        options=options,
        fill_policy=fill,
        bot_level="basic",
        rounds=3,
    )
    services.registration_open(tournament_id=tournament.pk)
    players = [UserFactory() for _ in range(people)]
    for user in players:
        services.entry_register(tournament_id=tournament.pk, user=user)
    rng = random.Random(f"tournament-{game}")
    seated_per_round: list[Counter[int]] = []

    for number in (1, 2, 3):
        rnd = services.round_seat(tournament_id=tournament.pk)
        assert rnd.number == number
        with on_commit():
            services.round_start(tournament_id=tournament.pk, user=organiser)
        rnd.refresh_from_db()
        assert rnd.status == RoundStatus.RUNNING
        tables = round_tables(rnd)
        full_tables = people // size if fill == "byes" else -(-people // size)
        assert len(tables) == full_tables
        for table in tables:
            play_people(table, rng, on_commit)
            table.refresh_from_db()
            assert table.status == TableStatus.FINISHED
        seen: Counter[int] = Counter(
            s.entry_id for t in rnd.tables.all() for s in t.seats.all() if s.entry_id
        )
        seen.update(b.entry_id for b in rnd.byes.all())
        seated_per_round.append(seen)
        tournament.refresh_from_db()
        # The signal path (table_finished → task) has counted every table.
        assert tournament.standings_counted == len(tables) * number
        finished = services.round_finish(tournament_id=tournament.pk)
        assert finished.status == RoundStatus.FINISHED

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    # Every table the tournament finished is queued for its count or counted.
    assert finishing and tables_finished_unqueued(finishing) == []
    # Every entry played or sat out exactly once per round.
    for seen in seated_per_round:
        assert sorted(seen.values()) == [1] * people

    # The standings, recomputed independently from the outcomes.
    points: dict[str, Decimal] = defaultdict(Decimal)
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    tables_total = 0
    for rnd in selectors.rounds_get(tournament=tournament):
        for rt in rnd.tables.all():
            outcome = rt.table.outcome
            tables_total += 1
            per_seat = expected_points(outcome["places"])
            for seat in rt.seats.all():
                if seat.entry is None:
                    continue
                name = seat.entry.player.username
                points[name] += per_seat[seat.seat]
                played[name] += 1
                wins[name] += outcome["places"][seat.seat] == 1
        for bye in rnd.byes.all():
            name = bye.entry.player.username
            points[name] += Decimal(size - 1) / 2 if size > 2 else Decimal(1)
            byes[name] += 1
    standings = selectors.standings_get(tournament=tournament)
    assert tournament.standings_counted == tables_total
    got = {
        s.entry.player.username: (s.points, s.played, s.wins, s.byes) for s in standings
    }
    assert got == {
        u.username: (
            points[u.username],
            played[u.username],
            wins[u.username],
            byes[u.username],
        )
        for u in players
    }
    assert [s.rank for s in standings][0] == 1
    assert [s.points for s in standings] == sorted(
        (s.points for s in standings), reverse=True
    )
    assert sum(byes.values()) == (3 * (people % size) if fill == "byes" else 0)


def test_a_whole_alkort_team_event(
    organiser: User,
    on_commit: Callable[[], AbstractContextManager[Any]],
    finishing: set[int],
) -> None:
    """Three teams at Alkort, four to a table: one table a round has a bot pair."""
    tournament = TournamentFactory(
        game="alkort",
        table_size=4,
        options={"target": 1},
        team_event=True,
        fill_policy="bots",
        rounds=3,
    )
    services.registration_open(tournament_id=tournament.pk)
    teams = {
        name: [UserFactory(), UserFactory()] for name in ("Ravens", "Owls", "Crows")
    }
    for name, pair in teams.items():
        for user in pair:
            services.entry_register(tournament_id=tournament.pk, user=user, team=name)
    team_of = {u.username: name for name, pair in teams.items() for u in pair}
    rng = random.Random("teams")
    met: Counter[frozenset[str]] = Counter()
    for _ in range(3):
        rnd = services.round_seat(tournament_id=tournament.pk)
        with on_commit():
            services.round_start(tournament_id=tournament.pk, user=organiser)
        for rt in rnd.tables.all():
            seats = {
                s.seat: s.entry.player.username if s.entry else None
                for s in rt.seats.all()
            }
            sides = [(seats[0], seats[2]), (seats[1], seats[3])]
            names = []
            for a, b in sides:
                if a is None:
                    assert b is None  # bots make up a whole side
                    continue
                assert team_of[a] == team_of[b]  # partners are always teammates
                names.append(team_of[a])
            if len(names) == 2:
                met[frozenset(names)] += 1
        for table in round_tables(rnd):
            play_people(table, rng, on_commit)
        services.round_finish(tournament_id=tournament.pk)
    # Three teams, three rounds: each pairing of teams met once (one sits with bots).
    assert sorted(met.values()) == [1, 1, 1]
    standings = selectors.standings_get(tournament=tournament)
    by_team: dict[str, set[Decimal]] = defaultdict(set)
    for s in standings:
        by_team[s.entry.team].add(s.points)
    assert all(len(points) == 1 for points in by_team.values())  # partners level
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    # Every table the tournament finished is queued for its count or counted.
    assert finishing and tables_finished_unqueued(finishing) == []
