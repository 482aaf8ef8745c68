"""A screen reader hears the connection go and come back.

The top bar's "reconnecting…" was plain text: a player listening to the table
was never told the server was out of reach, played on, and heard "your move
may not have arrived" with no word why. The page's status region (the one
that reads the moves) now says once that the connection is lost, and once
that it is back.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import create_table, sign_up, wait_live, wait_turn
from tests.e2e.test_reconnect_and_refusal import LOSE_THE_SOCKET

# Every text the status region (#announcer) is given, in order.
LISTEN = """() => {
  window.heard = [];
  const region = document.getElementById('announcer');
  new MutationObserver(() => window.heard.push(region.textContent))
    .observe(region, { childList: true, subtree: true, characterData: true });
}"""
HEARD = "(text) => window.heard.some((line) => line.includes(text))"
LOST = "The connection to the table is lost: reconnecting."
BACK = "Connected again: the table is up to date."


def heard(page: Any) -> list[str]:
    return list(page.evaluate("window.heard"))


@pytest.mark.timeout(120)
def test_losing_and_regaining_the_server_is_read_out_once_each(player: Any) -> None:
    person = player()
    # The page's requests refused while "the network is away" (Chromium logs each).
    person.expected_failures.extend(["/events/", "/api/tables/"])
    sign_up(person)
    page = person.page
    create_table(page, "alkort", 2, {"target": 1})
    assert wait_turn(page) == "turn"
    wait_live(page)
    page.evaluate(LISTEN)

    # The socket gone and every request failing: the server is out of reach.
    page.route(re.compile(r"/api/tables/"), lambda route: route.abort())
    assert page.evaluate(LOSE_THE_SOCKET) == "polling"
    expect(page.locator("#conn")).to_have_text("reconnecting…")
    page.wait_for_function(HEARD, arg=LOST)
    # Each failed poll after the first says nothing more.
    page.wait_for_timeout(3000)
    assert sum(LOST in text for text in heard(page)) == 1, heard(page)

    page.unroute(re.compile(r"/api/tables/"))
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_live(page)
    page.wait_for_function(HEARD, arg=BACK)
    page.wait_for_timeout(1500)
    assert sum(BACK in text for text in heard(page)) == 1, heard(page)
