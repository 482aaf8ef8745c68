"""A person not seated at a table in play is told they are watching.

The turn bar ("Waiting for …") only implied it: a visitor, or someone signed
in who is not at the table, now sees "You are watching this match" with who
plays and a way back to the lobby, at phone and desktop width, in text a
screen reader reads; the seated player never sees it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.axe import Audit
from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import create_table, sign_up, wait_turn


@pytest.mark.timeout(240)
def test_a_visitor_is_told_they_are_watching(player: Any, screenshot_dir: Path) -> None:
    seated = player()
    sign_up(seated)
    page = seated.page
    table_id = create_table(page, "alkort", 4)
    assert wait_turn(page) == "turn"
    assert page.locator("#watching").is_hidden()

    audit = Audit()
    # Anonymous at 390 px, and signed in but not seated at 1440 px.
    anonymous = player(390, 844)
    signed_in = player(1440, 900)
    sign_up(signed_in, prefix="eve")
    for person, width in ((anonymous, 390), (signed_in, 1440)):
        watcher = person.page
        watcher.goto(f"/tables/{table_id}/")
        watcher.wait_for_selector("#table-page[data-status='playing']")
        banner = watcher.locator("#watching")
        banner.wait_for(state="visible")
        assert banner.text_content().startswith(
            "You are watching this match: 1 person and 3 bots at 4 seats."
        )
        # Read by a screen reader: not hidden from the accessibility tree,
        # and before the turn bar in reading order.
        assert watcher.get_by_text("You are watching this match").is_visible()
        order = watcher.evaluate(
            "document.getElementById('watching').compareDocumentPosition("
            "document.getElementById('turn-bar'))"
        )
        assert order & 4, "the notice comes after the turn bar"
        lobby = banner.get_by_role("link", name="Back to the lobby")
        assert lobby.get_attribute("href") == "/"
        box = banner.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert watcher.evaluate("document.documentElement.scrollWidth") <= width
        keep_screenshot(watcher, screenshot_dir, f"alkort-4p-{width}-watching")
        audit.check(watcher, f"alkort table watched at {width} px")
    audit.assert_clean()

    # The seated player still sees no such notice.
    page.reload()
    page.wait_for_selector("#table-page[data-status='playing']")
    assert wait_turn(page) == "turn"
    assert page.locator("#watching").is_hidden()
