"""Data migrations of the games app, run both ways with rows in the tables:
on the test database (PostgreSQL) and, in a process of its own, on the
embedded default's SQLite."""

import json
from pathlib import Path

import pytest

from tests.helpers import migration_script_run

#: Migrates the games app to 0004 (every other app to its latest), stores a
#: command the way 0004 stored it, migrates to 0005 and back, and notes what
#: each step left.
MIGRATE_BOTH_WAYS = """
BEFORE = ("games", "0004_connection_audience")
AFTER = ("games", "0005_processedcommand_seq")

try:
    apps = migrate(BEFORE)
    user = apps.get_model("accounts", "User").objects.create(
        username="ada", username_folded="ada"
    )
    table = apps.get_model("games", "Table").objects.create(
        game="alkort", players=2, created_by=user
    )
    apps.get_model("games", "ProcessedCommand").objects.create(
        table=table, seat=1, command_id="c-1", action={"type": "pass"},
        response={"seq": 7, "status": "playing", "view": {}, "legal_actions": []},
    )
    row = migrate(AFTER).get_model("games", "ProcessedCommand").objects.get()
    out["forward"] = [row.command_id, row.action, row.seq]
    row = migrate(BEFORE).get_model("games", "ProcessedCommand").objects.get()
    out["backward"] = row.response
finally:  # back to the latest, whatever follows 0005
    migrate_latest("games")
"""

