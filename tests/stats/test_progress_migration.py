"""0005 fills each game's progress row from the markers of today, on
PostgreSQL and on the embedded default's SQLite: how many, the last in finish
order (the table id breaking a tie), the newest ``counted_at``; no row for a
game with nothing counted."""

from pathlib import Path

import pytest

from tests.helpers import migration_script_run

MIGRATE = """
from datetime import datetime, timedelta, timezone

BEFORE = ("stats", "0004_pendingtable")
AFTER = ("stats", "0005_gameprogress")

try:
    apps = migrate(BEFORE)
    User = apps.get_model("accounts", "User")
    Table = apps.get_model("games", "Table")
    Counted = apps.get_model("stats", "CountedTable")
    ada = User.objects.create(username="ada", username_folded="ada")
    at = datetime(2026, 1, 1, tzinfo=timezone.utc)
    made = {}
    for name, game, minutes, counted in (
        ("first", "alkort", 0, 1),
        ("tie_low", "alkort", 5, 9),
        ("tie_high", "alkort", 5, 2),
        ("early_late", "alkort", 1, 30),
        ("alone", "alager", 3, 4),
    ):
        table = Table.objects.create(
            game=game, players=2, status="finished", created_by=ada,
            finished_at=at + timedelta(minutes=minutes),
        )
        made[name] = table.pk
        marker = Counted.objects.create(
            table_id=table.pk, game=game, players=2, finished_at=table.finished_at,
            rated=False, contribution={},
        )
        Counted.objects.filter(pk=marker.pk).update(
            counted_at=at + timedelta(hours=counted)
        )
    Progress = migrate(AFTER).get_model("stats", "GameProgress")
    names = {pk: name for name, pk in made.items()}
    out["progress"] = [
        [g, n, names[t], f.isoformat(), c.isoformat()]
        for g, n, t, f, c in Progress.objects.order_by("game").values_list(
            "game", "tables", "last_table", "last_finished_at", "counted_at"
        )
    ]
    migrate(BEFORE)
    out["back"] = "ok"
finally:
    migrate_latest("stats")
"""

EXPECTED = {
    "progress": [
        [
            "alager",
            1,
            "alone",
            "2026-01-01T00:03:00+00:00",
            "2026-01-01T04:00:00+00:00",
        ],
        [
            "alkort",
            4,
            "tie_high",
            "2026-01-01T00:05:00+00:00",
            "2026-01-02T06:00:00+00:00",
        ],
    ],
    "back": "ok",
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_the_migration_fills_each_games_progress() -> None:
    out = migration_script_run(MIGRATE)

    assert out == {"vendor": "postgresql", **EXPECTED}


@pytest.mark.timeout(120)
def test_the_same_on_the_embedded_default(tmp_path: Path) -> None:
    out = migration_script_run(MIGRATE, embedded=tmp_path)

    assert out == {"vendor": "sqlite", **EXPECTED}
