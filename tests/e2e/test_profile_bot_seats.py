"""A house bot's profile charts a table it held several seats of as one
point: its rating history has an entry per seat (each seat's own place and
expected place, ``docs/stats.md``), all with the one rating the table gave."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.flows import (
    create_table,
    play_to_end,
    sign_up,
    unique_name,
    wait_counted,
)

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


@pytest.mark.timeout(180)
def test_a_match_against_three_bots_lands_in_profile_chart_and_leaderboard(
    player: Any,
) -> None:
    """A person plays Alager against three basic bots (one bot account in three
    seats) through the pages; the real worker counts it. The person's page,
    chart and the leaderboard show the one match; the bot's page shows the
    table once, with its three places, and one point on its chart."""
    person = player()
    name = sign_up(person)
    page = person.page
    table_id = create_table(
        page, "alager", 4, {"penalty_limit": 1}, level="basic", rated=True
    )
    play_to_end(page, "alager")
    table = page.request.get(f"/api/tables/{table_id}/").json()
    places = table["outcome"]["places"]
    wait_counted(page, name, "alager", 1)

    page.goto(f"/players/{name}/")
    row = page.locator("#recent-tables li", has_text=f"Alager #{table_id} ")
    row.wait_for()
    assert f"· place {places[0]} of 4 ·" in row.text_content()
    chart = page.locator(".rating-history[data-game=alager] svg.chart")
    chart.wait_for()
    dots = chart.locator("circle title").all_text_contents()
    assert dots[0].startswith("Before the first match: "), dots
    assert dots[1].startswith(f"Table {table_id}: place {places[0]}, rating "), dots
    assert len(dots) == 2

    page.goto("/leaderboards/alager/")
    page.locator("tbody tr", has_text=name).wait_for()
    mine = page.locator("tbody tr", has_text=name)
    assert mine.locator("td").last.text_content() == "1"

    page.goto("/players/bot-basic/")
    row = page.locator("#recent-tables li", has_text=f"Alager #{table_id} ")
    row.wait_for()
    assert row.count() == 1
    bot_places = ", ".join(str(p) for p in places[1:3]) + f" and {places[3]}"
    assert f"· places {bot_places} of 4 ·" in row.text_content()
    chart = page.locator(".rating-history[data-game=alager] svg.chart")
    chart.wait_for()
    titles = [
        t
        for t in chart.locator("circle title").all_text_contents()
        if t.startswith(f"Table {table_id}:")
    ]
    assert titles == [titles[0]] and f"places {bot_places}, " in titles[0], titles


MANY_SEATS = """
import json
from stats.services import table_record
from stats.simulate import match_play, tables_insert
from tests.accounts.factories import BotFactory, UserFactory
from tests.stats.matches import outcome_forced

ada = UserFactory(username="PREFIX")
bot = BotFactory(username="PREFIX-bot")
matches = [
    match_play("alager", 8, f"PREFIX-{i}", {"penalty_limit": 1}) for i in range(COUNT)
]
tables = tables_insert(matches, [[ada] + [bot] * 7] * COUNT, creator=ada)
for table_id in tables:
    table_record(table_id=table_id)
