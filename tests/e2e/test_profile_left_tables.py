"""A table the person left mid-match is among their latest finished tables.

Leaving a match in play hands the seat to a bot: the tables API then shows
the bot in it, so the profile, which looked for the person's name in the
seats, left the table out, although the statistics credit them with its
result. Their tables now come from the statistics' list of the tables
counted for them, rated or not.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import create_table, sign_up, wait_counted, wait_turn

LEAVE = """async (id) => {
  const { api } = await import('/static/web/js/api.js');
  await api(`/api/tables/${id}/leave/`, { method: 'POST' });
}"""


@pytest.mark.timeout(180)
@pytest.mark.parametrize("rated", [True, False], ids=["rated", "unrated"])
def test_a_table_left_mid_match_is_listed_on_the_profile(
    player: Any, screenshot_dir: Path, rated: bool
) -> None:
    person = player()
    name = sign_up(person)
    page = person.page
    table_id = create_table(page, "alkort", 2, {"target": 1}, rated=rated)
    assert wait_turn(page) == "turn"
    page.evaluate(LEAVE, table_id)

    # The bot that took the seat over plays the match to its end.
    deadline = time.monotonic() + 60
    while True:
        table = page.request.get(f"/api/tables/{table_id}/").json()
        if table["status"] == "finished":
            break
        assert time.monotonic() < deadline, table["status"]
        page.wait_for_timeout(300)
    assert all(seat["username"] != name for seat in table["seats"])
    if rated:
        wait_counted(page, name, "alkort", 1)
    else:  # no rating to wait for: the table's count in the statistics
        deadline = time.monotonic() + 30
        while not page.request.get(f"/api/stats/players/{name}/tables/").json()[
            "count"
        ]:
            assert time.monotonic() < deadline, "the unrated table was never counted"
            page.wait_for_timeout(300)

    page.goto(f"/players/{name}/")
    page.locator("#recent-tables").wait_for()
    row = page.locator("#recent-tables li", has_text=f"Alkort #{table_id} ")
    assert row.count() == 1, page.locator("#recent-tables").text_content()
    text = row.text_content()
    assert f"Alkort #{table_id} · place " in text and " of 2" in text, text
    assert "left, a bot played on" in text, text
    assert row.get_by_role("link", name="replay").get_attribute("href") == (
        f"/tables/{table_id}/replay/"
    )
    if not rated:
        return
    keep_screenshot(page, screenshot_dir, "profile-1440-left-table")
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    page.locator("#recent-tables li").first.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    keep_screenshot(page, screenshot_dir, "profile-390-left-table")
