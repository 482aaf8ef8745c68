"""The reconciliation on the embedded default (SQLite, the writer lock a
lock of the process, as ``make run`` has it): the command queues a finished
table nothing queued and repairs a progress row a count left behind, and the
server's scheduler thread runs it with beat's schedule, so such a table is
counted without anyone running anything."""

import pytest

from tests.helpers import clean_env, run_django_json

CODE = """
import io
import json
import time
from django.core.management import call_command
from django.db import connection
from django.db.models import Count, Max
call_command("migrate", verbosity=0)
import rules
import stats.services.record as record
from accounts.models import User
from games import scheduler
from stats.models import CountedTable, GameProgress, PendingTable
from stats.selectors import computed_through_get, last_modified
from stats.services import table_record
from stats.simulate import match_play, tables_insert


def agree():
    for game in (None, *rules.GAMES):
        counted = CountedTable.objects.all()
        if game is not None:
            counted = counted.filter(game=game)
        last = counted.order_by("-finished_at", "-table_id").first()
        agg = counted.aggregate(n=Count("pk"), at=Max("counted_at"))
        got = computed_through_get(game=game)
        if [got["table"], got["finished_at"], got["tables"], got["counted_at"]] != [
            last.table_id if last else None,
            last.finished_at if last else None,
            agg["n"],
            agg["at"],
        ] or last_modified(game=game) != agg["at"]:
            return False
    return True


def summary():
    out = io.StringIO()
    call_command("stats_reconcile", stdout=out)
    return out.getvalue().strip()


ada = User.objects.create_user("ada")
bob = User.objects.create_user("bob")
ids = tables_insert(
    [match_play("alkort", 2, "e-r", {"target": 1})] * 4, [[ada, bob]] * 4, creator=ada
)
table_record(table_id=ids[0])
# A table an old process finished: not queued.
PendingTable.objects.filter(table_id=ids[1]).delete()
# A table an old worker counted: its game's row left behind.
saved, record.progress_counted = record.progress_counted, lambda **kw: None
table_record(table_id=ids[2])
record.progress_counted = saved
out = {"vendor": connection.vendor, "agree_before": agree()}
out["summary"] = summary()
out["agree_after"] = agree()
out["queued"] = sorted(PendingTable.objects.values_list("table_id", flat=True))
out["again"] = summary()

# The scheduler thread: another unqueued table, counted without a hand.
PendingTable.objects.filter(table_id=ids[3]).delete()
PendingTable.objects.filter(table_id=ids[1]).delete()
scheduler.beat_repeat()
deadline = time.monotonic() + 30
while time.monotonic() < deadline and CountedTable.objects.count() < 4:
    time.sleep(0.2)
out["counted_by_the_server"] = sorted(
    CountedTable.objects.values_list("table_id", flat=True)
) == sorted(ids)
out["queue_after"] = PendingTable.objects.count()
out["agree_at_the_end"] = agree()
out["ids"] = ids
print(json.dumps(out, default=str))
"""


@pytest.mark.timeout(180)
def test_the_reconciliation_on_the_embedded_default(tmp_path: object) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path),
        STATS_SWEEP_GRACE_SECONDS="0",
        STATS_SWEEP_SECONDS="1",
    )

    out = run_django_json(CODE, env)

    ids = out.pop("ids")
    assert out == {
        "vendor": "sqlite",
        "agree_before": False,
        "summary": (
            "Reconciled: queued 1 finished table that was neither counted nor "
            f"queued ({ids[1]}: the statistics sweep counts it from its next "
            "run); repaired the progress of 1 game (alkort)."
        ),
        "agree_after": True,
        "queued": [ids[1], ids[3]],
        "again": (
            "Nothing to reconcile: every finished table is counted or queued, "
            "and every game's progress agrees with its counted tables."
        ),
        "counted_by_the_server": True,
        "queue_after": 0,
        "agree_at_the_end": True,
    }
