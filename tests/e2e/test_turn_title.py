"""The tab's title says when it is the player's turn.

Only the page itself said "Your turn": a player in another tab, or a screen
reader moving between tabs (which reads a tab's title first), had no word of
it until they came back and looked.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.flows import create_table, play_to_end, sign_up, wait_turn


@pytest.mark.timeout(180)
def test_the_title_says_your_turn_while_it_is(player: Any) -> None:
    person = player()
    sign_up(person)
    page = person.page
    table_id = create_table(page, "alkort", 2, {"target": 1})
    assert wait_turn(page) == "turn"
    assert page.title() == f"Your turn · Alkort #{table_id} · Cardroom"

    # A move on its way is no longer a turn to take.
    page.evaluate("() => { window.cardroom.client.act = () => new Promise(() => {}); }")
    page.locator("#board button:not([disabled])").first.click()
    page.wait_for_function("() => !document.title.startsWith('Your turn')")
    assert page.title() == f"Alkort #{table_id} · Cardroom"

    page.reload()
    play_to_end(page, "alkort")
    assert page.title() == f"Alkort #{table_id} · Cardroom"
