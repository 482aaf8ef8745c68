"""Sign up, log out, log in again — with the server's messages on a refusal."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.flows import sign_up, unique_name


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
