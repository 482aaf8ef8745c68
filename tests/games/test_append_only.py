"""The event log is append-only in the database itself (migration 0002).

Raw SQL, bypassing the ORM: PostgreSQL refuses UPDATE, DELETE and (unless
the test-only session setting allows it) TRUNCATE; SQLite, the embedded
default, refuses UPDATE and DELETE.
"""

import json

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import ProtectedError

from games.models import GameEvent, Table
from tests.accounts.factories import UserFactory
from tests.games.tables import table_started
from tests.helpers import clean_env, run_django_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> Table:
    return table_started(seating=[UserFactory(), UserFactory()])


def _refused(sql: str, params: list[object]) -> str:
    with (
        pytest.raises(DatabaseError) as caught,
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, params)
    return str(caught.value).splitlines()[0]


def test_update_is_refused(table: Table) -> None:
    message = _refused(
        "UPDATE games_gameevent SET payload = '{}' WHERE table_id = %s", [table.pk]
    )

    assert message == "games_gameevent is append-only: UPDATE is not allowed"
    first = GameEvent.objects.get(table=table, seq=1)
    assert first.payload["seed"] == table.seed  # unchanged


def test_delete_is_refused(table: Table) -> None:
    count = GameEvent.objects.filter(table=table).count()

    message = _refused("DELETE FROM games_gameevent WHERE table_id = %s", [table.pk])

    assert message == "games_gameevent is append-only: DELETE is not allowed"
    assert GameEvent.objects.filter(table=table).count() == count


def test_truncate_is_refused_without_the_test_setting(table: Table) -> None:
    with (
        pytest.raises(DatabaseError) as caught,
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        # Fire the deferred FK checks of the rows just written, or PostgreSQL
        # refuses TRUNCATE for "pending trigger events".
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET LOCAL cardroom.allow_truncate = 'off'")
        cursor.execute("TRUNCATE games_gameevent CASCADE")

    assert str(caught.value).splitlines()[0] == (
        "games_gameevent is append-only: TRUNCATE is not allowed"
    )
    assert GameEvent.objects.filter(table=table).exists()


class _RollBack(Exception):
    pass


def test_test_connections_may_truncate_for_the_test_flush(table: Table) -> None:
    with pytest.raises(_RollBack), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SHOW cardroom.allow_truncate")
            assert cursor.fetchone() == ("on",)
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("TRUNCATE games_gameevent")
        assert not GameEvent.objects.exists()
        raise _RollBack

    assert GameEvent.objects.filter(table=table).exists()


def test_a_table_with_events_cannot_be_deleted(table: Table) -> None:
    with pytest.raises(ProtectedError), transaction.atomic():
        table.delete()

    assert Table.objects.filter(pk=table.pk).exists()


def test_inserting_stays_allowed(table: Table) -> None:
    GameEvent.objects.create(
        table=table, seq=table.seq + 1, type="alkort.note", payload={}
    )

    assert GameEvent.objects.filter(table=table).count() == table.seq + 1


@pytest.mark.timeout(120)
def test_sqlite_refuses_update_and_delete_too(tmp_path: object) -> None:
    code = """
import json
from django.core.management import call_command
from django.db import connection
call_command("migrate", verbosity=0)
from accounts.models import User
from games.models import GameEvent, Table
user = User.objects.create_user(username="ada")
table = Table.objects.create(game="alkort", players=2, created_by=user)
GameEvent.objects.create(table=table, seq=1, type="alkort.x", payload={"a": 1})
errors = {}
for sql in ("UPDATE games_gameevent SET payload = '{}'", "DELETE FROM games_gameevent"):
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql)
    except Exception as exc:
        errors[sql.split()[0]] = str(exc)
print(json.dumps({"vendor": connection.vendor, "errors": errors,
                  "payload": GameEvent.objects.get().payload}))
"""
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local", CARDROOM_VAR_DIR=str(tmp_path)
    )

    result = run_django_json(code, env)

    assert result == {
        "vendor": "sqlite",
        "errors": {
            "UPDATE": "games_gameevent is append-only: UPDATE is not allowed",
            "DELETE": "games_gameevent is append-only: DELETE is not allowed",
        },
        "payload": {"a": 1},
    }
    assert json.dumps(result)  # the subprocess printed one JSON document
