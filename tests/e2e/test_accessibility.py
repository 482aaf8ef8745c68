"""What a keyboard player and a screen-reader user rely on: names, focus, what is read out."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.cards import card_name, spoken
from tests.e2e.flows import create_table, move_done, seq, sign_up, wait_turn

# Everything the announcer says, kept: a later burst of moves replaces its text.
RECORD = """() => {
  window.heard = [];
  const announcer = document.getElementById('announcer');
  new MutationObserver(() => window.heard.push(announcer.textContent))
    .observe(announcer, { childList: true, subtree: true, characterData: true });
}"""


def heard(page: Any, words: str) -> None:
    page.wait_for_function(
        "words => window.heard.some(t => t.includes(words))", arg=words
    )


def focused_key(page: Any) -> str | None:
    return page.evaluate(
        "() => document.activeElement.id || document.activeElement.dataset.key || null"
    )


@pytest.mark.timeout(120)
def test_cards_are_named_focus_stays_on_the_table_and_moves_are_read_out(
    player: Any,
) -> None:
    person = player()
    sign_up(person)
    page = person.page
    table_id = create_table(page, "alager", 3, {"penalty_limit": 3})
    assert wait_turn(page) == "turn"
    view = page.request.get(f"/api/tables/{table_id}/").json()["view"]

    # Another seat's hand is one picture that says only how many cards it
    # holds; its cards are nowhere in the page's names.
    for seat in (1, 2):
        group = page.locator(f".opponent[data-seat='{seat}']")
        assert group.get_attribute("role") == "group"
        names = group.get_by_role("img").evaluate_all(
            "nodes => nodes.map(n => n.getAttribute('aria-label'))"
        )
        assert names == [f"{view['hand_sizes'][seat]} face-down cards"]

    # The seat's own cards are toggle buttons named first by what they show,
    # then in words.
    hand = page.get_by_role("group", name="Your hand")
    for card in view["hand"]:
        name = card_name(card, "pick to exchange")
        button = hand.get_by_role("button", name=name, exact=True)
        assert button.get_attribute("aria-pressed") == "false"

    # Focus on the board, Tab: the first hand card; Enter picks it.
    page.locator("#board").focus()
    page.keyboard.press("Tab")
    assert focused_key(page) == f"hand-{view['hand'][0]}"
    page.keyboard.press("Enter")
    picked = card_name(view["hand"][0], "pick to exchange")
    first = hand.get_by_role("button", name=picked, exact=True)
    assert first.get_attribute("aria-pressed") == "true"
    assert (
        focused_key(page) == f"hand-{view['hand'][0]}"
    )  # still there after the redraw
    swap = page.get_by_role("group", name="Table cards").get_by_role("button").first
    target = view["table"][0]
    assert swap.get_attribute("aria-label") == card_name(
        target, f"swap your {spoken(view['hand'][0])} for it"
    )
    page.keyboard.press("Enter")  # unpick

    # A move by keyboard: the button is gone after it, focus rests on the
    # board (not the top of the page), and the move is read out in words.
    page.evaluate(RECORD)
    page.get_by_role("button", name="Dál (pass)").focus()
    before = seq(page)
    page.keyboard.press("Enter")
    move_done(page, before)
    page.wait_for_function("() => document.activeElement.id === 'board'")
    announcer = page.locator("#announcer")
    assert announcer.get_attribute("aria-live") == "polite"
    heard(page, "(you): dál (pass).")
    # Only the announcer speaks: the turn bar and the log are not live regions.
    assert page.locator("[aria-live]:not([aria-live='off'])").evaluate_all(
        "nodes => nodes.map(n => n.id)"
    ) == ["announcer"]
    assert page.locator("#log").get_attribute("tabindex") == "0"
    # And "your turn" when it comes back (unless a bot's knock ended it all).
    if wait_turn(page) == "turn":
        heard(page, "Your turn")


@pytest.mark.timeout(60)
def test_sign_up_errors_belong_to_their_field_and_lobby_tabs_use_arrows(
    player: Any,
) -> None:
    person = player()
    person.expected_failures += ["/api/accounts/register/"]
    page = person.page
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", "a-name-for-a11y")
    page.fill("input[name=password]", "short")
    page.keyboard.press("Enter")
    page.locator("#auth-error").wait_for()
    password = page.get_by_label("Password")
    assert password.get_attribute("aria-invalid") == "true"
    assert password.get_attribute("aria-describedby") == "password-hint auth-error"
    assert page.get_by_label("Username").get_attribute("aria-invalid") == "false"
    assert page.evaluate("document.activeElement.name") == "password"

    sign_up(person)
    page.locator("#tab-lobby").focus()
    page.keyboard.press("ArrowRight")
    playing = page.get_by_role("tab", name="Playing")
    assert playing.get_attribute("aria-selected") == "true"
    assert focused_key(page) == "tab-playing"
    assert page.locator("#table-list").get_attribute("aria-labelledby") == "tab-playing"
    assert page.locator("#tab-lobby").get_attribute("tabindex") == "-1"
    page.keyboard.press("End")
    assert page.get_by_role("tab", name="Mine").get_attribute("aria-selected") == "true"


@pytest.mark.timeout(60)
def test_the_games_menu_closes_on_escape_and_elsewhere(player: Any) -> None:
    page = player().page
    page.goto("/rules/alager/")
    summary = page.locator("details.menu summary")
    summary.focus()
    page.keyboard.press("Enter")
    assert page.locator("details.menu").get_attribute("open") is not None
    page.keyboard.press("Tab")  # into the menu's links
    page.keyboard.press("Escape")
    assert page.locator("details.menu").get_attribute("open") is None
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"

    page.keyboard.press("Enter")
    assert page.locator("details.menu").get_attribute("open") is not None
    page.locator("main").click()
    assert page.locator("details.menu").get_attribute("open") is None
