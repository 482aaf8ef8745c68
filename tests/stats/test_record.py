"""``table_record``: a finished table counted once, from its events."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.models import Table
from stats.models import (
    CountedTable,
    GameStat,
    PlayerGameStat,
    PlayerResult,
    Rating,
    RatingChange,
)
from stats.services import table_record
from stats.simulate import match_play

pytestmark = pytest.mark.django_db


def test_a_finished_table_gives_results_statistics_and_ratings(people, finished_table):
    ada, bob = people(2)
    match = match_play("alkort", 2, "rec-1", {"target": 3})
    table_id = finished_table("alkort", [ada, bob], match=match)

    assert table_record(table_id=table_id) is True

    outcome = match.outcome
    results = list(PlayerResult.objects.filter(table_id=table_id).order_by("seat"))
    assert [(r.user_id, r.place, r.score, r.won) for r in results] == [
        (ada.pk, outcome["places"][0], outcome["scores"][0], 0 in outcome["winners"]),
        (bob.pk, outcome["places"][1], outcome["scores"][1], 1 in outcome["winners"]),
    ]
    stat = PlayerGameStat.objects.get(user=ada, game="alkort").counters
    tricks = sum(
        1
        for e in match.events
        if e.type == "alkort.trick_won" and e.payload["seat"] == 0
    )
    deals = sum(1 for e in match.events if e.type == "alkort.deal_scored")
    moves = sum(
        1
        for e, seat in zip(match.events, match.seats, strict=True)
        if seat == 0
        and e.type
        in {"alkort.card_played", "alkort.exchange_passed", "alkort.stock_exchanged"}
    )
    assert stat["matches"] == 1
    assert stat["tricks"] == tricks
    assert stat["deals"] == deals
    assert stat["moves"] == moves
    assert stat["rated_matches"] == 1
    assert GameStat.objects.get(game="alkort").counters["matches"] == 1
    assert Rating.objects.filter(game="alkort").count() == 2
    assert RatingChange.objects.filter(table_id=table_id).count() == 2
    assert CountedTable.objects.filter(table_id=table_id).count() == 1


def test_counting_twice_changes_nothing(people, finished_table):
    table_id = finished_table("alager", people(3), options={"penalty_limit": 2})
    assert table_record(table_id=table_id) is True
    before = _snapshot()

    assert table_record(table_id=table_id) is False

    assert _snapshot() == before


def test_an_unfinished_or_missing_table_is_not_counted(people, finished_table):
    table_id = finished_table("alkort", people(2), options={"target": 2})
    Table.objects.filter(pk=table_id).update(status="playing")

    assert table_record(table_id=table_id) is False
    assert table_record(table_id=987654) is False
    assert not CountedTable.objects.exists()
    assert not PlayerGameStat.objects.exists()


def test_a_bot_only_table_is_counted_but_never_rated(bot, finished_table):
    table_id = finished_table(
        "alkort", [bot("random"), bot("basic")], options={"target": 2}, rated=True
    )

    assert table_record(table_id=table_id) is True

    assert CountedTable.objects.get(table_id=table_id).rated is False
    assert not Rating.objects.exists()
    assert PlayerGameStat.objects.filter(game="alkort").count() == 2


def test_an_unrated_table_counts_statistics_only(people, finished_table):
    table_id = finished_table("allegra", people(3), options={"rounds": 1}, rated=False)

    table_record(table_id=table_id)

    assert not Rating.objects.exists()
    assert PlayerGameStat.objects.filter(game="allegra").count() == 3


def _snapshot() -> tuple:
    return (
        sorted(PlayerGameStat.objects.values_list("user_id", "game", "counters")),
        sorted(GameStat.objects.values_list("game", "counters")),
        sorted(Rating.objects.values_list("user_id", "game", "mu", "sigma", "matches")),
        RatingChange.objects.count(),
        PlayerResult.objects.count(),
        CountedTable.objects.count(),
    )


@pytest.mark.django_db(transaction=True)
def test_concurrent_counts_of_one_table_count_it_once(people, finished_table):
    table_id = finished_table("alkort", people(4), options={"target": 2})
    barrier = threading.Barrier(4)
    answers: list[bool] = []

    def count() -> None:
        try:
            barrier.wait()
            answers.append(table_record(table_id=table_id))
        finally:
            connection.close()

    threads = [threading.Thread(target=count) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert sorted(answers) == [False, False, False, True]
    assert PlayerResult.objects.filter(table_id=table_id).count() == 4
    assert GameStat.objects.get(game="alkort").counters["matches"] == 1
    assert RatingChange.objects.count() == 4


@pytest.mark.django_db(transaction=True)
def test_two_tables_finishing_at_once_lose_no_rating_update(people, finished_table):
    ada, bob = people(2)
    ids = [
        finished_table("alkort", [ada, bob], seed=f"race-{i}", options={"target": 2})
        for i in range(2)
    ]
    barrier = threading.Barrier(2)

    def count(table_id: int) -> None:
        try:
            barrier.wait()
            table_record(table_id=table_id)
        finally:
            connection.close()

    threads = [threading.Thread(target=count, args=(i,)) for i in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert Rating.objects.get(user=ada, game="alkort").matches == 2
    history = list(
        RatingChange.objects.filter(user=ada).order_by("finished_at", "table_id")
    )
    assert [c.table_id for c in history] == ids
    assert history[1].before_mu == history[0].after_mu
    assert history[1].before_sigma == history[0].after_sigma