EXPECTED = {
    "forward": ["c-1", {"type": "pass"}, 7],
    "backward": {"seq": 7, "view": {}, "legal_actions": []},
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_a_stored_answer_becomes_its_seq_and_back() -> None:
    out = migration_script_run(MIGRATE_BOTH_WAYS)

    assert out == {"vendor": "postgresql", **EXPECTED}


@pytest.mark.timeout(120)
def test_the_same_on_the_embedded_default(tmp_path: Path) -> None:
    out = migration_script_run(MIGRATE_BOTH_WAYS, embedded=tmp_path)

    assert out == {"vendor": "sqlite", **EXPECTED}


def _fillfactor() -> str | None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'games_table'")
        options = cursor.fetchone()[0] or []
    return next((o for o in options if o.startswith("fillfactor=")), None)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_the_tables_pages_leave_room_for_each_moves_new_row() -> None:
    """0006: ``games_table`` fills its pages to 70 %, so a move's rewrite of
    its row stays on the row's page (docs/performance.md); and back."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    assert _fillfactor() == "fillfactor=70"
    executor = MigrationExecutor(connection)
    latest = next(n for n in executor.loader.graph.leaf_nodes() if n[0] == "games")
    try:
        executor.migrate([("games", "0005_processedcommand_seq")])
        assert _fillfactor() is None
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate([latest])
    assert _fillfactor() == "fillfactor=70"


def _state_column() -> tuple[str, list[object]]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT data_type FROM information_schema.columns "
            "WHERE table_name = 'games_table' AND column_name = 'state'"
        )
        (data_type,) = cursor.fetchone()
        cursor.execute("SELECT state::text FROM games_table ORDER BY id")
        return data_type, [json.loads(t) if t else t for (t,) in cursor.fetchall()]


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_the_cached_state_becomes_text_and_back_with_its_values() -> None:
    """0007: the state column is ``text`` (``games.fields.JSONTextField``),
    converted in place both ways with every value as it was, integers
    beyond 64 bits included."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from games.models import Table
    from tests.accounts.factories import UserFactory

    user = UserFactory()
    states = [{"deck": [3, 1], "rng": 2**80, "hands": {"0": []}}, None]
    for state in states:
        Table.objects.create(game="alager", players=2, created_by=user, state=state)
    assert _state_column() == ("text", states)
    executor = MigrationExecutor(connection)
    latest = next(n for n in executor.loader.graph.leaf_nodes() if n[0] == "games")
    try:
        executor.migrate([("games", "0006_table_fillfactor")])
        assert _state_column() == ("jsonb", states)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate([latest])
    assert _state_column() == ("text", states)
    assert [t.state for t in Table.objects.order_by("pk")] == states


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_a_cached_state_takes_the_new_shuffle_numbering_and_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """0008: a state cached under the old single counter (a match that has
    reshuffled under it) becomes exactly what replaying its events now gives,
    and a state of the new shape survives the round trip unchanged."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    import rules
    from games.models import Table
    from tests.accounts.factories import UserFactory
    from tests.rules.alager.test_shuffles import record_the_old_way

    game = rules.get_game("alager")
    old = record_the_old_way(monkeypatch, until_deals=2)
    old_state = game.dump_state(old.state)
    assert "shuffles" in old_state["chance"]
    replayed = game.replay(old.events)
    assert replayed.chance.legacy is not None
    fresh = game.dump_state(game.replay(game.start(3, {}, seed="new")))
    user = UserFactory()
    ids = [
        Table.objects.create(game="alager", players=n, created_by=user).pk
        for n in (2, 3)
    ]
    with connection.cursor() as cursor:
        for table_id, state in zip(ids, (old_state, fresh), strict=True):
            cursor.execute(
                "UPDATE games_table SET state = %s WHERE id = %s",
                [json.dumps(state), table_id],
            )
    executor = MigrationExecutor(connection)
    latest = next(n for n in executor.loader.graph.leaf_nodes() if n[0] == "games")
    executor.migrate([("games", "0008_table_state_shuffle_keys")])
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0007_table_state_text")])
    executor = MigrationExecutor(connection)
    executor.migrate([latest])

    upgraded, kept = (Table.objects.get(pk=pk).state for pk in ids)
    assert game.load_state(upgraded) == replayed
    assert kept == fresh


#: Before 0010 a join did not write the table's ``updated_at``: an open table
#: someone joined after its opening, a table in play, and an open table whose
#: last seat was taken when it was opened; 0010 and back.
SEATS_TAKEN_BEFORE = """
from datetime import datetime, timezone

BEFORE = ("games", "0009_table_request")
AFTER = ("games", "0010_table_lobby_activity")
OPENED = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
JOINED = datetime(2026, 11, 3, 9, 30, tzinfo=timezone.utc)

try:
    apps = migrate(BEFORE)
    User = apps.get_model("accounts", "User")
    Table = apps.get_model("games", "Table")
    Seat = apps.get_model("games", "Seat")
    ada = User.objects.create(username="ada", username_folded="ada")
    bo = User.objects.create(username="bo", username_folded="bo")
    ids = {}
    for key, status, joiner in (
        ("joined", "lobby", bo), ("playing", "playing", bo), ("alone", "lobby", None)
    ):
        table = Table.objects.create(
            game="alkort", players=2, created_by=ada, status=status
        )
        Seat.objects.create(table=table, index=0, user=ada)
        if joiner is not None:
            Seat.objects.create(table=table, index=1, user=joiner)
        Seat.objects.filter(table=table).update(joined_at=OPENED)
        Seat.objects.filter(table=table, index=1).update(joined_at=JOINED)
        Table.objects.filter(pk=table.pk).update(updated_at=OPENED)
        ids[key] = table.pk

    def activity(apps):
        Table = apps.get_model("games", "Table")
        return {
            key: Table.objects.get(pk=pk).updated_at.isoformat()
            for key, pk in ids.items()
        }

    out["forward"] = activity(migrate(AFTER))
    out["backward"] = activity(migrate(BEFORE))
finally:  # back to the latest, whatever follows 0010
    migrate_latest("games")
"""

SEATS_TAKEN_EXPECTED = {
    "forward": {
        "joined": "2026-11-03T09:30:00+00:00",
        "playing": "2026-11-01T12:00:00+00:00",
        "alone": "2026-11-01T12:00:00+00:00",
    },
    # Back, the activity stays: 0009 has nothing to undo.
    "backward": {
        "joined": "2026-11-03T09:30:00+00:00",
        "playing": "2026-11-01T12:00:00+00:00",
        "alone": "2026-11-01T12:00:00+00:00",
    },
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_an_open_table_takes_its_last_seat_taken_as_its_activity() -> None:
    """0010: an open table joined before a join wrote ``updated_at`` is not
    taken for idle from its opening alone (docs/api.md, ``active_at``)."""
    out = migration_script_run(SEATS_TAKEN_BEFORE)

    assert out == {"vendor": "postgresql", **SEATS_TAKEN_EXPECTED}


@pytest.mark.timeout(120)
def test_the_last_seat_taken_on_the_embedded_default(tmp_path: Path) -> None:
    out = migration_script_run(SEATS_TAKEN_BEFORE, embedded=tmp_path)

    assert out == {"vendor": "sqlite", **SEATS_TAKEN_EXPECTED}
