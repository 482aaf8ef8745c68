"""The tournaments admin in the browser, as an organiser (staff, not a
superuser, with the tournaments permissions) sees it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD
from tests.e2e.flows import unique_name

# An organiser, and two tournaments: one with a 200-character name of one
# word (the longest the model takes), one ordinary.
LONG_NAME_SET_UP = """
from tests.tournaments.factories import TournamentFactory, organiser_user
person = organiser_user(username={name!r})
person.set_password({password!r})
person.save()
TournamentFactory(name="W" * 200, game="alkort", table_size=2)
TournamentFactory(name="Club night", game="alager", table_size=2)
"""


def _sign_in(page: Any, name: str) -> None:
    page.goto("/admin/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#site-name")).to_be_visible()


@pytest.mark.timeout(90)
@pytest.mark.parametrize("width,height", [(1440, 900), (390, 844)])
def test_a_long_name_leaves_the_list_s_columns_in_view(
    player: Any, live_manage: Callable[[str], str], width: int, height: int
) -> None:
    """A tournament named with one long word wraps in the list: it pushed
    every other column (game, format, status, rounds, entries) past the
    right edge of the page, for every row, so the organiser saw names only."""
    name = unique_name("org")
    live_manage(LONG_NAME_SET_UP.format(name=name, password=PASSWORD))
    page = player(width, height).page
    _sign_in(page, name)
    page.goto("/admin/tournaments/tournament/")
    status = page.locator("#result_list thead th.column-status")
    expect(status).to_be_visible()
    results = page.locator("#changelist .results")
    # The list fits its box: nothing runs past its right edge.
    box = results.evaluate("e => [e.scrollWidth, e.clientWidth]")
    if width >= 1024:
        assert box[0] <= box[1], box
        right = status.evaluate("e => e.getBoundingClientRect().right")
        assert right <= width, right
    # The name is whole, on several lines.
    cell = page.locator("#result_list tbody th.field-name", has_text="W" * 50).first
    assert cell.inner_text().strip() == "W" * 200
    assert cell.evaluate("e => e.getBoundingClientRect().height") > 40
