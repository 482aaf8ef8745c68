"""Each game's progress row on the embedded default (SQLite, counts
in-process, the writer lock a lock of the process, as ``make run`` has it): a
match played through the services and counted on commit, tables counted by
the sweep and by threads at once, a late table, a recount and a rebuild
leave ``computed_through`` and ``Last-Modified`` where the aggregate over
every marker was."""

import pytest

from tests.helpers import clean_env, run_django_json

CODE = """
import json
import threading
from datetime import timedelta
from django.core.management import call_command
from django.db import connection, connections
from django.db.models import Count, Max
call_command("migrate", verbosity=0)
import rules
from accounts.models import User
from games import services
from games.models import Table
from stats.models import CountedTable, PendingTable
from stats.selectors import computed_through_get, last_modified
from stats.services import stats_rebuild, table_record, table_recount
from stats.simulate import match_play, tables_insert
from stats.tasks import stats_sweep


def as_before(game):
    counted = CountedTable.objects.all()
    if game is not None:
        counted = counted.filter(game=game)
    last = counted.order_by("-finished_at", "-table_id").first()
    agg = counted.aggregate(n=Count("pk"), at=Max("counted_at"))
    return [
        last.table_id if last else None,
        last.finished_at.isoformat() if last else None,
        agg["n"],
        agg["at"].isoformat() if agg["at"] else None,
        agg["at"].isoformat() if agg["at"] else None,
    ]


def now(game):
    got = computed_through_get(game=game)
    at = last_modified(game=game)
    return [
        got["table"],
        got["finished_at"].isoformat() if got["finished_at"] else None,
        got["tables"],
        got["counted_at"].isoformat() if got["counted_at"] else None,
        at.isoformat() if at else None,
    ]


steps = []
def check(name):
    same = all(now(g) == as_before(g) for g in (None, *rules.GAMES))
    steps.append([name, same, computed_through_get()["tables"]])


check("nothing")
ada = User.objects.create_user("ada")
bob = User.objects.create_user("bob")
table = services.table_create(user=ada, game="alkort", players=2, options={"target": 1})
services.table_join(table_id=table.pk, user=bob)
services.table_start(table_id=table.pk, user=ada, seed="embedded-progress")
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
check("played")
ids = tables_insert(
    [match_play("alkort", 2, "e-p", {"target": 1})] * 3, [[ada, bob]] * 3, creator=ada
)
# The first of them finished a day ago: counted late.
early = table.finished_at - timedelta(days=1)
Table.objects.filter(pk=ids[0]).update(finished_at=early)
PendingTable.objects.filter(table_id=ids[0]).update(finished_at=early)
stats_sweep()
check("swept")
more = tables_insert(
    [match_play("alkort", 2, "e-t", {"target": 1})] * 4, [[ada, bob]] * 4, creator=ada
)
def count(table_id):
    try:
        table_record(table_id=table_id)
    finally:
        connections.close_all()
threads = [threading.Thread(target=count, args=(t,)) for t in more]
for t in threads:
    t.start()
for t in threads:
    t.join()
check("at once")
table_recount(table_id=ids[1])
check("recount")
stats_rebuild()
check("rebuild")
print(json.dumps({"vendor": connection.vendor, "steps": steps}))
"""


@pytest.mark.timeout(180)
def test_progress_on_the_embedded_default(tmp_path: object) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path),
        STATS_SWEEP_GRACE_SECONDS="0",
    )

    assert run_django_json(CODE, env) == {
        "vendor": "sqlite",
        "steps": [
            ["nothing", True, 0],
            ["played", True, 1],
            ["swept", True, 4],
            ["at once", True, 8],
            ["recount", True, 8],
            ["rebuild", True, 8],
        ],
    }
