"""Incremental counting equals ``stats_rebuild`` exactly, whatever the order."""

from __future__ import annotations

import io
import random
import re

import pytest
from django.core.management import CommandError, call_command

from stats.models import (
    CountedTable,
    GameStat,
    PlayerGameStat,
    PlayerResult,
    Rating,
    RatingChange,
)
from stats.services import stats_rebuild, table_record, table_recount
from stats.simulate import matches_play, tables_insert

pytestmark = pytest.mark.django_db


def snapshot() -> dict[str, list]:
    """Every read-model row, without ids and timestamps of writing."""
    return {
        "counted": sorted(
            CountedTable.objects.values_list(
                "table_id",
                "game",
                "players",
                "finished_at",
                "rated",
                "rating_input",
                "contribution",
            )
        ),
        "results": sorted(
            PlayerResult.objects.values_list(
                "table_id", "seat", "user_id", "side", "place", "score", "won", "rated"
            )
        ),
        "players": sorted(
            PlayerGameStat.objects.values_list("user_id", "game", "counters")
        ),
        "games": sorted(GameStat.objects.values_list("game", "counters")),
        "ratings": sorted(
            Rating.objects.values_list("user_id", "game", "mu", "sigma", "matches")
        ),
        "changes": sorted(
            RatingChange.objects.values_list(
                "table_id",
                "user_id",
                "seat",
                "game",
                "finished_at",
                "place",
                "expected_place",
                "before_mu",
                "before_sigma",
                "after_mu",
                "after_sigma",
                "matches",
            )
        ),
    }


def _mixed_tables(people, bot, count: int) -> list[int]:
    pool = people(8)
    bots = [bot("random"), bot("basic"), bot("strong")]
    rng = random.Random(14)
    matches = matches_play(count, seed=14)
    seatings = []
    for match in matches:
        seating = rng.sample(pool, match.players)
        for s in range(match.players):
            if rng.random() < 0.2:
                seating[s] = rng.choice(bots)
        seatings.append(seating)
    rated = tables_insert(
        matches[: count - 10], seatings[: count - 10], creator=pool[0]
    )
    unrated = tables_insert(
        matches[count - 10 :], seatings[count - 10 :], creator=pool[0], rated=False
    )
    return rated + unrated


@pytest.mark.timeout(240)
def test_incremental_in_any_order_equals_the_rebuild(people, bot):
    ids = _mixed_tables(people, bot, 200)
    order = ids[:]
    random.Random(3).shuffle(order)  # tasks finish in any order
    for table_id in order:
        assert table_record(table_id=table_id) is True
    table_recount(table_id=ids[17])  # and an admin recount in between
    incremental = snapshot()
    assert len(incremental["counted"]) == 200
    assert len(incremental["changes"]) > 400
    assert [row[0] for row in incremental["games"]] == ["alager", "alkort", "allegra"]

    assert stats_rebuild(batch=37) == 200

    assert snapshot() == incremental


def test_the_command_rebuilds_with_a_progress_bar(people, bot):
    ids = _mixed_tables(people, bot, 12)
    for table_id in ids:
        table_record(table_id=table_id)
    before = snapshot()
    PlayerGameStat.objects.all().delete()
    out, err = io.StringIO(), io.StringIO()

    call_command("stats_rebuild", stdout=out, stderr=err)

    assert snapshot() == before
    assert out.getvalue().startswith("Counted 12 finished tables in ")
    assert "12/12" in err.getvalue()
    # no bar drawn before the count is known: every frame shows "n/12"
    frames = [frame for frame in re.split(r"[\r\n]", err.getvalue()) if frame.strip()]
    assert frames and all("/12 " in frame for frame in frames), frames


def test_a_recount_gives_the_same_figures(people, bot):
    ids = _mixed_tables(people, bot, 15)
    for table_id in ids:
        table_record(table_id=table_id)
    before = snapshot()

    assert table_recount(table_id=ids[3]) is True
    assert table_recount(table_id=ids[-1]) is True

    assert snapshot() == before


def test_a_table_counted_late_is_rated_in_finish_order(people, finished_table):
    ada, bob, cy = people(3)
    early = finished_table("alkort", [ada, bob], seed="early", options={"target": 2})
    late = finished_table("alkort", [ada, cy], seed="late", options={"target": 2})

    table_record(table_id=late)  # the earlier table's task was lost …
    table_record(table_id=early)  # … and the sweep counts it afterwards

    history = list(RatingChange.objects.filter(user=ada).order_by("finished_at"))
    assert [c.table_id for c in history] == [early, late]
    assert (history[0].before_mu, history[0].matches) == (25.0, 1)
    assert (history[1].before_mu, history[1].before_sigma) == (
        history[0].after_mu,
        history[0].after_sigma,
    )
    rating = Rating.objects.get(user=ada)
    assert (rating.mu, rating.sigma, rating.matches) == (
        history[1].after_mu,
        history[1].after_sigma,
        2,
    )
    late_first = snapshot()
    stats_rebuild()
    assert snapshot() == late_first


@pytest.mark.parametrize("batch", ["0", "-3", "x"])
def test_a_bad_batch_is_refused_before_anything_is_deleted(people, bot, batch):
    # A batch of 0 or less read no table: every statistic and rating was
    # deleted and the command still said "Counted 0 finished tables", exit 0.
    ids = _mixed_tables(people, bot, 12)
    for table_id in ids:
        table_record(table_id=table_id)
    before = snapshot()

    with pytest.raises(CommandError, match="argument --batch: "):
        call_command("stats_rebuild", "--batch", batch, "--no-progress")

    assert snapshot() == before


def test_the_service_refuses_a_batch_below_one(people, bot):
    ids = _mixed_tables(people, bot, 12)
    for table_id in ids:
        table_record(table_id=table_id)
    before = snapshot()

    with pytest.raises(ValueError, match="batch must be at least 1"):
        stats_rebuild(batch=0)

    assert snapshot() == before


def test_the_command_counts_one_table_in_the_singular(people, bot):
    [table_id] = _mixed_tables(people, bot, 1)
    table_record(table_id=table_id)
    out = io.StringIO()

    call_command("stats_rebuild", "--no-progress", stdout=out)

    assert out.getvalue().startswith("Counted 1 finished table in ")
