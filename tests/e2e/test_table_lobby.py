"""A table waiting for players: its creator's controls survive the lobby's
refreshes (the page fetches the table again every few seconds)."""

from __future__ import annotations

from typing import Any

import pytest

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
