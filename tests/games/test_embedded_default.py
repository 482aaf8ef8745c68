"""The embedded default (SQLite, no Redis): a whole match through the services.

On PostgreSQL a move goes through psycopg (a pipelined lock and read, one
write); elsewhere the same services take the ORM. These run that path in a
fresh process with the local settings and no DATABASE_URL, as ``make run``
does: a whole match, and the guards (stale seq, idempotent retries, a reused
command id, a refused action writing nothing, two threads racing one move).
"""

import pytest

from tests.helpers import clean_env, run_django_json

CODE = """
import json, random
from django.core.management import call_command
call_command("migrate", verbosity=0)
import rules
from accounts.models import User
from games import event_store
from games.models import GameEvent, ProcessedCommand, Table
from games.services import action_submit, table_add_bot, table_create, table_join, table_start

ada = User.objects.create_user(username="ada")
bo = User.objects.create_user(username="bo")
table = table_create(user=ada, game="alkort", players=4, options={"target": 1})
table_join(table_id=table.pk, user=bo, seat=2)
table_add_bot(table_id=table.pk, user=ada, seat=1, level="random")
table_add_bot(table_id=table.pk, user=ada, seat=3)
table_start(table_id=table.pk, user=ada, seed="embedded-seed")
people = {0: ada, 2: bo}
game = rules.get_game("alkort")
rng = random.Random(1)
moves = retried = 0
while True:
    table.refresh_from_db()
    if table.status != "playing":
        break
    state = game.load_state(table.state)
    seat = next(s for s in game.to_act(state) if s in people)
    action = rng.choice(game.legal_actions(state, seat))
    first = action_submit(table_id=table.pk, user=people[seat], action=action,
                          expected_seq=table.seq, command_id=f"c{moves}")
    if moves == 0:
        again = action_submit(table_id=table.pk, user=people[seat], action=action,
                              command_id="c0")
        retried = again == first
    moves += 1
events = event_store.load_events(table)
print(json.dumps({
    "vendor": __import__("django.db").db.connection.vendor,
    "status": table.status,
    "seq_is_count": table.seq == GameEvent.objects.filter(table=table).count(),
    "replay_is_cache": game.replay(events) == game.load_state(table.state),
    "outcome": table.outcome == game.outcome(game.replay(events)),
    "commands": ProcessedCommand.objects.filter(table=table).count() == moves,
    "retried": retried,
    "bots_played": sorted(set(GameEvent.objects.filter(table=table).exclude(seat=None)
                              .values_list("seat", flat=True))),
    "verify": game.verify(events)["ok"],
}))
"""


@pytest.mark.timeout(180)
def test_a_match_with_people_and_bots_on_sqlite(tmp_path: object) -> None:
    # Bot turns run inline here (the script plays on at once); the scheduler
    # thread of a real server is tested in tests/games/live/.
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path),
        TASK_RUNNER="inline",
        BOT_MOVE_DELAY="0",
    )

    result = run_django_json(CODE, env)

    assert result == {
        "vendor": "sqlite",
        "status": "finished",
        "seq_is_count": True,
        "replay_is_cache": True,
        "outcome": True,
        "commands": True,
        "retried": True,
        "bots_played": [0, 1, 2, 3],
        "verify": True,
    }


GUARDS = """
import json, threading
from django.core.management import call_command
from django.db import connection
call_command("migrate", verbosity=0)
import rules
from accounts.models import User
from games.errors import TableError
from games.models import GameEvent, ProcessedCommand, Table
from games.services import action_submit, table_create, table_join, table_start

ada = User.objects.create_user(username="ada")
bo = User.objects.create_user(username="bo")
table = table_create(user=ada, game="alkort", players=2)
table_join(table_id=table.pk, user=bo, seat=1)
table_start(table_id=table.pk, user=ada, seed="embedded-guards")
table.refresh_from_db()
game = rules.get_game("alkort")
state = game.load_state(table.state)
seat = game.to_act(state)[0]
mover = [ada, bo][seat]
legal = game.legal_actions(state, seat)
out = {"vendor": connection.vendor}

def attempt(**kw):
    try:
        return ["ok", action_submit(table_id=table.pk, user=mover, **kw)["seq"]]
    except TableError as exc:
        return [exc.status, exc.code]
    except rules.RulesError as exc:
        return [400, exc.code]

def counts():
    return [GameEvent.objects.filter(table=table).count(),
            ProcessedCommand.objects.filter(table=table).count(),
            Table.objects.get(pk=table.pk).seq]

out["stale"] = attempt(action=legal[0], expected_seq=1, command_id="s")
out["illegal"] = attempt(action={"type": "no_such_action"}, command_id="i")
out["untouched"] = counts()

results = []
barrier = threading.Barrier(2)
def race():
    barrier.wait()
    results.append(attempt(action=legal[0], expected_seq=table.seq, command_id=None))
    connection.close()
threads = [threading.Thread(target=race) for _ in range(2)]
for t in threads: t.start()
for t in threads: t.join()
out["race"] = sorted(results, key=str)
out["after_race"] = counts()

state = game.load_state(Table.objects.get(pk=table.pk).state)
seat = game.to_act(state)[0]
mover = [ada, bo][seat]
legal = game.legal_actions(state, seat)
out["first"] = attempt(action=legal[0], command_id="c")
out["retry"] = attempt(action=legal[0], command_id="c")
out["reused"] = attempt(action={"type": "other"}, command_id="c")
out["final"] = counts()
table.refresh_from_db()
out["replay_is_cache"] = game.replay(
    __import__("games.event_store").event_store.load_events(table)
) == game.load_state(table.state)
print(json.dumps(out))
"""


@pytest.mark.timeout(120)
def test_stale_seq_idempotency_and_races_on_sqlite(tmp_path: object) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local", CARDROOM_VAR_DIR=str(tmp_path)
    )

    out = run_django_json(GUARDS, env)

    moved = out["after_race"][0]
    assert moved > 2
    assert out == {
        "vendor": "sqlite",
        "stale": [409, "stale"],
        "illegal": [400, "unknown_action"],
        "untouched": [2, 0, 2],
        "race": sorted([["ok", moved], [409, "stale"]], key=str),
        "after_race": [moved, 0, moved],
        "first": ["ok", out["final"][2]],
        "retry": ["ok", out["final"][2]],
        "reused": [409, "command_reused"],
        "final": [out["final"][2], 1, out["final"][2]],
        "replay_is_cache": True,
    }
