"""A move on its way: the page says so, and a double click or tap is one press."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import create_table, move_done, seq, sign_up, wait_turn

#: Every socket frame, sent or received, held back this long: a slow network
#: (DevTools' throttling leaves WebSocket frames alone).
SLOW_SOCKET = """(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    send(data) {
      setTimeout(() => { if (this.readyState === 1) Native.prototype.send.call(this, data); }, 1500);
    }
    addEventListener(type, listener, options) {
      if (type !== "message") return super.addEventListener(type, listener, options);
      return super.addEventListener(type, (event) => setTimeout(() => listener.call(this, event), 1500), options);
    }
  };
})();"""


@pytest.mark.timeout(120)
def test_the_second_press_of_a_double_click_is_not_a_second_move(player: Any) -> None:
    """Against bots the answer (the bot's move included) can be back before a
    double tap's second tap: the board under the finger is then the next
    turn's, and the second tap played a second move the player never chose
    (seen in Alkort: two cards from one double tap on the first)."""
    person = player(390, 844)
    sign_up(person)
    create_table(person.page, "alager", 2)
    page = person.page
    checked = 0
    for _ in range(20):
        if wait_turn(page) == "over":
            break
        dal = page.get_by_role("button", name="Dál (pass)")
        dal.scroll_into_view_if_needed()
        box = dal.bounding_box()
        assert box
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        before = seq(page)
        page.mouse.click(x, y)
        move_done(page, before)
        if wait_turn(page) == "over":
            break
        under = page.evaluate(
            "([x, y]) => { const b = document.elementFromPoint(x, y).closest('button');"
            " return b && !b.disabled ? b.textContent : null; }",
            [x, y],
        )
        if under != "Dál (pass)":
            continue  # the deal ended: another board under the pointer
        # The second press of the double click, after the answer came back.
        at = seq(page)
        page.mouse.down(click_count=2)
        page.mouse.up(click_count=2)
        page.wait_for_timeout(800)
        assert seq(page) == at, "the second press of a double click played a move"
        checked += 1
        if checked == 2:
            return
    raise AssertionError("no turn with Dál under the pointer twice in a row")


@pytest.mark.timeout(120)
def test_a_slow_move_says_it_is_on_its_way(player: Any) -> None:
    person = player(390, 844)
    person.context.add_init_script(SLOW_SOCKET)
    sign_up(person)
    create_table(person.page, "alager", 2)
    page = person.page
    assert wait_turn(page) == "turn"
    dal = page.get_by_role("button", name="Dál (pass)")
    before = seq(page)
    dal.click()
    # Only the press: what the page shows until the answer is back.
    expect(page.locator("#turn-text")).to_have_text("Sending your move…")
    expect(page.get_by_role("button", name="Konec (knock)")).to_be_disabled()
    move_done(page, before)
    expect(page.locator("#turn-text")).not_to_have_text("Sending your move…")
