"""Ratings equal a Plackett–Luce update computed by hand (Weng & Lin 2011).

``pl_update`` below is written from the paper's Algorithm 4 with OpenSkill's
defaults (β = σ₀/2, τ = σ₀/100, κ = 0.0001, γ = √σ²ᵢ / c), independently of
the package; each shape Cardroom rates is checked against it through the
real counting path.
"""

from __future__ import annotations

import math

import pytest

from stats.models import Rating, RatingChange
from stats.ratings import PROVISIONAL_MATCHES
from stats.selectors import rating_get
from stats.services import table_record
from stats.simulate import match_play
from tests.stats.matches import outcome_forced

pytestmark = pytest.mark.django_db

MU, SIGMA = 25.0, 25 / 3
BETA, TAU, KAPPA = SIGMA / 2, SIGMA / 100, 0.0001


def pl_update(
    teams: list[list[tuple[float, float]]], ranks: list[int]
) -> list[list[tuple[float, float]]]:
    teams = [[(m, math.sqrt(s * s + TAU * TAU)) for m, s in t] for t in teams]
    mu = [sum(m for m, _ in t) for t in teams]
    var = [sum(s * s for _, s in t) for t in teams]
    c = math.sqrt(sum(v + BETA * BETA for v in var))
    k = range(len(teams))
    ties = [sum(1 for r in ranks if r == ranks[q]) for q in k]
    below = [sum(math.exp(mu[i] / c) for i in k if ranks[i] >= ranks[q]) for q in k]
    out = []
    for i, team in enumerate(teams):
        omega = delta = 0.0
        for q in k:
            if ranks[q] <= ranks[i]:
                p = math.exp(mu[i] / c) / below[q]
                omega += ((1 - p) if q == i else -p) / ties[q]
                delta += p * (1 - p) / ties[q]
        omega *= var[i] / c
        delta *= (math.sqrt(var[i]) / c) * var[i] / c**2
        out.append(
            [
                (
                    m + s * s / var[i] * omega,
                    s * math.sqrt(max(1 - s * s / var[i] * delta, KAPPA)),
                )
                for m, s in team
            ]
        )
    return out


def _rating(user) -> tuple[float, float]:
    r = Rating.objects.get(user=user)
    return (r.mu, r.sigma)


def test_alkort_partnerships_are_rated_as_two_teams(people, finished_table):
    a0, b1, a2, b3 = people(4)
    match = outcome_forced(
        match_play("alkort", 4, "teams", {"target": 2}), [1, 2, 1, 2]
    )
    table_record(table_id=finished_table("alkort", [a0, b1, a2, b3], match=match))

    [[w0, w2], [l1, l3]] = pl_update([[(MU, SIGMA), (MU, SIGMA)]] * 2, [1, 2])
    assert _rating(a0) == pytest.approx(w0, abs=1e-12)
    assert _rating(a2) == pytest.approx(w2, abs=1e-12)
    assert _rating(b1) == pytest.approx(l1, abs=1e-12)
    assert _rating(b3) == pytest.approx(l3, abs=1e-12)
    assert w0[0] == pytest.approx(26.964295, abs=1e-6)


def test_two_player_alkort_is_head_to_head_from_earlier_ratings(people, finished_table):
    ada, bob = people(2)
    first = outcome_forced(match_play("alkort", 2, "h1", {"target": 2}), [1, 2])
    second = outcome_forced(match_play("alkort", 2, "h2", {"target": 2}), [2, 1])
    table_record(table_id=finished_table("alkort", [ada, bob], match=first))
    table_record(table_id=finished_table("alkort", [ada, bob], match=second))

    [[a1], [b1]] = pl_update([[(MU, SIGMA)], [(MU, SIGMA)]], [1, 2])
    [[a2], [b2]] = pl_update([[a1], [b1]], [2, 1])
    assert _rating(ada) == pytest.approx(a2, abs=1e-12)
    assert _rating(bob) == pytest.approx(b2, abs=1e-12)
    history = list(RatingChange.objects.filter(user=ada).order_by("finished_at"))
    assert [(c.place, c.matches) for c in history] == [(1, 1), (2, 2)]
    assert (history[1].before_mu, history[1].before_sigma) == pytest.approx(a1)
    # Even ratings expect an even result; after a win, a win is expected.
    assert history[0].expected_place == pytest.approx(1.5)
    assert history[1].expected_place < 1.5


