"""Sign up, log out, log in again — with the server's messages on a refusal."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.flows import create_table, sign_up, unique_name, wait_live, wait_turn

NEW_PASSWORD = "a-new-unusual-passphrase-43"


@pytest.mark.timeout(60)
def test_sign_up_log_out_and_log_in_again(player: Any) -> None:
    person = player()
    person.expected_failures += ["/api/accounts/register/", "/api/accounts/login/"]
    page = person.page

    page.goto("/accounts/signup/")
    page.fill("input[name=username]", unique_name("cy"))
    page.fill("input[name=password]", "short")
    page.click("button[type=submit]")
    error = page.locator("#auth-form .form-error")
    error.wait_for()
    assert "This password is too short." in error.text_content()

    name = sign_up(person, "cy")
    page.click("#logout")
    page.wait_for_selector("a[href^='/accounts/login/']")
    assert page.locator(".me").count() == 0

    page.goto("/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", "not-the-password")
    page.click("button[type=submit]")
    error.wait_for()
    assert error.text_content() == "Unable to log in with the provided credentials."

    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector(f".me:text-is('{name}')")
    assert page.url.endswith("/")


def _log_in(person: Any, name: str, password: str) -> None:
    page = person.page
    page.goto("/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_selector(f".me:text-is('{name}')")


@pytest.mark.timeout(120)
def test_a_password_changed_in_one_browser_logs_the_other_out_of_its_table(
    player: Any,
) -> None:
    """The account page changes the password: this browser stays logged in,
    the other one's live table closes its socket and shows the page as it now
    is for a visitor, and the old password no longer works."""
    playing = player()
    playing.expected_failures.append("/api/accounts/me/")  # logged out: 401
    name = sign_up(playing, "di")
    table_id = create_table(playing.page, "alkort", 2, {"target": 1})
    assert wait_turn(playing.page) == "turn"
    wait_live(playing.page)

    settings = player()
    settings.expected_failures += ["/api/accounts/password/", "/api/accounts/login/"]
    _log_in(settings, name, PASSWORD)
    page = settings.page
    page.click("a[href='/accounts/settings/']")
    page.wait_for_selector("#password-form")
    page.fill("input[name=old_password]", "not-the-password")
    page.fill("input[name=new_password]", NEW_PASSWORD)
    page.click("#password-form button[type=submit]")
    error = page.locator("#password-error")
    error.wait_for()
    assert error.text_content() == "Your current password is not right."
    assert page.get_attribute("input[name=old_password]", "aria-invalid") == "true"

    page.fill("input[name=old_password]", PASSWORD)
    page.fill("input[name=new_password]", NEW_PASSWORD)
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#password-done:text-matches('Your password is changed')")
    assert page.locator("#token-revoke").is_disabled()

    # The other browser: its socket closed (4401), its session ended with the
    # password, so the table reloads for a visitor who is not logged in.
    playing.page.wait_for_selector("a[href^='/accounts/login/']", timeout=20_000)
    assert playing.page.url.endswith(f"/tables/{table_id}/")
    assert playing.page.locator(".me").count() == 0
    # This browser stays logged in; the old password is refused, the new works.
    page.reload()
    page.wait_for_selector(f".me:text-is('{name}')")
    page.click("#logout")
    page.wait_for_selector("a[href^='/accounts/login/']")
    page.goto("/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.locator("#auth-form .form-error").wait_for()
    _log_in(settings, name, NEW_PASSWORD)
