"""Every figure of the public API against an independent recomputation.

A mix of finished tables (people and bots, every game, Alkort partnerships,
forced ties, a bot holding several seats, unrated and bot-only tables) is
counted in shuffled order; the expected figures are then computed here from
the tables' outcomes alone, with the ``openskill`` package called directly on
the same results in finish order, and compared with what the API answers —
and again after ``stats_rebuild``.
"""

from __future__ import annotations

import random
import statistics
from collections import defaultdict
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import Table
from stats.services import stats_rebuild, table_record
from stats.simulate import Match, match_play, tables_insert
from tests.stats.matches import outcome_forced

pytestmark = pytest.mark.django_db

QUICK = {
    "alager": {"penalty_limit": 2},
    "alkort": {"target": 2},
    "allegra": {"rounds": 1},
}


def plan_build(people, bot) -> list[tuple[Match, list, bool]]:
    p = people(6)
    rnd, basic, strong = bot("random"), bot("basic"), bot("strong")
    plan: list[tuple[Match, list, bool]] = []

    def add(game, seating, seed, rated=True, places=None):
        m = match_play(game, len(seating), seed, QUICK[game])
        if places is not None:
            m = outcome_forced(m, places, [10 * place for place in places])
        plan.append((m, seating, rated))

    add("alager", [p[0], p[1], p[2]], "a1")
    add("alager", [p[0], p[1], p[2]], "a2", places=[1, 1, 3])
    add("alager", [p[3], basic, basic, p[0]], "a3")
    add("alager", [p[1], p[2], strong], "a4", places=[2, 2, 1])
    add("alager", [p[1], p[2], p[3]], "a5", rated=False)
    add("alager", [rnd, basic, strong], "a6")  # bots only: never rated
    add("alkort", [p[0], p[1], p[2], p[3]], "k1")
    add("alkort", [p[0], p[1], p[2], p[3]], "k2", places=[2, 1, 2, 1])
    add("alkort", [p[4], basic, p[5], basic], "k3")
    add("alkort", [p[2], basic, basic, p[3]], "k3b")  # the bot on both sides
    add("alkort", [p[0], p[4]], "k4")
    add("alkort", [p[0], p[4]], "k5", places=[1, 1])
    add("alkort", [p[1], p[5], p[0], p[4]], "k6", places=[1, 1, 1, 1])
    add("allegra", [p[0], p[1], p[2]], "g1")
    add("allegra", [p[0], p[1], p[2], p[3]], "g2", places=[1, 1, 1, 4])
    add("allegra", [p[5], strong, rnd], "g3", places=[2, 1, 2])
    add("allegra", [p[4], p[5]], "g4", rated=False)
    add("allegra", [p[2], basic, basic, basic], "g5")
    return plan


def plan_insert(plan, creator) -> list[int]:
    ids = []
    for i, (match, seating, rated) in enumerate(plan):
        # One insert per table, three minutes apart: distinct finish times.
        [tid] = tables_insert(
            [match],
            [seating],
            creator=creator,
            rated=rated,
            start=timezone.now() - timedelta(hours=2) + timedelta(minutes=3 * i),
        )
        ids.append(tid)
    return ids


def figures_expected(plan, ids) -> dict[str, Any]:
    model = PlackettLuce()
    ratings: dict[tuple[str, int], tuple[float, float, int]] = {}
    history: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    figures: dict[tuple[str, int], dict[str, int]] = defaultdict(
        lambda: defaultdict(int)
    )
    for (match, seating, rated), tid in zip(plan, ids, strict=True):
        game, outcome = match.game, match.outcome
        places, scores = outcome["places"], outcome["scores"]
        really_rated = rated and not all(u.is_bot for u in seating)
        g = figures[(game, 0)]  # the game's own figures, under user 0
        g["matches"] += 1
        g["rated_matches"] += int(really_rated)
        g[f"matches_{len(seating)}"] += 1
        g[f"draws_{len(seating)}"] += int(all(p == 1 for p in places))
        for s, user in enumerate(seating):
            f = figures[(game, user.pk)]
            f["matches"] += 1
            f["wins"] += int(places[s] == 1)
            f["place_sum"] += places[s]
            f["score_sum"] += scores[s]
            f["rated_matches"] += int(really_rated)
        if not really_rated:
            continue
        if game == "alkort" and len(seating) == 4:
            sides = [[0, 2], [1, 3]]
        else:
            sides = [[s] for s in range(len(seating))]
        ranks = [places[side[0]] for side in sides]

        now = {
            u.pk: ratings.get((game, u.pk), (model.mu, model.sigma, 0)) for u in seating
        }
        teams = [
            [
                model.rating(mu=now[seating[s].pk][0], sigma=now[seating[s].pk][1])
                for s in side
            ]
            for side in sides
        ]
        new = model.rate(teams, ranks=ranks)
        posts: dict[int, list[tuple[float, float]]] = defaultdict(list)
        held: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for t, side in enumerate(sides):
            for k, s in enumerate(side):
                uid = seating[s].pk
                posts[uid].append((new[t][k].mu, new[t][k].sigma))
                held[uid].append((s, places[s]))
        for uid, copies in posts.items():
            before = ratings.get((game, uid), (model.mu, model.sigma, 0))
            mu = statistics.fmean(c[0] for c in copies)
            sigma = statistics.fmean(c[1] for c in copies)
            ratings[(game, uid)] = (mu, sigma, before[2] + 1)
            # Each seat held is its own entry (its own place), sharing the update.
            history[(game, uid)].extend(
                {
                    "table": tid,
                    "seat": seat,
                    "place": place,
                    "before": (before[0], before[1]),
                    "after": (mu, sigma),
                    "matches": before[2] + 1,
                }
                for seat, place in sorted(held[uid])
            )
    return {"ratings": ratings, "history": history, "figures": figures}


