""" "Play again" at the end of a match against bots: the same match again.

A new player who had just finished a match against bots found only "Back to
the lobby", and had to fill the create form in again (game, players, every
option, bot level) to play the same match once more. The finished table now
offers "Play again": a new table with the same settings, filled with bots of
the same level and started. Only a seat whose opponents were all bots sees it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import create_table, play_to_end, sign_up, wait_turn

OPTIONS = {"penalty_limit": 1, "deck": 32, "konec_after_exchange": True}


@pytest.mark.timeout(240)
def test_play_again_opens_the_same_match_against_bots(
    player: Any, screenshot_dir: Path
) -> None:
    person = player()
    page = person.page
    name = sign_up(person)
    first = create_table(page, "alager", 4, OPTIONS, level="random")
    page.set_viewport_size({"width": 390, "height": 844})
    play_to_end(page, "alager")
    dialog = page.locator("dialog#result")
    dialog.wait_for(state="visible")
    again = dialog.get_by_role("button", name="Play again")
    assert again.is_visible()
    keep_screenshot(page, screenshot_dir, "play-again-390")

    # Closed, the dialog leaves the offer in the table's header.
    page.click("dialog#result button[value=close]")
    top = page.locator("#again-top")
    assert top.is_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= 390, f"the page is {overflow}px wide at 390px"

    # A visitor of the finished table is offered nothing.
    visitor = player(390, 844).page
    visitor.goto(f"/tables/{first}/")
    visitor.locator("dialog#result").wait_for(state="visible")
    assert visitor.locator(".play-again:visible").count() == 0

    top.click()
    page.wait_for_url(lambda url: not url.rstrip("/").endswith(f"/tables/{first}"))
    page.wait_for_selector("#table-page[data-seq]")
    second = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert second != first
    assert wait_turn(page) in {"turn", "over"}
    old = page.request.get(f"/api/tables/{first}/").json()
    new = page.request.get(f"/api/tables/{second}/").json()
    assert new["status"] in {"playing", "finished"}, new["status"]
    assert (new["game"], new["players"], new["rated"], new["time_control"]) == (
        old["game"],
        old["players"],
        old["rated"],
        old["time_control"],
    )
    assert new["options"] == old["options"]
    assert new["options"]["deck"] == 32
    seats = new["seats"]
    assert [s["username"] for s in seats if not s["is_bot"]] == [name]
    assert [s["bot_level"] for s in seats if s["is_bot"]] == ["random"] * 3
