"""Every move by keyboard alone; the four-colour deck for colour-blind players."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.cards import card_name
from tests.e2e.flows import create_table, move_done, seq, sign_up, wait_turn


@pytest.mark.timeout(120)
def test_keyboard_alone_picks_cards_and_plays_moves(player: Any) -> None:
    person = player()
    sign_up(person)
    page = person.page
    create_table(page, "alager", 3, {"penalty_limit": 3})
    assert wait_turn(page) == "turn"

    # Tab to the first hand card and press Enter: it is picked, and the table
    # cards become the swap targets, each a button with its own name.
    first = page.locator(".hand button.card-slot").first
    first.focus()
    page.keyboard.press("Enter")
    picked = page.locator(".hand button.card-slot[aria-pressed='true']")
    assert picked.count() == 1
    card = picked.get_attribute("data-card")
    targets = page.locator(".table-cards button.card-slot")
    assert targets.count() == 3
    assert targets.first.get_attribute("aria-label").endswith(" for it")
    targets.first.focus()
    before = seq(page)
    page.keyboard.press("Enter")
    move_done(page, before)
    events = page.request.get(page.url.replace("/tables/", "/api/tables/") + "events/")
    swaps = [
        e["payload"]
        for e in events.json()
        if e["type"] == "alager.card_swapped"
        and e["payload"] == {**e["payload"], "seat": 0, "give": card}
    ]
    assert len(swaps) == 1
    assert page.locator("#log li", has_text="(you) swapped ").count() == 1

    # Digit keys press the move buttons in order: 2 is "Dál (pass)".
    assert wait_turn(page) == "turn"
    before = seq(page)
    page.keyboard.press("2")
    move_done(page, before)
    assert page.locator("#log li", has_text="(you): dál (pass).").count() == 1


@pytest.mark.timeout(60)
def test_four_colour_deck_recolours_clubs_and_diamonds(player: Any) -> None:
    person = player()
    sign_up(person)
    page = person.page
    create_table(page, "alkort", 2, {"target": 1})
    wait_turn(page)
    colour = """suit => {
      const svg = document.querySelector(`svg.card.suit-${suit} text`);
      return svg ? getComputedStyle(svg).fill : null;
    }"""
    hand_suits = page.locator(".hand svg[data-card]").evaluate_all(
        "nodes => [...new Set(nodes.map(n => n.dataset.card[1]))]"
    )

    page.check("#four-colour")

    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    expected = {
        "C": "rgb(20, 130, 60)",
        "D": "rgb(31, 95, 191)",
        "H": "rgb(200, 16, 46)",
    }
    for suit in hand_suits:
        if suit in expected:
            assert page.evaluate(colour, suit) == expected[suit]
    page.reload()
    assert page.is_checked("#four-colour")  # remembered
    # After a reload the hand is drawn when the table's first frame arrives.
    page.locator(".hand svg[data-card]").first.wait_for()
    page.uncheck("#four-colour")
    if "D" in hand_suits:
        assert page.evaluate(colour, "D") == "rgb(200, 16, 46)"


@pytest.mark.timeout(90)
def test_the_32_card_deck_names_its_cards_in_czech(player: Any) -> None:
    person = player()
    sign_up(person)
    page = person.page
    # A long match: one deal must not end it before this seat's first turn.
    table_id = create_table(page, "alager", 3, {"deck": 32, "penalty_limit": 99})
    assert wait_turn(page) == "turn"
    names = page.request.get("/api/games/").json()[0]["card_names"]
    hand = page.request.get(f"/api/tables/{table_id}/").json()["view"]["hand"]

    assert page.locator(".czech-names").text_content() == " · ".join(
        names[card] for card in hand
    )
    first = page.locator(f".hand svg[data-card='{hand[0]}'] title")
    assert first.text_content().startswith(f"{names[hand[0]]} (")
    # A hand card's button says what the card shows, then its Czech name.
    button = page.locator(f".hand button[data-card='{hand[0]}']")
    assert button.get_attribute("aria-label") == card_name(
        hand[0], "pick to exchange", czech=names[hand[0]]
    )
