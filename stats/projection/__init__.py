"""Turn one finished table's events into what it adds to the statistics.

``project(table)`` is pure: the same ``TableInput`` always gives the same
``Contribution``, whichever path (the task, a recount, the rebuild) calls it,
which is what makes the incremental results equal the rebuild. Every number
in a contribution is an integer sum (averages are computed when read), so
contributions add up in any order.

Each game's own counters come from ``stats.projection.<game>``; the names are
listed in ``docs/stats.md``. Only public facts are read (the final outcome,
scored deals, revealed hands at a showdown): nothing a seat could not see by
the end of the match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import rules
from stats.projection import alager, alkort, allegra
from stats.sources import TableInput

Counters = dict[str, Any]

GAME_PROJECTIONS: dict[
    str, Callable[[TableInput], tuple[list[Counters], Counters, int | None]]
] = {
    "alager": alager.project,
    "alkort": alkort.project,
    "allegra": allegra.project,
}


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    user_id: int
    side: int
    place: int
    score: int
    won: bool


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one table adds: per seat, per game, and the rating update's input."""

    results: list[SeatResult]
    seat_counters: list[Counters]
    game_counters: Counters
    rating_input: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": [
                {"seat": r.seat, "user": r.user_id, "counters": c}
                for r, c in zip(self.results, self.seat_counters, strict=True)
            ],
            "game": self.game_counters,
        }


def outcome_of(table: TableInput) -> dict[str, Any]:
    """The final outcome, from the table's ``match_ended`` event."""
    for event in reversed(table.facts):
        if event.type.endswith(".match_ended"):
            outcome: dict[str, Any] = event.payload["outcome"]
            return outcome
    raise ValueError(f"Table {table.table_id} has no match_ended event")


def side_of(game: str, players: int, seat: int) -> int:
    """Alkort 4-player partnerships: seats 0+2 and 1+3; otherwise each seat alone."""
    if game == "alkort" and players == 4:
        return seat % 2
    return seat


def project(table: TableInput) -> Contribution:
    """The statistics ``table`` adds (see the module docstring)."""
    outcome = outcome_of(table)
    places, scores, winners = outcome["places"], outcome["scores"], outcome["winners"]
    own, game_counters, first = GAME_PROJECTIONS[table.game](table)
    n = table.players
    results: list[SeatResult] = []
    seat_counters: list[Counters] = []
    for seat in table.seats:
        s = seat.index
        won = s in winners
        results.append(
            SeatResult(
                s, seat.user_id, side_of(table.game, n, s), places[s], scores[s], won
            )
        )
        counters: Counters = {
            "matches": 1,
            "wins": int(won),
            "place_sum": places[s],
            "score_sum": int(scores[s]),
            "moves": table.moves.get(s, 0) + own[s].pop("_moves", 0),
            "timeouts": table.timeouts.get(s, 0),
            "rated_matches": 0,
            "first_player": int(first == s),
            "first_player_wins": int(first == s and won),
        }
        counters.update(own[s])
        seat_counters.append(counters)
    for c in own:
        c.pop("_moves", None)
    rating_input = _rating_input(table, results)
    if rating_input is not None:
        for c in seat_counters:
            c["rated_matches"] = 1
    seconds = 0
    if table.started_at is not None:
        seconds = max(0, int((table.finished_at - table.started_at).total_seconds()))
    key = str(n)
    common: Counters = {
        "matches": 1,
        "rated_matches": int(rating_input is not None),
        "moves": sum(c["moves"] for c in seat_counters),
        "seconds": seconds,
        "timeouts": sum(table.timeouts.values()),
        "by_players": {
            key: {
                "matches": 1,
                "first_player_wins": int(first is not None and first in winners),
                "first_player_place_sum": places[first] if first is not None else 0,
                "draws": int(len(winners) == n),
            }
        },
    }
    common.update(game_counters)
    return Contribution(results, seat_counters, common, rating_input)


def _rating_input(
    table: TableInput, results: list[SeatResult]
) -> dict[str, Any] | None:
    """Teams and places for OpenSkill, or None for an unrated table.

    A table counts as rated when it was created rated and a person sat at it
    (bot-only tables never are). Alkort partnerships are teams of two; every
    other table is one team per seat, with shared places for ties.
    """
    if not table.rated or all(s.is_bot for s in table.seats):
        return None
    if len(results) != table.players:
        return None
    sides: dict[int, list[SeatResult]] = {}
    for r in results:
        sides.setdefault(r.side, []).append(r)
    ordered = [sides[k] for k in sorted(sides)]
    return {
        "teams": [[r.user_id for r in team] for team in ordered],
        "seats": [[r.seat for r in team] for team in ordered],
        "ranks": [team[0].place for team in ordered],
    }


def counters_add(into: Counters, other: Counters, sign: int = 1) -> Counters:
    """Add (or with ``sign=-1`` take away) ``other``'s sums into ``into``."""
    for key, value in other.items():
        if isinstance(value, dict):
            counters_add(into.setdefault(key, {}), value, sign)
        else:
            into[key] = into.get(key, 0) + sign * value
    return into


def counters_empty(counters: Counters) -> bool:
    """Whether every sum is zero (what is left after taking a table out)."""
    return all(
        counters_empty(v) if isinstance(v, dict) else v == 0 for v in counters.values()
    )


def first_event(table: TableInput, type_: str) -> rules.Event | None:
    for event in table.facts:
        if event.type == type_:
            return event
    return None