def api_check(api_client, users, expected) -> None:
    """Compare the API with ``expected``. It reads a few hundred pages: as a
    person (600 requests a minute), not anonymously (120)."""
    api_client.force_authenticate(user=next(u for u in users if not u.is_bot))
    ratings, history, figures = (
        expected["ratings"],
        expected["history"],
        expected["figures"],
    )
    for user in users:
        body = api_client.get(f"/api/stats/players/{user.username}/").json()
        for game in ("alager", "alkort", "allegra"):
            f = figures.get((game, user.pk))
            got = body["games"][game]
            if f is None:
                assert got["matches"] == 0
                assert got["average_place"] is None
            else:
                n = f["matches"]
                assert got["matches"] == n, (user, game)
                assert got["wins"] == f["wins"], (user, game)
                assert got["win_rate"] == pytest.approx(f["wins"] / n)
                assert got["average_place"] == pytest.approx(f["place_sum"] / n)
                assert got["average_score"] == pytest.approx(f["score_sum"] / n)
                assert got["rated_matches"] == f["rated_matches"]
            r = ratings.get((game, user.pk))
            if r is None:
                assert body["ratings"][game] is None, (user, game)
                continue
            mu, sigma, m = r
            assert body["ratings"][game]["mu"] == pytest.approx(mu, abs=1e-9)
            assert body["ratings"][game]["sigma"] == pytest.approx(sigma, abs=1e-9)
            assert body["ratings"][game]["matches"] == m
            assert body["ratings"][game]["display"] == pytest.approx(
                mu - 3 * sigma, abs=1e-9
            )
            hist = api_client.get(
                f"/api/stats/players/{user.username}/ratings/{game}/?page_size=2"
            )
            entries = []
            page = hist.json()
            entries.extend(page["results"])
            while page["next"]:
                page = api_client.get(page["next"]).json()
                entries.extend(page["results"])
            want = history[(game, user.pk)]
            assert [(e["table"], e["seat"]) for e in entries] == [
                (w["table"], w["seat"]) for w in want
            ]
            for e, w in zip(entries, want, strict=True):
                assert e["place"] == w["place"]
                assert e["matches"] == w["matches"]
                assert (e["before"]["mu"], e["before"]["sigma"]) == pytest.approx(
                    w["before"], abs=1e-9
                )
                assert (e["after"]["mu"], e["after"]["sigma"]) == pytest.approx(
                    w["after"], abs=1e-9
                )
    for game in ("alager", "alkort", "allegra"):
        g = figures[(game, 0)]
        answer = api_client.get(f"/api/stats/games/{game}/")
        assert answer.status_code == 200, answer.content
        body = answer.json()
        assert (body["matches"], body["rated_matches"]) == (
            g["matches"],
            g["rated_matches"],
        )
        for n, row in body["first_player"].items():
            assert (row["matches"], row["draws"]) == (
                g[f"matches_{n}"],
                g[f"draws_{n}"],
            ), (game, n)
            assert 1 <= row["first_player_average_place"] <= int(n)
        assert sum(r["matches"] for r in body["first_player"].values()) == g["matches"]
        board = api_client.get(f"/api/stats/leaderboards/{game}/?page_size=500").json()
        rows = [(uid, r) for (g, uid), r in ratings.items() if g == game]
        assert board["count"] == len(rows)
        got_displays = [e["display"] for e in board["results"]]
        want_displays = sorted((mu - 3 * s for _, (mu, s, _m) in rows), reverse=True)
        assert got_displays == pytest.approx(want_displays, abs=1e-9)
        assert [e["rank"] for e in board["results"]] == [
            1 + sum(1 for d in got_displays if d > e["display"])
            for e in board["results"]
        ]


def test_every_api_figure_equals_an_independent_recomputation(api_client, people, bot):
    plan = plan_build(people, bot)
    ids = plan_insert(plan, plan[0][1][0])
    order = list(ids)
    random.Random(7).shuffle(order)
    for tid in order:
        table_record(table_id=tid)
    expected = figures_expected(plan, ids)
    users = {u.pk: u for _, seating, _ in plan for u in seating}.values()
    api_check(api_client, users, expected)
    stats_rebuild()
    api_check(api_client, users, expected)
    assert Table.objects.count() == len(ids)
