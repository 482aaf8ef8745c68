"""Leave room on each page of ``games_table`` for its rows' next versions.

Every move rewrites its table's row (the cached state, about 1.3 KB, and the
seq). PostgreSQL keeps such an update on the row's own page, with no new
index entries (a HOT update), only when the page has room for the new
version. Packed full, a third of the updates of busy tables went to other
pages, each with a new entry in each of the table's three indexes, and the
table grew by a dead row version a move until vacuumed: 16 tables moved
2,300 times filled 1.8 MB. With pages filled to 70 % on insert, 99.9 % of
the updates were HOT and the same 16 tables took 48 KB (docs/performance.md).

PostgreSQL only (SQLite has no such setting). Existing rows move to roomier
pages as they are rewritten.
"""

from typing import Any

from django.db import migrations

FILLFACTOR = 70


def set_fillfactor(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"ALTER TABLE games_table SET (fillfactor = {FILLFACTOR})", params=None
        )


def reset_fillfactor(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_table RESET (fillfactor)", params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_processedcommand_seq")]

    operations = [migrations.RunPython(set_fillfactor, reset_fillfactor)]
