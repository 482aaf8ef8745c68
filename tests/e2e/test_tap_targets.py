"""On a phone every button, link of the top bar, tab, field and fold is at
least 40 px high.

The moves ("Swap all three", "Konec (knock)", "Keep my hand (pass)", the
lobby's "Play … vs bots") were 39 px high at 390 px, the table's Rules and
Replay 29 px, the lobby's tabs 31 px, its fields 33 px and its "Game
options" fold and the top bar's links 23 px: a finger missed them, or
pressed the one beside.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.flows import create_table, sign_up, wait_turn

# Visible buttons, tabs, fields and folds, and the top bar's links, under 40
# px high (not the board's cards, which are cards' size).
SMALL = """() => [...document.querySelectorAll(
    'main button:not(.card-slot), main a.button, main select,'
    + ' main input:not([type=checkbox]), main summary, .topbar a, .topbar button,'
    + ' .topbar summary, .deck-toggle')]
  .filter((node) => node.checkVisibility())
  .map((node) => [node.getAttribute('aria-label') || node.textContent.trim(),
    Math.round(node.getBoundingClientRect().height)])
  .filter(([, height]) => height < 40)"""


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("game", "players"), [("alager", 4), ("alkort", 4)])
def test_controls_are_easy_to_tap_at_390px(
    player: Any, game: str, players: int
) -> None:
    person = player(390, 844)
    page = person.page
    sign_up(person, prefix="tap")
    assert page.evaluate(SMALL) == [], "the lobby"
    page.set_viewport_size({"width": 1440, "height": 900})
    create_table(page, game, players)
    page.set_viewport_size({"width": 390, "height": 844})
    wait_turn(page)
    assert page.evaluate(SMALL) == [], f"the {game} table"
