"""0004 fills the queue of tables waiting for their count from the finished
tables without a marker, on PostgreSQL and on the embedded default's SQLite:
not the counted ones, not those in play or aborted."""

from pathlib import Path

import pytest

from tests.helpers import migration_script_run

MIGRATE = """
from datetime import datetime, timezone

BEFORE = ("stats", "0003_playerresult_user_order")
AFTER = ("stats", "0004_pendingtable")

try:
    apps = migrate(BEFORE)
    User = apps.get_model("accounts", "User")
    Table = apps.get_model("games", "Table")
    Counted = apps.get_model("stats", "CountedTable")
    ada = User.objects.create(username="ada", username_folded="ada")
    at = datetime(2026, 1, 1, tzinfo=timezone.utc)
    made = {}
    for name, game, status in (
        ("counted", "alkort", "finished"),
        ("uncounted", "alager", "finished"),
        ("other_game", "allegra", "finished"),
        ("playing", "alkort", "playing"),
        ("aborted", "alkort", "aborted"),
    ):
        made[name] = Table.objects.create(
            game=game, players=2, status=status, created_by=ada,
            finished_at=at if status == "finished" else None,
        ).pk
    Counted.objects.create(
        table_id=made["counted"], game="alkort", players=2, finished_at=at,
        rated=False, contribution={},
    )
    Pending = migrate(AFTER).get_model("stats", "PendingTable")
    names = {pk: name for name, pk in made.items()}
    out["queued"] = sorted(
        [names[t], g, f.isoformat()]
        for t, g, f in Pending.objects.values_list("table_id", "game", "finished_at")
    )
    migrate(BEFORE)
    out["back"] = "ok"
finally:
    migrate_latest("stats")
"""

EXPECTED = {
    "queued": [
        ["other_game", "allegra", "2026-01-01T00:00:00+00:00"],
        ["uncounted", "alager", "2026-01-01T00:00:00+00:00"],
    ],
    "back": "ok",
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_the_migration_queues_finished_uncounted_tables() -> None:
    out = migration_script_run(MIGRATE)

    assert out == {"vendor": "postgresql", **EXPECTED}


@pytest.mark.timeout(120)
def test_the_same_on_the_embedded_default(tmp_path: Path) -> None:
    out = migration_script_run(MIGRATE, embedded=tmp_path)

    assert out == {"vendor": "sqlite", **EXPECTED}
