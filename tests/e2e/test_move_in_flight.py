"""A move on its way: the page says so, and a double click or tap is one press."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import create_table, move_done, seq, sign_up, wait_live, wait_turn

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


#: A move sent over the socket held back `window.heldAct` ms before it leaves
#: (0: at once; -1: lost on the way), other frames untouched: past the
#: client's 8 s wait for the answer, the move may still land on the server
#: after the page gave up. `window.acts` keeps every move sent.
HELD_ACT = """(() => {
  const Native = window.WebSocket;
  window.heldAct = 0;
  window.acts = [];
  window.WebSocket = class extends Native {
    send(data) {
      const act = String(data).includes('"type":"act"');
      if (act) window.acts.push(JSON.parse(data));
      const held = act ? window.heldAct : 0;
      if (held < 0) return;
      if (!held) return super.send(data);
      setTimeout(() => { if (this.readyState === 1) Native.prototype.send.call(this, data); }, held);
    }
  };
})();"""

#: Everything the page shows from now on: each turn-bar line, and whether,
#: once the move was pressed, it offered the move again at the seq the move
#: was sent at.
WATCH_PAGE = """before => {
  const root = document.getElementById('table-page');
  window.seen = { lines: [], pressed: false, offeredAgain: false };
  const look = () => {
    const line = document.getElementById('turn-text').textContent;
    if (window.seen.lines[window.seen.lines.length - 1] !== line) window.seen.lines.push(line);
    const offered = root.dataset.myturn === '1' && Number(root.dataset.seq) === before;
    if (window.seen.pressed && offered) window.seen.offeredAgain = true;
    if (root.dataset.myturn === '0') window.seen.pressed = true;
  };
  new MutationObserver(look).observe(root, { attributes: true, childList: true, subtree: true });
}"""


def _my_turn_with_acts_held(
    player: Any, failing: str | None = None
) -> tuple[Any, int, int, int]:
    """A phone's Alager table against a bot, live, at the person's turn, its
    moves on the socket held as ``window.heldAct`` says (``HELD_ACT``):
    the page, the table, the person's seat and the table's seq."""
    person = player(390, 844)
    if failing:
        person.expected_failures.append(failing)
    person.context.add_init_script(HELD_ACT)
    sign_up(person)
    table_id = create_table(person.page, "alager", 2)
    page = person.page
    assert wait_turn(page) == "turn"
    wait_live(page)
    mine = page.request.get(f"/api/tables/{table_id}/").json()["seat"]
    return page, table_id, mine, seq(page)


@pytest.mark.timeout(120)
def test_a_move_unanswered_too_long_is_checked_and_played_once(player: Any) -> None:
    """A move whose answer took past the client's 8 s wait: the page gave up,
    drew the board again as it was and said "Your turn", and the move landed
    on the server a moment later; the player's second press was then refused
    as stale. The page now says it is checking, settles the move's fate with
    the server, shows the table as it is, and the move is played once."""
    page, table_id, mine, before = _my_turn_with_acts_held(player)
    page.evaluate(WATCH_PAGE, before)
    page.evaluate("window.heldAct = 11000")
    page.get_by_role("button", name="Dál (pass)").click()
    expect(page.locator("#turn-text")).to_have_text("Sending your move…")
    move_done(page, before)
    # The held frame reaches the server too (at 11 s), and changes nothing.
    page.wait_for_timeout(12_000 - 8_000)
    seen = page.evaluate("window.seen")
    assert not seen["offeredAgain"], (
        f"the page offered the move again at seq {before}: {seen}"
    )
    assert "Checking whether your move arrived…" in seen["lines"], seen["lines"]
    assert page.locator("#refusal").is_hidden(), page.locator("#refusal").text_content()
    events = page.request.get(f"/api/tables/{table_id}/events/?after={before}").json()
    passes = [e for e in events if e["type"] == "alager.passed" and e["seat"] == mine]
    assert len(passes) == 1, events
    assert seq(page) == page.request.get(f"/api/tables/{table_id}/").json()["seq"]


@pytest.mark.timeout(120)
def test_a_move_whose_fate_stays_unknown_is_sent_again_as_the_same_command(
    player: Any,
) -> None:
    """The move lost on the socket and its check over REST unanswered too:
    the page shows the table as it is (the player's turn) and says the move
    may not have arrived; pressed again, it goes as the same command, so it
    could never be played twice had the first one landed after all."""
    page, table_id, mine, before = _my_turn_with_acts_held(player, failing="/actions/")
    checks: list[str] = []

    def unanswered(route: Any) -> None:
        checks.append(route.request.post_data_json["command_id"])
        route.abort("failed")

    page.route("**/actions/", unanswered)
    page.evaluate("window.heldAct = -1")
    page.get_by_role("button", name="Dál (pass)").click()
    expect(page.locator("#refusal")).to_contain_text(
        "may not have arrived", timeout=15_000
    )
    assert checks == [page.evaluate("window.acts[0].command_id")]
    assert wait_turn(page) == "turn" and seq(page) == before

    page.unroute("**/actions/")
    page.evaluate("window.heldAct = 0")
    page.get_by_role("button", name="Dál (pass)").click()
    # The message about the first press goes once the move is in.
    page.wait_for_function(
        "b => Number(document.getElementById('table-page').dataset.seq) > b", arg=before
    )
    expect(page.locator("#refusal")).to_be_hidden()
    acts = page.evaluate("window.acts")
    assert [a["command_id"] for a in acts] == [checks[0], checks[0]], acts
    events = page.request.get(f"/api/tables/{table_id}/events/?after={before}").json()
    passes = [e for e in events if e["type"] == "alager.passed" and e["seat"] == mine]
    assert len(passes) == 1, events


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
