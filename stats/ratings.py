"""OpenSkill ratings (Plackett–Luce, the package's defaults: μ 25, σ 25/3).

``RatingBook`` holds ratings in memory and applies one rated table at a time;
the task, the recount and the rebuild all go through ``RatingBook.apply``, so
the same tables in the same (finish) order give bit-for-bit the same numbers.

Shapes (``stats.projection._rating_input``): Alkort with four players is two
teams of two, ranked by their side's place; every other table is one team per
seat ranked by place, equal places being a tie (OpenSkill's ``ranks``).

A house bot account may hold several seats of one table (three ``basic``
bots against one person). Each seat then plays as its own copy of the bot's
rating, and the bot's new rating is the mean of its copies' posteriors. Each
seat is also its own result: the bot gets one ``Change`` per seat, with that
seat's place and that seat's expected place (all sharing the one update), so
its history compares like with like, as its counters and head to head do.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma
#: Rated matches before a rating stops being provisional.
PROVISIONAL_MATCHES = 10


def display(mu: float, sigma: float) -> float:
    """The conservative rating shown and ranked by: μ − 3σ."""
    return mu - 3 * sigma


@dataclass(slots=True)
class Entry:
    mu: float
    sigma: float
    matches: int


@dataclass(frozen=True, slots=True)
class Change:
    """One player's update at one table (a ``RatingChange`` row, unsaved)."""

    table_id: int
    user_id: int
    seat: int
    finished_at: datetime
    place: int
    expected_place: float
    before: tuple[float, float]
    after: tuple[float, float]
    matches: int


class RatingBook:
    """Current ratings of one game's players, updated table by table."""

    def __init__(self, entries: dict[int, Entry] | None = None) -> None:
        self.entries: dict[int, Entry] = entries if entries is not None else {}

    def get(self, user_id: int) -> Entry:
        entry = self.entries.get(user_id)
        if entry is None:
            entry = self.entries[user_id] = Entry(DEFAULT_MU, DEFAULT_SIGMA, 0)
        return entry

    def apply(
        self, *, table_id: int, finished_at: datetime, rating_input: dict[str, Any]
    ) -> list[Change]:
        """Rate one table; returns each seat's change, in (user id, seat) order.

        A player holding one seat (every person) gets one change; a house bot
        holding several gets one per seat, each with its seat's place and
        expected place, and all with the bot's one new rating.
        """
        teams: list[list[int]] = rating_input["teams"]
        seats: list[list[int]] = rating_input["seats"]
        ranks: list[int] = rating_input["ranks"]
        before = {u: self.get(u) for team in teams for u in team}
        model_teams = [
            [MODEL.rating(mu=before[u].mu, sigma=before[u].sigma) for u in team]
            for team in teams
        ]
        expected = _expected_places(model_teams)
        rated = MODEL.rate(model_teams, ranks=list(ranks))
        posts: dict[int, list[tuple[float, float]]] = {}
        # user -> [(seat, place, expected place)], one a seat held
        held: dict[int, list[tuple[int, int, float]]] = {}
        for t, team in enumerate(teams):
            for k, user in enumerate(team):
                r = rated[t][k]
                posts.setdefault(user, []).append((r.mu, r.sigma))
                held.setdefault(user, []).append((seats[t][k], ranks[t], expected[t]))
        changes: list[Change] = []
        for user in sorted(posts):
            entry = before[user]
            copies = posts[user]
            if len(copies) == 1:
                mu, sigma = copies[0]
            else:
                mu = statistics.fmean(c[0] for c in copies)
                sigma = statistics.fmean(c[1] for c in copies)
            old = (entry.mu, entry.sigma)
            entry.mu, entry.sigma = mu, sigma
            entry.matches += 1
            changes.extend(
                Change(
                    table_id=table_id,
                    user_id=user,
                    seat=seat,
                    finished_at=finished_at,
                    place=place,
                    expected_place=expected_place,
                    before=old,
                    after=(mu, sigma),
                    matches=entry.matches,
                )
                for seat, place, expected_place in sorted(held[user])
            )
        return changes


def _expected_places(teams: list[list[Any]]) -> list[float]:
    """Each team's expected place, on the scale of the places it gets.

    Places rank seats as in sports (a side of two that finishes ahead pushes
    the rest down two places: four-player Alkort's places are 1, 1, 3, 3), so
    a team's expected place is 1 + the chance each other team finishes ahead
    times that team's seats. With one seat a team, that is 1 + the chance of
    each other player finishing ahead. Pairwise win chances from OpenSkill's
    own ``predict_win``.
    """
    n = len(teams)
    expected = [1.0] * n
    for i in range(n):
        for j in range(i + 1, n):
            p_i, p_j = MODEL.predict_win([teams[i], teams[j]])
            expected[i] += p_j * len(teams[j])
            expected[j] += p_i * len(teams[i])
    return expected
