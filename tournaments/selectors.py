"""Reads on tournaments: lists, details, the seating history, results.

What these return is public: seats, statuses and outcomes of tables (an
outcome exists only once a match has ended), never a table's state, seed or
events. Draft tournaments are the organisers' only (``public=True`` hides
them).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from games.errors import NotFound
from games.models import TableStatus
from tournaments import scoring
from tournaments.models import (
    Bye,
    Entry,
    Round,
    RoundSeat,
    RoundTable,
    Standing,
    Tournament,
    TournamentStatus,
)
from tournaments.seating import History, Layout


def tournament_list(
    *, status: str | None = None, game: str | None = None
) -> QuerySet[Tournament]:
    """Published tournaments (not drafts), newest first."""
    tournaments = Tournament.objects.exclude(status=TournamentStatus.DRAFT)
    if status:
        tournaments = tournaments.filter(status=status)
    if game:
        tournaments = tournaments.filter(game=game)
    return tournaments


def tournament_get(*, tournament_id: int, public: bool = True) -> Tournament:
    """The tournament; ``NotFound`` if missing (or a draft, when ``public``)."""
    tournaments = tournament_list() if public else Tournament.objects.all()
    tournament = tournaments.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound("not_found", f"Tournament {tournament_id} does not exist.")
    return tournament


def rounds_get(*, tournament: Tournament) -> list[Round]:
    """The rounds with their tables, seats (entries, players) and byes."""
    seats = RoundSeat.objects.select_related("entry__player")
    tables = RoundTable.objects.select_related("table").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    return list(
        tournament.round_set.prefetch_related(
            Prefetch("tables", queryset=tables),
            Prefetch("byes", queryset=Bye.objects.select_related("entry__player")),
        )
    )


def table_round(*, table_id: int) -> Round | None:
    """The round (with its tournament) a table was opened for, if any.

    Public: only a published tournament's (a draft has no tables anyway). The
    table page names it ("Round 2 of Spring Swiss") and links back.
    """
    found = (
        RoundTable.objects.filter(table_id=table_id)
        .exclude(round__tournament__status=TournamentStatus.DRAFT)
        .select_related("round__tournament")
        .first()
    )
    return found.round if found is not None else None


def active_entries(*, tournament: Tournament) -> list[Entry]:
    """Entries still in the event, by starting number then registration."""
    return list(
        tournament.entries.filter(withdrawn=False)
        .select_related("player")
        .order_by("number", "created_at", "id")
    )


def seat_order(*, tournament: Tournament) -> list[int]:
    """Entry ids in seed order: rating (highest first, none last), registration."""
    entries = list(tournament.entries.all())
    entries.sort(
        key=lambda e: (
            e.number if e.number is not None else 1 << 30,
            e.seed_rating is None,
            -(e.seed_rating or 0.0),
            e.created_at,
            e.pk,
        )
    )
    return [e.pk for e in entries]


def history_get(*, rounds: list[Round], layout: Layout) -> History:
    """Who met, partnered and sat where in ``rounds``, and who had byes."""
    history = History()
    for rnd in rounds:
        for table in rnd.tables.all():
            seats = _seats_tuple(table, layout.size)
            history.record_table(seats, layout.lead, layout.partners)
        for bye in rnd.byes.all():
            history.byes[bye.entry_id] += 1
    return history


def _seats_tuple(table: RoundTable, size: int) -> tuple[int | None, ...]:
    by_index = {s.seat: s.entry_id for s in table.seats.all()}
    return tuple(by_index.get(i) for i in range(size))


def results_get(
    *, rounds: list[Round], layout: Layout
) -> tuple[list[scoring.TableResult], list[int], int]:
    """Finished tables' results, the byes taken, and how many tables counted.

    Byes count once their round has started (the others are playing).
    """
    results = []
    byes: list[int] = []
    for rnd in rounds:
        if rnd.status == "seated":
            continue
        for table in rnd.tables.all():
            match = table.table
            if (
                match is None
                or match.status != TableStatus.FINISHED
                or not match.outcome
            ):
                continue
            results.append(
                scoring.TableResult(
                    seats=_seats_tuple(table, layout.size),
                    outcome=match.outcome,
                    partners=layout.partners,
                )
            )
        byes.extend(b.entry_id for b in rnd.byes.all())
    return results, byes, len(results)


def standings_get(*, tournament: Tournament) -> list[Standing]:
    """The cached standings, best first.

    In a team event teams sharing a place are listed pair by pair (the team
    of the lower starting number first), as ``scoring.rank_rows`` lists them.
    """
    rows = list(
        tournament.standings.select_related("entry__player").order_by(
            "rank", "entry__number", "entry_id"
        )
    )
    if not tournament.team_event:
        return rows
    first: dict[str | int, int] = {}
    for index, row in enumerate(rows):
        first.setdefault(row.entry.team or row.entry_id, index)
    return sorted(rows, key=lambda r: (r.rank, first[r.entry.team or r.entry_id]))


def tournament_detail(*, tournament: Tournament) -> dict[str, Any]:
    """The public detail: set-up, entries, rounds with tables and standings."""
    rounds = rounds_get(tournament=tournament)
    entries = list(tournament.entries.select_related("player").order_by("number", "id"))
    return {
        **tournament_summary(tournament=tournament),
        "entries": [
            {
                "username": e.player.username,
                "team": e.team,
                "number": e.number,
                "seed_rating": e.seed_rating,
                "withdrawn": e.withdrawn,
            }
            for e in entries
        ],
        "rounds": [
            {
                "number": rnd.number,
                "status": rnd.status,
                "tables": [
                    {
                        "number": t.number,
                        "table": t.table_id,
                        "status": t.table.status if t.table else None,
                        "outcome": t.table.outcome if t.table else None,
                        "seats": [
                            {
                                "seat": s.seat,
                                "username": s.entry.player.username
                                if s.entry
                                else None,
                                "is_bot": s.entry is None,
                                "bot_level": s.bot_level,
                            }
                            for s in t.seats.all()
                        ],
                    }
                    for t in rnd.tables.all()
                ],
                "byes": [b.entry.player.username for b in rnd.byes.all()],
            }
            for rnd in rounds
        ],
        "standings": [
            {
                "rank": s.rank,
                "username": s.entry.player.username,
                "team": s.entry.team,
                "points": s.points,
                "buchholz": s.buchholz,
                "game_score": s.game_score,
                "played": s.played,
                "wins": s.wins,
                "byes": s.byes,
                "withdrawn": s.entry.withdrawn,
            }
            for s in standings_get(tournament=tournament)
        ],
    }


def tournament_summary(*, tournament: Tournament) -> dict[str, Any]:
    """The fields a list shows."""
    entries = (
        tournament.entries_count
        if hasattr(tournament, "entries_count")
        else tournament.places_taken()
    )
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "options": tournament.options,
        "table_size": tournament.table_size,
        "format": tournament.format,
        "round_count": tournament.round_count(entries),
        "time_control": tournament.time_control,
        "rated": tournament.rated,
        "bot_level": tournament.bot_level,
        "fill_policy": tournament.fill_policy,
        "team_event": tournament.team_event,
        "status": tournament.status,
        "entries_count": entries,
        "max_entries": tournament.max_entries,
        "created_at": tournament.created_at,
        "started_at": tournament.started_at,
        "finished_at": tournament.finished_at,
    }
