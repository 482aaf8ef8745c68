"""On a phone every button, link of the top bar, tab, field and fold is at
least 40 px high.

The moves ("Swap all three", "Konec (knock)", "Keep my hand (pass)", the
lobby's "Play … vs bots") were 39 px high at 390 px, the table's Rules and
Replay 29 px, the lobby's tabs 31 px, its fields 33 px and its "Game
options" fold and the top bar's links 23 px: a finger missed them, or
pressed the one beside.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.flows import create_table, sign_up, unique_name, wait_turn

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


# Two finished Alkort matches of one person against another.
FINISHED = """
import json
from stats.services import table_record
from stats.simulate import match_play, tables_insert
from tests.accounts.factories import UserFactory

me, bob = UserFactory(username="PREFIXa"), UserFactory(username="PREFIXb")
ids = tables_insert([match_play("alkort", 2, "PREFIX", {"target": 1})] * 2, [[me, bob]] * 2, creator=me)
for table_id in ids:
    table_record(table_id=table_id)
print(json.dumps({"name": me.username}))
"""

LINKS = """() => [...document.querySelectorAll('.table-actions a, .footer a')]
  .map((link) => [link.textContent, Math.round(link.getBoundingClientRect().height)])"""


@pytest.mark.timeout(90)
def test_a_profiles_table_links_are_easy_to_tap_at_390px(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """Under each of a profile's finished tables, "result · replay" were
    two links 23 px high a few pixels apart, and the footer's "API" 16 px."""
    made = json.loads(
        live_manage(FINISHED.replace("PREFIX", unique_name("taps"))).splitlines()[-1]
    )
    page = player(390, 844).page
    page.goto(f"/players/{made['name']}/")
    page.wait_for_selector(".table-actions a")
    links = page.evaluate(LINKS)
    assert [text for text, _ in links] == ["result", "replay"] * 2 + ["API"], links
    assert [link for link in links if link[1] < 40] == [], links
