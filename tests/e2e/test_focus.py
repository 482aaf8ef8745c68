"""Keyboard focus: the ring stands out on the felt and on the cards, and a
move, the match-over dialog or its closing never leaves focus nowhere."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.flows import (
    create_table,
    move_done,
    play_to_end,
    seq,
    sign_up,
    wait_turn,
)

# What a focused card button draws, and what it is drawn against.
RING = """(button) => {
  const style = getComputedStyle(button);
  const root = getComputedStyle(document.documentElement);
  const face = button.querySelector('.card-face');
  return {
    style: style.outlineStyle,
    width: parseFloat(style.outlineWidth),
    ring: style.outlineColor,
    edge: style.boxShadow,
    face: face ? getComputedStyle(face).fill : null,
    felt: [root.getPropertyValue('--felt'), root.getPropertyValue('--felt-2')],
    page: root.getPropertyValue('--bg'),
  };
}"""


def rgb(colour: str) -> tuple[int, int, int]:
    """The first colour in a computed style: "rgb(1, 2, 3)" or "#1f5e45"."""
    colour = colour.strip()
    if colour.startswith("#"):
        return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
    match = re.search(r"rgba?\((\d+), (\d+), (\d+)", colour)
    assert match, f"no colour in {colour!r}"
    return (int(match[1]), int(match[2]), int(match[3]))


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two colours."""

    def luminance(colour: str) -> float:
        def channel(value: int) -> float:
            c = value / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(v) for v in rgb(colour))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def focused(page: Any) -> dict[str, Any]:
    """Where focus is, and whether the match is over, read at one moment."""
    return page.evaluate(
        """() => {
          const a = document.activeElement;
          return { id: a.id, tag: a.tagName, text: a.textContent.trim(),
                   inBoard: document.getElementById('board').contains(a),
                   over: document.getElementById('table-page').dataset.status === 'finished' };
        }"""
    )


@pytest.mark.timeout(120)
def test_focus_is_seen_on_the_felt_and_never_lost(player: Any) -> None:
    person = player()
    sign_up(person)
    page = person.page
    # A limit of 2: a deal can end before this seat's first turn (a special
    # hand dealt or completed by a bot, about 1 match in 1200), and a limit of
    # 1 would then end the match with no turn to test.
    create_table(page, "alager", 3, {"penalty_limit": 2})
    assert wait_turn(page) == "turn"

    # By keyboard: the first hand card, picked; Shift-Tab back to the stock
    # and on to the last table card, both on the felt.
    page.locator("#board").focus()
    page.keyboard.press("Tab")
    on_page = page.locator(".hand button.card-slot:focus-visible").evaluate(RING)
    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    target = page.locator(".felt .table-cards button.card-slot:focus-visible")
    assert target.count() == 1
    on_felt = target.evaluate(RING)

    # On the felt the ring stands out 3:1 from both of the felt's colours;
    # its dark inner edge does the same against the white card face.
    assert on_felt["style"] == "solid" and on_felt["width"] >= 2
    for felt in on_felt["felt"]:
        assert contrast(on_felt["ring"], felt) >= 3, (on_felt, felt)
    assert contrast(on_felt["edge"], on_felt["face"]) >= 3, on_felt
    assert contrast(on_felt["ring"], on_felt["edge"]) >= 3, on_felt
    # On the page (the hand) the ring stands out from the page.
    assert contrast(on_page["ring"], on_page["page"]) >= 3, on_page
    assert contrast(on_page["edge"], on_page["face"]) >= 3, on_page
    page.locator("body").evaluate("body => document.activeElement.blur()")

    # A digit presses the second move ("Dál") with focus nowhere in
    # particular: after the redraw focus is on the board, where the next Tab
    # finds the cards, not on the page's top (unless the bots' answers ended
    # the match: then it is in the match-over dialog, below).
    before = seq(page)
    page.keyboard.press("2")
    move_done(page, before)
    page.wait_for_function(
        "() => !document.getElementById('board').classList.contains('busy')"
    )
    now = focused(page)
    if not now["over"]:
        assert now["inBoard"], now
        play_to_end(page, "alager")

    # The match-over dialog takes focus on its close button ...
    page.locator("dialog#result").wait_for(state="visible")
    assert focused(page) == {
        "id": "",
        "tag": "BUTTON",
        "text": "See the table",
        "inBoard": False,
        "over": True,
    }
    # ... and closing it gives focus back to the board.
    page.keyboard.press("Enter")
    page.locator("dialog#result").wait_for(state="hidden")
    assert focused(page)["id"] == "board"
