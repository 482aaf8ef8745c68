"""The admin and the API's docs page work under the site's
Content-Security-Policy (config/csp.py): their scripts are files of this
server, so the policy refuses none of them; the ``player`` fixture fails the
test on any console error, a refused script or style included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD
from tests.e2e.flows import unique_name

SUPERUSER = """
from accounts.models import User
from tests.tournaments.factories import TournamentFactory
User.objects.create_superuser({name!r}, password={password!r})
TournamentFactory(name="Policy cup " + {name!r}, game="alkort", table_size=2)
"""


@pytest.mark.timeout(90)
def test_the_admin_runs_its_scripts_under_the_policy(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    name = unique_name("boss")
    live_manage(SUPERUSER.format(name=name, password=PASSWORD))
    organiser = player()
    page = organiser.page

    response = page.goto("/admin/login/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#site-name")).to_be_visible()

    # The changelist's actions script counts what is ticked.
    # Its own tournament only: the live database is shared with the other
    # browser tests, which leave tournaments of their own there.
    page.goto(f"/admin/tournaments/tournament/?q={name}")
    page.locator("#action-toggle").check()
    expect(page.locator(".action-counter")).to_contain_text("1 of 1 selected")

    # The change form's scripts: the inline's "add another" row.
    page.get_by_role("link", name=f"Policy cup {name}").click()
    add_row = page.locator(".add-row a")
    if add_row.count():
        rows = page.locator(".dynamic-entries").count()
        add_row.first.click()
        expect(page.locator(".dynamic-entries")).to_have_count(rows + 1)


@pytest.mark.timeout(60)
def test_the_docs_page_runs_swagger_under_the_policy(player: Any) -> None:
    page = player().page

    response = page.goto("/api/docs/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    # Swagger UI ran its set-up script and drew the operations.
    expect(page.locator(".opblock").first).to_be_visible()
    expect(page.locator(".opblock-summary-path", has_text="/healthz")).to_be_visible()