def test_placements_with_a_tie_share_the_place(people, finished_table):
    ada, bob, cy = people(3)
    match = outcome_forced(
        match_play("alager", 3, "tie", {"penalty_limit": 1}), [1, 1, 3]
    )
    table_record(table_id=finished_table("alager", [ada, bob, cy], match=match))

    [[a], [b], [c]] = pl_update([[(MU, SIGMA)]] * 3, [1, 1, 3])
    assert _rating(ada) == pytest.approx(a, abs=1e-12)
    assert _rating(bob) == pytest.approx(b, abs=1e-12)
    assert _rating(cy) == pytest.approx(c, abs=1e-12)
    assert _rating(ada) == _rating(bob)
    assert rating_get(user=ada, game="alager") == {
        "mu": a[0],
        "sigma": a[1],
        "display": a[0] - 3 * a[1],
        "matches": 1,
        "provisional": True,
    }


def test_a_bot_in_several_seats_takes_the_mean_of_its_copies(
    people, bot, finished_table
):
    (ada,) = people(1)
    basic = bot("basic")
    match = outcome_forced(
        match_play("alager", 3, "bots", {"penalty_limit": 1}), [2, 1, 3]
    )
    table_record(table_id=finished_table("alager", [ada, basic, basic], match=match))

    [[a], [b1], [b2]] = pl_update([[(MU, SIGMA)]] * 3, [2, 1, 3])
    assert _rating(ada) == pytest.approx(a, abs=1e-12)
    assert _rating(basic) == pytest.approx(
        ((b1[0] + b2[0]) / 2, (b1[1] + b2[1]) / 2), abs=1e-12
    )
    # One rating update for the table, however many seats the bot held.
    assert Rating.objects.get(user=basic).matches == 1


def test_a_bot_in_several_seats_has_each_seats_result_in_its_history(
    people, bot, finished_table, api_client
):
    """Each seat is its own result, place and expected place alike: the best
    seat's place beside the seats' mean expected place made a bot look better
    than its ratings predicted (here 1 against 2, where the seats did 1 and 3
    against 2 and 2)."""
    (ada,) = people(1)
    basic = bot("basic")
    match = outcome_forced(
        match_play("alager", 3, "bots", {"penalty_limit": 1}), [2, 1, 3]
    )
    table_id = finished_table("alager", [ada, basic, basic], match=match)
    table_record(table_id=table_id)

    rows = list(RatingChange.objects.filter(user=basic).order_by("seat"))
    assert [(c.seat, c.place, c.matches) for c in rows] == [(1, 1, 1), (2, 3, 1)]
    # Even ratings: each seat expects the middle place of three.
    assert [c.expected_place for c in rows] == pytest.approx([2.0, 2.0])
    # The seats share the one update of the bot's rating.
    assert {(c.before_mu, c.after_mu, c.after_sigma) for c in rows} == {
        (MU, *_rating(basic))
    }
    body = api_client.get(f"/api/stats/players/{basic.username}/ratings/alager/").json()
    assert [(e["table"], e["seat"], e["place"]) for e in body["results"]] == [
        (table_id, 1, 1),
        (table_id, 2, 3),
    ]
    # On average the history's places are the counters' (every seat counted).
    places = [e["place"] for e in body["results"]]
    figures = api_client.get(f"/api/stats/players/{basic.username}/").json()
    assert figures["games"]["alager"]["average_place"] == sum(places) / len(places)
    # A person holds one seat: one entry, as always.
    (mine,) = api_client.get(
        f"/api/stats/players/{ada.username}/ratings/alager/"
    ).json()["results"]
    assert (mine["seat"], mine["place"]) == (0, 2)


def test_provisional_until_ten_rated_matches(people, finished_table):
    ada, bob = people(2)
    for i in range(PROVISIONAL_MATCHES):
        table_record(
            table_id=finished_table(
                "alkort", [ada, bob], seed=f"prov-{i}", options={"target": 1}
            )
        )
        rating = rating_get(user=ada, game="alkort")
        assert rating is not None
        assert rating["matches"] == i + 1
        assert rating["provisional"] is (i + 1 < PROVISIONAL_MATCHES)
    assert rating_get(user=ada, game="alager") is None
    # The tournaments' seeding calls it positionally.
    assert rating_get(ada, "alkort") == rating_get(user=ada, game="alkort")


def test_partners_places_and_expected_places_share_the_seats_scale(
    people, finished_table
):
    """The rules rank four-player Alkort's seats 1, 1, 3, 3 (the outcome's
    places, as in sports); the history keeps that place, and the expected
    place beside it reads on the same scale: 1 + 2 × the chance of losing."""
    seating = people(4)
    match = match_play("alkort", 4, "sides", {"target": 2})
    assert sorted(match.outcome["places"]) == [1, 1, 3, 3]
    table_record(table_id=finished_table("alkort", seating, match=match))

    for seat, user in enumerate(seating):
        (change,) = RatingChange.objects.filter(user=user)
        assert change.place == match.outcome["places"][seat]
        # Even ratings: an even chance of losing, so the middle of 1 and 3.
        assert change.expected_place == pytest.approx(2.0)
