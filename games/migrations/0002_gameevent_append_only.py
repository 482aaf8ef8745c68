"""Make ``games_gameevent`` append-only in the database itself.

The ORM never updates or deletes events, but the guarantee must hold for any
client (a shell, a raw query, a bug): corrections are new events.

* PostgreSQL: one trigger function refuses UPDATE and DELETE (row triggers)
  and TRUNCATE (a statement trigger). TRUNCATE is let through only when the
  session setting ``cardroom.allow_truncate`` is ``on``: test connections set
  it (``config/settings/test.py``) because transactional tests empty every
  table with TRUNCATE. Nothing lets UPDATE or DELETE through.
* SQLite (the embedded default): BEFORE UPDATE / BEFORE DELETE triggers that
  abort. SQLite has no TRUNCATE (Django empties tables with DELETE there).

SQLite rebuilds a table for many ALTERs (create, copy, drop, rename), which
drops its triggers: a later migration that alters ``games_gameevent`` must run
``create_triggers`` again on SQLite.
"""

from typing import Any

from django.db import migrations

TABLE = "games_gameevent"
MESSAGE = "games_gameevent is append-only"

POSTGRES_CREATE = f"""
CREATE FUNCTION games_gameevent_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE'
       AND current_setting('cardroom.allow_truncate', true) = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '{MESSAGE}: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation',
              HINT = 'Events are facts; record a correction as a new event.';
END;
$$;
CREATE TRIGGER games_gameevent_no_update_delete
    BEFORE UPDATE OR DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION games_gameevent_append_only();
CREATE TRIGGER games_gameevent_no_truncate
    BEFORE TRUNCATE ON {TABLE}
    FOR EACH STATEMENT EXECUTE FUNCTION games_gameevent_append_only();
"""

POSTGRES_DROP = f"""
DROP TRIGGER IF EXISTS games_gameevent_no_truncate ON {TABLE};
DROP TRIGGER IF EXISTS games_gameevent_no_update_delete ON {TABLE};
DROP FUNCTION IF EXISTS games_gameevent_append_only();
"""

SQLITE_CREATE = [
    f"""
    CREATE TRIGGER games_gameevent_no_{op.lower()}
    BEFORE {op} ON {TABLE}
    BEGIN
        SELECT RAISE(ABORT, '{MESSAGE}: {op} is not allowed');
    END;
    """
    for op in ("UPDATE", "DELETE")
]

SQLITE_DROP = [
    f"DROP TRIGGER IF EXISTS games_gameevent_no_{op}" for op in ("update", "delete")
]


def create_triggers(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_CREATE, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_CREATE:
            schema_editor.execute(statement, params=None)
    else:  # pragma: no cover - no other backend is supported
        raise NotImplementedError(f"No append-only trigger for {vendor}")


def drop_triggers(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_DROP, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_DROP:
            schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(create_triggers, drop_triggers)]
