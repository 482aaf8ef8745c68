"""Sign up and play a whole match of each game against bots, by clicking."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import create_table, play_to_end, sign_up, wait_turn

# Alager's limit is 2: a deal can end before this seat's first turn (a
# special hand dealt or completed by a bot, about 1 match in 1200 at 3
# players), and a limit of 1 then ends the match with no turn at all.
SHORT = {
    "alager": (3, {"penalty_limit": 2}),
    "alkort": (2, {"target": 1}),
    "allegra": (2, {"rounds": 1}),
}
RESULT_LINES = {
    "alager": "Penalty points",
    "alkort": "Points",  # two players: no sides
    "allegra": "Points",
}


@pytest.mark.timeout(180)
@pytest.mark.parametrize("game", ["alager", "alkort", "allegra"])
def test_a_whole_match_against_bots_by_clicking(
    player: Any, screenshot_dir: Path, game: str
) -> None:
    person = player()
    page = person.page
    name = sign_up(person)
    players, options = SHORT[game]

    table_id = create_table(page, game, players, options)
    assert wait_turn(page) == "turn"
    # The seat's own cards are drawn as SVG cards, and the next move is lit.
    assert page.locator("#board svg.card").count() > 0
    assert page.locator("#turn-bar.my-turn").is_visible()
    keep_screenshot(page, screenshot_dir, f"{game}-1440")
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()  # a phone opens the page at its own width
    assert wait_turn(page) == "turn"
    keep_screenshot(page, screenshot_dir, f"{game}-390")
    # At 390 px nothing runs off the side of the page but the Allegra ring,
    # which scrolls inside its own box.
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= 390, f"the {game} page is {overflow}px wide at 390px"
    page.set_viewport_size({"width": 1440, "height": 900})

    moves = play_to_end(page, game)

    assert moves >= 1
    dialog = page.locator("dialog#result")
    dialog.wait_for(state="visible")
    assert dialog.locator("th", has_text=RESULT_LINES[game]).count() == 1
    assert dialog.locator("tbody tr").count() == players
    assert dialog.locator("td", has_text=name).count() == 1
    summary = page.request.get(f"/api/tables/{table_id}/").json()
    assert summary["status"] == "finished"
    # The form's choices reached the table: the options, the seats, the bots.
    assert {k: summary["options"][k] for k in options} == options
    assert [s["bot_level"] for s in summary["seats"]] == [None] + ["random"] * (
        players - 1
    )
    assert summary["rated"] is False
    assert page.locator("#turn-text").text_content().startswith("Match over.")
    # The seed comes with the table's summary, which the page may fetch
    # after the last move's frame has shown the result: wait for it.
    expect(page.locator("#fair code")).to_have_text(summary["seed"])
