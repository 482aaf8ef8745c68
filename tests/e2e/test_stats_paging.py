"""Stats pages read paged APIs whole: the profile's rating-history chart ends
at the rating the API gives now however many rated matches came before (the
history is paged oldest first, at most 500 a page), and the leaderboard shows
how many players it has and loads the next page on request."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import unique_name

# 520 rated two-player Alkort matches of one person against another, won in
# turn, counted as the worker counts them.
SET_UP = """
import json
from accounts.models import User
from stats.models import Rating
from stats.services import table_record
from stats.simulate import match_play, tables_insert
from tests.accounts.factories import UserFactory

ada = UserFactory(username="PREFIXa")
bob = UserFactory(username="PREFIXb")
games = [match_play("alkort", 2, f"PREFIX{i}", {"target": 1}) for i in range(2)]
ids = tables_insert(
    [games[i % 2] for i in range(520)], [[ada, bob]] * 520, creator=ada
)
for table_id in ids:
    table_record(table_id=table_id)
rating = Rating.objects.get(user=ada, game="alkort")
print(json.dumps({
    "name": ada.username, "last": ids[-1], "display": rating.mu - 3 * rating.sigma,
    "matches": rating.matches,
}))
"""


@pytest.mark.timeout(240)
def test_the_chart_ends_at_the_current_rating_after_many_matches(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    made = json.loads(
        live_manage(SET_UP.replace("PREFIX", unique_name("chart"))).splitlines()[-1]
    )
    assert made["matches"] == 520
    page = player().page

    page.goto(f"/players/{made['name']}/")
    chart = page.locator(".rating-history[data-game=alkort] svg.chart")
    chart.wait_for()

    # The latest 500 matches, the last of them the latest table.
    dots = chart.locator("circle title")
    assert dots.count() == 500
    assert re.match(
        rf"Table {made['last']}: place [12], rating {made['display']:.2f} ",
        dots.last.text_content(),
    )
    axis = chart.locator("text").all_text_contents()
    assert "match 21" in axis
    assert "520 matches" in axis
    hint = page.locator(".rating-history[data-game=alkort] .hint").text_content()
    assert hint.endswith("Showing the latest 500 of 520.")


# 30 rated two-player Allegra matches, each between two new people: 60 new
# rated players, more than the leaderboard API's first page of 50.
LEADERBOARD_SET_UP = """
import json
from stats.services import table_record
from stats.simulate import match_play, tables_insert
from tests.accounts.factories import UserFactory

people = [UserFactory(username=f"PREFIX{i}") for i in range(60)]
match = match_play("allegra", 2, "PREFIX", {"rounds": 1})
ids = tables_insert(
    [match] * 30, [people[2 * i : 2 * i + 2] for i in range(30)], creator=people[0]
)
for table_id in ids:
    table_record(table_id=table_id)
print(json.dumps({"done": len(ids)}))
"""


@pytest.mark.timeout(180)
def test_the_leaderboard_loads_more_players_on_request(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    live_manage(LEADERBOARD_SET_UP.replace("PREFIX", unique_name("board")))
    page = player().page
    everyone = page.request.get("/api/stats/leaderboards/allegra/?page_size=500").json()
    count = everyone["count"]
    assert count > 50

    page.goto("/leaderboards/allegra/")
    rows = page.locator("#leaderboard tbody tr")
    expect(rows).to_have_count(50)
    shown = page.locator("#leaderboard-shown")
    expect(shown).to_have_text(f"Showing 50 of {count} rated players.")

    page.get_by_role("button", name="Show more players").click()
    expect(rows).to_have_count(min(count, 100))
    expect(shown).to_have_text(f"Showing {min(count, 100)} of {count} rated players.")
    ranks = [int(r) for r in rows.locator("td:first-child").all_text_contents()]
    assert ranks == [e["rank"] for e in everyone["results"][:100]]
    names = rows.locator("th a").all_text_contents()
    assert names == [e["username"] for e in everyone["results"][:100]]
    if count <= 100:
        expect(page.locator("#leaderboard-more")).to_be_hidden()
