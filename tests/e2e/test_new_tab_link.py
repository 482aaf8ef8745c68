"""The table's Rules link says that it opens a new tab.

It opens the rules beside the match (the table keeps running): a screen
reader user who followed it found themselves on another page with no word
that the table was still there, in the tab they had left.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.flows import create_table, sign_up, wait_turn


@pytest.mark.timeout(120)
def test_the_rules_link_says_it_opens_a_new_tab(player: Any) -> None:
    person = player()
    sign_up(person)
    page = person.page
    create_table(page, "alkort", 2, {"target": 1})
    wait_turn(page)
    link = page.get_by_role("link", name="Rules (opens in a new tab)", exact=True)
    assert link.get_attribute("target") == "_blank"
    # The screen shows "Rules" alone, the start of the name (label in name).
    assert link.inner_text().startswith("Rules")
    assert link.bounding_box()["width"] < 120
