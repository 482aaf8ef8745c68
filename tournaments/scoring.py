"""Tournament points and tie-breaks from match places (framework-free).

The table is documented for organisers in ``docs/tournaments.md``; change
both together.

* **Points.** At a table of ``n`` seats, place ``p`` earns ``n - p`` points
  (2 players: 1 and 0; 3 players: 2, 1, 0; …). Seats that share a place share
  the points of the places they span, averaged: two seats tied first at a
  3-player table get (2 + 1) / 2 = 1.5 each; Alkort's winning side at four
  (places 1, 1) gets (3 + 2) / 2 = 2.5 each and the losing side 0.5.
* **Bye.** A win at 2-player tables (1 point, the chess convention); at larger
  tables the points of a table where everyone shares first place, (n − 1) / 2.
* **Tie-breaks**, in order: Buchholz (the sum of the current points of every
  opponent met, once per meeting; partners and bots do not count), then game
  score (per table, how much better than the opponents' average the player
  scored in the game's own points, summed), then shared rank.
* **Ranks** count places as in sports (standard competition ranking: equal
  rows share the best place, and the next is skipped, "1, 1, 3"). In a team
  event they count teams, not players: partners share their team's place and
  the next team is 2nd ("1, 1, 2, 2"); teams level on everything share a
  place and the team after them skips accordingly.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

#: Games whose match scores are penalty-like (the lowest score wins):
#: Alager counts penalty points and Allegra golf-like card points
#: (docs/rules-api-alager.md, docs/rules-api-allegra.md); Alkort counts the
#: points a side has won (docs/rules-api-alkort.md).
LOWER_SCORE_WINS = {"alager": True, "alkort": False, "allegra": True}

HALF = Decimal("0.5")


def place_points(places: Sequence[int]) -> list[Decimal]:
    """Tournament points per seat for a table's ``places`` (1 best, ties shared)."""
    n = len(places)
    counts: dict[int, int] = defaultdict(int)
    for place in places:
        counts[place] += 1
    points = []
    for place in places:
        span = range(place, place + counts[place])
        total = sum(n - p for p in span)
        points.append(Decimal(total) / Decimal(len(span)))
    return points


def bye_points(table_size: int) -> Decimal:
    """What a bye scores (see the module docstring)."""
    if table_size == 2:
        return Decimal(1)
    return Decimal(table_size - 1) / 2


@dataclass(frozen=True)
class TableResult:
    """A finished table: the entry at each seat (None: a bot) and its outcome."""

    seats: tuple[int | None, ...]
    outcome: dict[str, Any]
    partners: tuple[tuple[int, ...], ...] = ()


@dataclass
class Row:
    """One entry's line in the standings (``rank`` is set by ``rank_rows``)."""

    entry: int
    points: Decimal = Decimal(0)
    buchholz: Decimal = Decimal(0)
    game_score: Decimal = Decimal(0)
    played: int = 0
    wins: int = 0
    byes: int = 0
    rank: int = 0


def _side_of(seat: int, partners: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    for side in partners:
        if seat in side:
            return side
    return (seat,)


def standings_rows(
    *,
    entries: Sequence[int],
    results: Sequence[TableResult],
    byes: Sequence[int],
    table_size: int,
    game: str,
    order: Sequence[int] = (),
    teams: Mapping[int, str] | None = None,
) -> list[Row]:
    """Every entry's row, ranked best first.

    ``byes`` lists one entry id per bye taken. ``order`` (entry ids) breaks
    the remaining ties for listing only: tied rows share their rank.
    ``teams`` (entry id to team name, a team event only) makes the ranks
    count teams (see ``rank_rows``).
    """
    rows = {e: Row(entry=e) for e in entries}
    opponents: dict[int, list[int]] = defaultdict(list)
    sign = Decimal(-1) if LOWER_SCORE_WINS.get(game, False) else Decimal(1)
    for result in results:
        places = result.outcome["places"]
        scores = result.outcome["scores"]
        points = place_points(places)
        for seat, entry in enumerate(result.seats):
            if entry is None or entry not in rows:
                continue
            row = rows[entry]
            row.points += points[seat]
            row.played += 1
            if places[seat] == 1:
                row.wins += 1
            side = _side_of(seat, result.partners)
            others = [s for s in range(len(result.seats)) if s not in side]
            for s in others:
                other = result.seats[s]
                if other is not None:
                    opponents[entry].append(other)
            if others:
                mean = Decimal(sum(scores[s] for s in others)) / len(others)
                row.game_score += sign * (Decimal(scores[seat]) - mean)
    for entry in byes:
        if entry in rows:
            rows[entry].points += bye_points(table_size)
            rows[entry].byes += 1
    for entry, row in rows.items():
        row.buchholz = sum(
            (rows[o].points for o in opponents[entry] if o in rows), Decimal(0)
        )
    for row in rows.values():
        row.points = row.points.quantize(Decimal("0.1"))
        row.buchholz = row.buchholz.quantize(Decimal("0.1"))
        row.game_score = row.game_score.quantize(Decimal("0.01"), ROUND_HALF_UP)
    return rank_rows(list(rows.values()), order, teams)


def rank_rows(
    rows: list[Row],
    order: Sequence[int] = (),
    teams: Mapping[int, str] | None = None,
) -> list[Row]:
    """Sort by points, Buchholz, game score; equal rows share the best rank.

    A row's rank is one more than the number of places strictly ahead of it:
    entries, or with ``teams`` (entry id to team name) distinct teams, so that
    partners share their team's place and the next team is 2nd. Partners play
    every table together and score alike; tied teams are listed pair by pair
    (the team of the first in ``order`` first).
    """
    position = {e: i for i, e in enumerate(order)}

    def key(row: Row) -> tuple[Decimal, Decimal, Decimal]:
        return (-row.points, -row.buchholz, -row.game_score)

    def unit(row: Row) -> str | int:
        return teams.get(row.entry, row.entry) if teams is not None else row.entry

    def listed(row: Row) -> int:
        return position.get(row.entry, len(position))

    # A team is listed where its first-listed player would be.
    team_first: dict[str | int, tuple[int, int]] = {}
    for row in rows:
        mark = (listed(row), row.entry)
        team_first[unit(row)] = min(team_first.get(unit(row), mark), mark)
    rows.sort(key=lambda r: (*key(r), team_first[unit(r)], listed(r), r.entry))
    ahead: set[str | int] = set()
    for _, group in itertools.groupby(rows, key=key):
        members = list(group)
        first = len(ahead) + 1
        for row in members:
            row.rank = first
        ahead.update(unit(row) for row in members)
    return rows
