"""Data migrations of the games app, run both ways on the test database."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

BEFORE = ("games", "0004_connection_audience")
AFTER = ("games", "0005_processedcommand_seq")


def _migrate(target: tuple[str, str]):  # type: ignore[no-untyped-def]
    """Migrate the games app to ``target``: the models as they are then (with
    every other app's models as they are now)."""
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    executor.loader.build_graph()
    others = [n for n in executor.loader.graph.leaf_nodes() if n[0] != target[0]]
    return executor.loader.project_state([*others, target]).apps


def test_a_stored_answer_becomes_its_seq_and_back() -> None:
    apps = _migrate(BEFORE)
    try:
        user = apps.get_model("accounts", "User").objects.create(
            username="ada", username_folded="ada"
        )
        table = apps.get_model("games", "Table").objects.create(
            game="alkort", players=2, created_by=user
        )
        command = apps.get_model("games", "ProcessedCommand")
        command.objects.create(
            table=table,
            seat=1,
            command_id="c-1",
            action={"type": "pass"},
            response={"seq": 7, "status": "playing", "view": {}, "legal_actions": []},
        )

        apps = _migrate(AFTER)
        row = apps.get_model("games", "ProcessedCommand").objects.get()
        assert (row.command_id, row.action, row.seq) == ("c-1", {"type": "pass"}, 7)

        apps = _migrate(BEFORE)
        row = apps.get_model("games", "ProcessedCommand").objects.get()
        assert row.response["seq"] == 7
    finally:
        _migrate(AFTER)
