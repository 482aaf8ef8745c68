"""A house bot's profile charts a table it held several seats of as one
point: its rating history has an entry per seat (each seat's own place and
expected place, ``docs/stats.md``), all with the one rating the table gave."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.flows import unique_name

SET_UP = """
import json
from accounts.services import bot_account_get
from stats.services import table_record
from stats.simulate import match_play, tables_insert
from tests.accounts.factories import UserFactory
from tests.stats.matches import outcome_forced

ada = UserFactory(username="PREFIX")
basic = bot_account_get(level="basic")
match = outcome_forced(match_play("alager", 3, "PREFIX", {"penalty_limit": 1}), [2, 1, 3])
[table_id] = tables_insert([match], [[ada, basic, basic]], creator=ada)
table_record(table_id=table_id)
print(json.dumps({"bot": basic.username, "table": table_id}))
"""


@pytest.mark.timeout(120)
def test_a_bot_table_of_two_seats_is_one_point_with_both_places(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    made = json.loads(
        live_manage(SET_UP.replace("PREFIX", unique_name("seats"))).splitlines()[-1]
    )
    page = player().page
    page.goto(f"/players/{made['bot']}/")
    chart = page.locator(".rating-history[data-game=alager] svg.chart")
    chart.wait_for()
    titles = [
        t
        for t in chart.locator("circle title").all_text_contents()
        if t.startswith(f"Table {made['table']}:")
    ]
    assert len(titles) == 1, titles
    assert titles[0].startswith(f"Table {made['table']}: places 1 and 3, rating ")
