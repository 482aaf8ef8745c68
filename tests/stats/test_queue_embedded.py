"""The queue of tables waiting for their count on the embedded default
(SQLite, tasks in-process, as ``make run`` has it): a match played through
the services is queued with its finish and counted on commit, which takes it
off; tables whose count never ran wait in the queue, ``pending`` and the
player's ``uncounted`` show them, and the sweep counts them."""

import pytest

from tests.helpers import clean_env, run_django_json

CODE = """
import json
from django.core.management import call_command
from django.db import connection
call_command("migrate", verbosity=0)
import rules
from accounts.models import User
from games import services
from games.signals import table_finishing
from stats.models import CountedTable, PendingTable
from stats.selectors import computed_through_get, player_tables_uncounted
from stats.simulate import match_play, tables_insert
from stats.tasks import stats_sweep

queued_with_finish = []
def seen(sender, table, **kwargs):
    queued_with_finish.append(PendingTable.objects.filter(table_id=table.pk).exists())
ada = User.objects.create_user("ada")
bob = User.objects.create_user("bob")
table = services.table_create(user=ada, game="alkort", players=2, options={"target": 1})
services.table_join(table_id=table.pk, user=bob)
services.table_start(table_id=table.pk, user=ada, seed="embedded-queue")
game, people = rules.get_game("alkort"), [ada, bob]
table_finishing.connect(seen, weak=False)  # after the statistics' receiver
while True:
    table.refresh_from_db()
    if table.status != "playing":
        break
    state = game.load_state(table.state)
    seat = game.to_act(state)[0]
    services.action_submit(
        table_id=table.pk, user=people[seat], action=game.legal_actions(state, seat)[0]
    )
out = {
    "vendor": connection.vendor,
    "queued_with_finish": queued_with_finish,
    "counted_on_commit": CountedTable.objects.filter(table_id=table.pk).exists(),
    "queue_after_count": PendingTable.objects.count(),
}
ids = tables_insert([match_play("alkort", 2, "e-q", {"target": 1})] * 3, [[ada, bob]] * 3, creator=ada)
out["pending"] = computed_through_get()["pending"]
out["uncounted"] = [r["table"] for r in player_tables_uncounted(user=ada)] == ids[::-1]
out["swept"] = stats_sweep()
out["pending_after_sweep"] = computed_through_get()["pending"]
out["queue_after_sweep"] = PendingTable.objects.count()
out["counted"] = CountedTable.objects.count()
print(json.dumps(out))
"""


@pytest.mark.timeout(180)
def test_the_queue_on_the_embedded_default(tmp_path: object) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path),
        STATS_SWEEP_GRACE_SECONDS="0",
    )

    assert run_django_json(CODE, env) == {
        "vendor": "sqlite",
        "queued_with_finish": [True],
        "counted_on_commit": True,
        "queue_after_count": 0,
        "pending": 3,
        "uncounted": True,
        "swept": 3,
        "pending_after_sweep": 0,
        "queue_after_sweep": 0,
        "counted": 4,
    }
