"""The end of a match as a player sees it: the shown hands, the deal's result
in the side panel, and who won, in the words a player expects."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import create_table, play_to_end, sign_up, unique_name

# The deal-result table fits its side panel at 1440 px; at 390 px it may
# scroll, but only inside its own box.
TABLE_FITS = """() => {
  const box = document.querySelector('#summary .table-scroll');
  return box && box.scrollWidth <= box.clientWidth;
}"""


@pytest.mark.timeout(180)
def test_alager_match_end_shows_the_hands_and_a_deal_table_that_fits(
    player: Any, screenshot_dir: Path
) -> None:
    person = player()
    page = person.page
    sign_up(person)
    table_id = create_table(page, "alager", 3, {"penalty_limit": 1})
    play_to_end(page, "alager")
    page.locator("dialog#result").wait_for(state="visible")
    page.click("dialog#result button[value=close]")

    # The match's last showdown: every hand is public (rules §10) and the view
    # sends them (last_deal.hands); each opponent's box draws its hand face up.
    view = page.evaluate("window.cardroom.client.view")
    shown = view["last_deal"]["hands"]
    me = view["seat"]
    for seat, hand in enumerate(shown):
        if seat == me:
            continue
        box = page.locator(f"#board .opponent[data-seat='{seat}']")
        if hand is None:  # out of the match: nothing to show
            continue
        cards = box.locator(".shown-hand .card-slot")
        assert [
            cards.nth(i).get_attribute("data-card") for i in range(cards.count())
        ] == hand
        assert box.locator("svg.back").count() == 0
        assert (
            box.get_by_role(
                "group", name=f"{box.get_attribute('aria-label')}'s hand"
            ).count()
            == 1
        )

    # The deal's result table (with its "Hand" column) fits the side panel.
    summary = page.locator("#summary")
    assert summary.locator("th", has_text="Player and hand").count() == 1
    assert page.evaluate(TABLE_FITS), "the deal table scrolls sideways at 1440 px"
    hand_cell = summary.locator("tbody tr").first.locator("th")
    assert hand_cell.locator(".card-slot").count() == 3
    keep_screenshot(page, screenshot_dir, "alager-end-1440")

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/tables/{table_id}/")
    page.locator("dialog#result").wait_for(state="visible")
    page.click("dialog#result button[value=close]")
    assert page.locator("#board .opponent .shown-hand").count() >= 1
    # At 390 px the table still sits in its own scroll box, never the page.
    # (the panel is redrawn on every frame: ask the page, not one node)
    page.wait_for_function(
        """() => {
          const box = document.querySelector('#summary .table-scroll');
          return box && getComputedStyle(box).overflowX === 'auto';
        }"""
    )
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= 390, f"the page is {overflow}px wide at 390px"
    keep_screenshot(page, screenshot_dir, "alager-end-390")


@pytest.mark.timeout(240)
def test_four_player_alkort_partners_win_together(
    player: Any, screenshot_dir: Path
) -> None:
    person = player()
    page = person.page
    sign_up(person)
    create_table(page, "alkort", 4, {"target": 1})
    play_to_end(page, "alkort")
    dialog = page.locator("dialog#result")
    dialog.wait_for(state="visible")
    view = page.evaluate("window.cardroom.client.view")
    winners = view["outcome"]["winners"]
    side = next(i for i, seats in enumerate(view["sides"]) if winners[0] in seats)
    name = "North–South" if side == 0 else "East–West"
    line = dialog.locator(".result-line").text_content()
    assert line.startswith(f"{name} win: ")
    assert line.endswith(" (partners).")
    assert " & " in line
    assert "share the win" not in line
    keep_screenshot(page, screenshot_dir, "alkort4-end-1440")
    page.click("dialog#result button[value=close]")
    log = page.locator("#log li", has_text="Match over:").text_content()
    assert f"{name} win: " in log and "(partners)" in log


# A finished two-player Allegra match of one round, seated by a person and a
# house bot.
ALLEGRA_FINISHED = """
import json
import rules
from accounts.models import User
from games.models import Table
from stats.simulate import match_play, tables_insert
from tests.accounts.factories import UserFactory

me = UserFactory(username="PREFIX")
bot = User.objects.get(username="bot-random")
match = match_play("allegra", 2, "PREFIX", {"rounds": 1})
ids = tables_insert([match], [[me, bot]], creator=me)
# The table's stored state, as the last move would have left it.
game = rules.get_game("allegra")
Table.objects.filter(pk=ids[0]).update(state=game.dump_state(game.replay(match.events)))
print(json.dumps({"table": ids[0]}))
"""


@pytest.mark.timeout(90)
def test_a_finished_allegra_table_no_longer_calls_for_last_moves(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """The line under the grids kept saying "<seat> ended the round: last
    moves." once the match was over, under "Match over" in the turn bar."""
    made = json.loads(
        live_manage(
            ALLEGRA_FINISHED.replace("PREFIX", unique_name("end"))
        ).splitlines()[-1]
    )
    table = made["table"]
    page = player(390, 844).page
    view = page.request.get(f"/api/tables/{table}/").json()["view"]
    assert view["outcome"] and view["trigger"] is not None
    page.goto(f"/tables/{table}/")
    expect(page.locator("#turn-text")).to_contain_text("Match over.")
    expect(page.locator("#action-hint")).to_have_text("")
