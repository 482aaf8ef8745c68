"""A keyboard user whose table could not be opened stays where they were.

The lobby turns every create button off while a table is being opened; the
button under the keyboard going off dropped focus to the top of the page,
and after a refusal the player had to Tab back through the top bar to try
again. Focus now returns to the button they pressed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import sign_up

REFUSAL = {"code": "table_limit", "message": "You have too many open tables."}


@pytest.mark.timeout(120)
def test_a_refused_one_click_match_gives_focus_back_to_its_button(player: Any) -> None:
    person = player()
    person.expected_failures.append("/api/tables/")
    sign_up(person)
    page = person.page

    def refuse(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        route.fulfill(
            status=400, content_type="application/json", body=json.dumps(REFUSAL)
        )

    page.route("**/api/tables/", refuse)
    button = page.locator(".quick-btn[data-game=alkort]")
    button.focus()
    page.keyboard.press("Enter")

    error = page.locator("#lobby-error")
    expect(error).to_contain_text(REFUSAL["message"])
    expect(button).to_be_enabled()
    expect(button).to_be_focused()
    # Pressed again from there, it tries again.
    page.keyboard.press("Enter")
    expect(button).to_be_focused()
