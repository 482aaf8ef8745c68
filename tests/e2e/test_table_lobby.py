"""A table waiting for players: its creator's controls survive the lobby's
refreshes (the page fetches the table again every few seconds)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import create_table, sign_up


def _refreshed(page: Any, table_id: int) -> None:
    """Wait until the page has fetched the table (again) and drawn it."""
    with page.expect_response(lambda r: r.url.endswith(f"/api/tables/{table_id}/")):
        pass
    page.wait_for_timeout(100)


@pytest.mark.timeout(90)
def test_the_picked_bot_level_and_the_focus_survive_the_refresh(player: Any) -> None:
    person = player()
    sign_up(person)
    page = person.page
    table_id = create_table(page, "alager", 4, fill="open")
    level = page.get_by_label("Bot level")
    level.select_option("strong")
    level.focus()

    _refreshed(page, table_id)
    _refreshed(page, table_id)

    assert level.input_value() == "strong"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "Bot level"
    )
    add = page.get_by_role("button", name="Add a bot")
    add.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#seats li:nth-child(2) .dot.bot")
    seats = page.request.get(f"/api/tables/{table_id}/").json()["seats"]
    assert seats[1]["bot_level"] == "strong"
    # The seats changed, so the controls were drawn again: the level stays
    # picked and the focus stays on the button, ready for the next bot.
    assert level.input_value() == "strong"
    assert page.evaluate("document.activeElement.textContent") == "Add a bot"


@pytest.mark.timeout(120)
def test_the_turn_bar_says_who_starts_the_match_and_when(player: Any) -> None:
    """Everyone at a table waiting for players read "the table's creator starts
    the match once every seat is filled", the creator too, and still after the
    last seat was taken: the creator was never told it was up to them now, and
    the person who joined did not know whom they were waiting for."""
    creator = player()
    name = sign_up(creator, prefix="cre")
    page = creator.page
    table_id = create_table(page, "alager", 2, fill="open")
    bar = page.locator("#turn-text")
    expect(bar).to_have_text(
        "Waiting for 1 more player: add a bot or share this page's address,"
        " then start the match."
    )

    guest = player(390, 844)
    sign_up(guest, prefix="gus")
    other = guest.page
    other.goto(f"/tables/{table_id}/")
    other.get_by_role("button", name="Take a seat").click()
    expect(other.locator("#turn-text")).to_have_text(
        f"Every seat is filled: waiting for {name} to start the match."
    )
    # The creator's page hears of it (the lobby is fetched again every few
    # seconds), on the screen and from the screen reader.
    expect(bar).to_have_text(
        "Every seat is filled: start the match when you are ready."
    )
    expect(page.locator("#announcer")).to_contain_text("Every seat is filled")

    other.get_by_role("button", name="Leave").click()
    expect(other.locator("#turn-text")).to_have_text(
        f"Waiting for players: {name} starts the match once every seat is filled."
    )
    expect(bar).to_have_text(
        "Waiting for 1 more player: add a bot or share this page's address,"
        " then start the match."
    )
