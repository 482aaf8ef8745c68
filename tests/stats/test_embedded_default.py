"""The embedded default (SQLite, no Redis, tasks in-process) counts tables too.

In a fresh process with the local settings and no DATABASE_URL, as ``make
run`` has it: a match played through the services is counted on commit by the
in-process task, two threads counting other tables at once lose nothing (the
per-process writer lock stands in for PostgreSQL's advisory lock), and the
rebuild gives the same ratings.
"""

import pytest

from tests.helpers import clean_env, run_django_json

CODE = """
import json, threading
from django.core.management import call_command
from django.db import connection
call_command("migrate", verbosity=0)
import rules
from accounts.models import User
from games import services
from stats.models import CountedTable, Rating
from stats.services import stats_rebuild, table_record
from stats.simulate import matches_play, tables_insert

ada = User.objects.create_user("ada")
bob = User.objects.create_user("bob")
table = services.table_create(user=ada, game="alkort", players=2, options={"target": 1})
services.table_join(table_id=table.pk, user=bob)
services.table_start(table_id=table.pk, user=ada, seed="embedded-stats")
game, people = rules.get_game("alkort"), [ada, bob]
while True:
    table.refresh_from_db()
    if table.status != "playing":
        break
    state = game.load_state(table.state)
    seat = game.to_act(state)[0]
    services.action_submit(
        table_id=table.pk, user=people[seat], action=game.legal_actions(state, seat)[0]
    )
on_commit = CountedTable.objects.filter(table_id=table.pk).exists()
matches = [m for m in matches_play(12, seed=4) if m.players == 2] * 3
ids = tables_insert(matches, [[ada, bob]] * len(matches), creator=ada)
errors = []
def count(chunk):
    try:
        for table_id in chunk:
            table_record(table_id=table_id)
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connection.close()
threads = [threading.Thread(target=count, args=(ids[k::2],)) for k in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
ratings = sorted(Rating.objects.values_list("user_id", "game", "mu", "sigma", "matches"))
print(json.dumps({
    "vendor": connection.vendor,
    "counted_on_commit": on_commit,
    "errors": errors,
    "counted": CountedTable.objects.count() == len(ids) + 1,
    "ada_matches": Rating.objects.get(user=ada, game="alkort").matches == len(ids) + 1,
    "rebuilt": stats_rebuild() == len(ids) + 1,
    "rebuild_equal": ratings == sorted(
        Rating.objects.values_list("user_id", "game", "mu", "sigma", "matches")
    ),
}))
"""


@pytest.mark.timeout(180)
def test_statistics_on_the_embedded_default(tmp_path: object) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local", CARDROOM_VAR_DIR=str(tmp_path)
    )

    assert run_django_json(CODE, env) == {
        "vendor": "sqlite",
        "counted_on_commit": True,
        "errors": [],
        "counted": True,
        "ada_matches": True,
        "rebuilt": True,
        "rebuild_equal": True,
    }
