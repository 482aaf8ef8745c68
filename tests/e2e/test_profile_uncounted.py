"""A player's own finished table still being counted is among their latest
finished tables, however busy the site.

The profile looked for uncounted tables among the site's latest 100 finished
tables: 101 tables of others finishing after the player's pushed it out until
its count arrived. The statistics API now lists the player's own uncounted
tables beside the counted ones, read from their seats.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.flows import unique_name

SET_UP = """
import json
from stats.simulate import match_play, tables_insert
from tests.accounts.factories import UserFactory

ada = UserFactory(username="PREFIX")
bob = UserFactory(username="PREFIX-b")
cy = UserFactory(username="PREFIX-c")
match = match_play("alkort", 2, "PREFIX", {"target": 1})
[mine] = tables_insert([match], [[ada, bob]], creator=ada)
others = match_play("alkort", 2, "PREFIX-o", {"target": 1})
tables_insert([others] * 101, [[bob, cy]] * 101, creator=bob)
print(json.dumps({"table": mine, "place": match.outcome["places"][0]}))
"""


@pytest.mark.timeout(120)
def test_an_uncounted_table_behind_101_others_is_on_the_profile(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    name = unique_name("busy")
    made = json.loads(live_manage(SET_UP.replace("PREFIX", name)).splitlines()[-1])
    page = player().page
    counted = page.request.get(f"/api/stats/players/{name}/tables/").json()
    assert counted["count"] == 0  # still being counted: no marker, no result
    page.goto(f"/players/{name}/")
    row = page.locator("#recent-tables li", has_text=f"Alkort #{made['table']} ")
    row.wait_for()
    assert f"· place {made['place']} of 2 ·" in row.text_content()
    assert page.locator("#recent-tables li").count() == 1
