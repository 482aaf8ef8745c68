"""Bring cached states to the rules' new shuffle numbering (``rules.dealing``).

Deal ``j`` of a match is now shuffled with key ``j`` and mid-deal reshuffles
have keys of their own (``"r0"``, ``"r1"``, …), where one counter used to
number seeded deals and reshuffles together (docs/rules-decisions.md, Alager
E-2). The state's ``chance`` record changed with it: ``shuffles`` (that one
counter) became ``reshuffles`` (reshuffles made) and ``legacy`` (the old
counter, kept by a match that had reshuffled under it, so that none of its
later shuffles reads a stream it already used).

Each cached state is rewritten to exactly what replaying its events gives
(``Chance.after``): reshuffles made = the old counter less the seeded deals;
``legacy`` = the old counter when there was any. Only states that hold the
old field are read; the events are not touched (each keeps the key it was
dealt with, so ``verify`` is unchanged). Backwards, the old counter is
rebuilt from the same figures.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.db import migrations

_OLD, _NEW = '%"shuffles"%', '%"reshuffles"%'


def _is_chance(value: Any, field: str) -> bool:
    return isinstance(value, dict) and {"seed", "decks", "deals", field} <= set(value)


def _to_new(chance: dict[str, Any]) -> dict[str, Any]:
    counter = chance.pop("shuffles")
    seeded = chance["deals"] - min(chance["deals"], len(chance["decks"]))
    reshuffles = max(0, counter - seeded)
    chance["reshuffles"] = reshuffles
    chance["legacy"] = counter if reshuffles else None
    return chance


def _to_old(chance: dict[str, Any]) -> dict[str, Any]:
    reshuffles, legacy = chance.pop("reshuffles"), chance.pop("legacy")
    seeded = chance["deals"] - min(chance["deals"], len(chance["decks"]))
    chance["shuffles"] = legacy if legacy is not None else seeded + reshuffles
    return chance


def _walk(value: Any, field: str, change: Callable[[dict[str, Any]], Any]) -> Any:
    if _is_chance(value, field):
        return change(value)
    if isinstance(value, dict):
        return {k: _walk(v, field, change) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, field, change) for v in value]
    return value


def _rewrite(
    pattern: str, field: str, change: Callable[[dict[str, Any]], Any]
) -> Callable[[Any, Any], None]:
    def run(apps: Any, schema_editor: Any) -> None:
        connection = schema_editor.connection
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT id, state FROM games_table WHERE state LIKE %s", [pattern]
            )
            rows = cursor.fetchall()
        for table_id, text in rows:
            state = _walk(json.loads(text), field, change)
            with connection.cursor() as cursor:
                cursor.execute(
                    "UPDATE games_table SET state = %s WHERE id = %s",
                    [json.dumps(state, separators=(",", ":")), table_id],
                )

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0007_table_state_text")]

    operations = [
        migrations.RunPython(
            _rewrite(_OLD, "shuffles", _to_new), _rewrite(_NEW, "reshuffles", _to_old)
        )
    ]
