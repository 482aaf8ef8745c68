"""The stats data migration run with rows in the tables: on the test database
(PostgreSQL) and, in a process of its own, on the embedded default's SQLite.

0002 gives each rating change its seat: a person's one seat, and for a house
bot's row from before (one a table) the seat whose place it held, its best.
"""

from pathlib import Path

import pytest

from tests.helpers import migration_script_run

MIGRATE = """
from datetime import datetime, timezone

BEFORE = ("stats", "0001_stats_models")
AFTER = ("stats", "0002_ratingchange_per_seat")

try:
    apps = migrate(BEFORE)
    User = apps.get_model("accounts", "User")
    ada = User.objects.create(username="ada", username_folded="ada")
    bot = User.objects.create(username="bot-x", username_folded="bot-x", is_bot=True)
    table = apps.get_model("games", "Table").objects.create(
        game="alager", players=3, created_by=ada
    )
    at = datetime(2026, 1, 1, tzinfo=timezone.utc)
    Result = apps.get_model("stats", "PlayerResult")
    Change = apps.get_model("stats", "RatingChange")
    for seat, user, place in ((0, ada, 2), (1, bot, 3), (2, bot, 1)):
        Result.objects.create(
            table=table, seat=seat, user=user, game="alager", players=3, side=seat,
            place=place, score=0, won=place == 1, rated=True, finished_at=at,
        )
    for user, place in ((ada, 2), (bot, 1)):
        Change.objects.create(
            table=table, user=user, game="alager", finished_at=at, place=place,
            expected_place=2.0, before_mu=25, before_sigma=8, after_mu=25,
            after_sigma=8, matches=1,
        )
    Change = migrate(AFTER).get_model("stats", "RatingChange")
    out["forward"] = sorted(
        list(r) for r in Change.objects.values_list("user__username", "seat", "place")
    )
    # A bot's table counted since: a row per seat, which going back folds
    # into its best seat's (the rule before).
    Change.objects.filter(user_id=bot.pk).update(seat=2)
    Change.objects.create(
        table_id=table.pk, user_id=bot.pk, seat=1, game="alager", finished_at=at,
        place=3, expected_place=2.0, before_mu=25, before_sigma=8, after_mu=25,
        after_sigma=8, matches=1,
    )
    Change = migrate(BEFORE).get_model("stats", "RatingChange")
    out["backward"] = sorted(
        list(r) for r in Change.objects.values_list("user__username", "place")
    )
finally:
    migrate_latest("stats")
"""

EXPECTED = {
    "forward": [["ada", 0, 2], ["bot-x", 2, 1]],
    "backward": [["ada", 2], ["bot-x", 1]],
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_old_rating_changes_get_their_seat() -> None:
    out = migration_script_run(MIGRATE)

    assert out == {"vendor": "postgresql", **EXPECTED}


@pytest.mark.timeout(120)
def test_the_same_on_the_embedded_default(tmp_path: Path) -> None:
    out = migration_script_run(MIGRATE, embedded=tmp_path)

    assert out == {"vendor": "sqlite", **EXPECTED}