print(json.dumps({"bot": bot.username, "person": ada.username, "tables": tables}))
"""


@pytest.mark.timeout(120)
def test_a_bot_in_seven_seats_a_table_lists_its_ten_latest_tables(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """The profile lists the ten latest tables, each once with every place,
    however many seats the bot held: reading a page of 50 seat rows showed
    a bot with seven seats a table only 8 tables."""
    made = json.loads(
        live_manage(
            MANY_SEATS.replace("PREFIX", unique_name("many")).replace("COUNT", "12")
        ).splitlines()[-1]
    )
    page = player().page
    page.goto(f"/players/{made['bot']}/")
    rows = page.locator("#recent-tables li")
    rows.first.wait_for()
    shown = [int(n) for n in rows.evaluate_all("els => els.map(e => e.dataset.table)")]
    assert shown == made["tables"][::-1][:10]
    for text in rows.all_text_contents():
        assert " · places " in text and " of 8 · " in text, text


@pytest.mark.timeout(120)
def test_a_bot_in_seven_seats_a_table_says_what_counts_tables_and_what_seats(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """The leaderboard and the ratings table showed a bot's rated tables under
    "Matches", beside statistics whose "Matches" count every seat: 12 beside
    84 for twelve tables of seven seats. Each figure now says what it counts."""
    made = json.loads(
        live_manage(
            MANY_SEATS.replace("PREFIX", unique_name("label")).replace("COUNT", "12")
        ).splitlines()[-1]
    )
    bot = made["bot"]
    page = player().page
    page.goto("/leaderboards/alager/")
    row = page.locator("#leaderboard tbody tr", has_text=bot)
    row.wait_for()
    headers = page.locator("#leaderboard thead th").all_text_contents()
    assert headers[-1] == "Rated tables", headers
    assert row.locator("td").last.text_content() == "12"
    assert "is rated once for it" in page.locator("#leaderboard-tables").text_content()

    page.goto(f"/players/{bot}/")
    ratings = page.locator("#ratings")
    ratings.wait_for()
    assert ratings.locator("thead th").last.text_content() == "Rated tables"
    assert ratings.locator("tbody td").last.text_content() == "12"
    figures = page.locator(".game-figures[data-game=alager]")
    assert figures.locator("[data-figure=matches] .stat").text_content() == "84"
    assert figures.locator("[data-figure=rated_matches] dd").text_content() == "84"
    # Its statistics count seats, and their labels say so.
    assert figures.locator("[data-figure=matches] .muted").text_content() == (
        "Seats played"
    )
    assert figures.locator("[data-figure=rated_matches] dt").text_content() == (
        "Rated seats"
    )
    assert "count each seat as a match" in page.locator("#bot-seats").text_content()

    hint = page.locator(".rating-history[data-game=alager] .hint")
    hint.wait_for()
    assert hint.text_content().startswith(
        "From the starting rating, each point is a rated table, with the place of"
    ), hint.text_content()
    axis = page.locator(".rating-history[data-game=alager] svg.chart text")
    assert "12 tables" in axis.all_text_contents()

    # A person holds one seat a table: their seats are their matches.
    page.goto(f"/players/{made['person']}/")
    figures = page.locator(".game-figures[data-game=alager]")
    figures.wait_for()
    assert figures.locator("[data-figure=matches] .muted").text_content() == "Matches"
    assert figures.locator("[data-figure=matches] .stat").text_content() == "12"
    assert figures.locator("[data-figure=rated_matches] dt").text_content() == (
        "Rated matches"
    )


@pytest.mark.timeout(180)
def test_a_bot_chart_starts_at_a_whole_table(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """The chart reads the latest 500 history entries, one a seat: 72 tables
    of seven seats are 504, and the oldest table read had 3 of its 7 seats,
    charted as "places …" of three. A table cut by the page is left out."""
    made = json.loads(
        live_manage(
            MANY_SEATS.replace("PREFIX", unique_name("cut")).replace("COUNT", "72")
        ).splitlines()[-1]
    )
    page = player().page
    page.goto(f"/players/{made['bot']}/")
    chart = page.locator(".rating-history[data-game=alager] svg.chart")
    chart.wait_for()
    titles = chart.locator("circle title").all_text_contents()
    assert len(titles) == 71, len(titles)
    assert titles[0].startswith(f"Table {made['tables'][1]}: places "), titles[0]
    for title in titles:
        places = title.split(": places ")[1].split(", rating")[0]
        assert places.count(",") == 5 and " and " in places, title
    hint = page.locator(".rating-history[data-game=alager] .hint").text_content()
    assert hint.endswith("Showing the latest 71 of 72 rated tables."), hint
