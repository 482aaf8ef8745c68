"""What a screen reader says where the screen shows a sign or a tint.

Alkort's match score "3 / 10" was read "3 slash 10", beside the tricks'
number; a played-out hand was "0 face-down cards"; and the replay's list of
moves marked the step shown by a tint only.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.flows import create_table, play_to_end, sign_up

# The picture of a hidden hand as the renderers draw it, for 0, 1 and 9 cards.
HIDDEN_HANDS = """async () => {
  const common = await import('/static/web/js/games/common.js');
  return [0, 1, 9].map((n) => common.faceDownRow(n).getAttribute('aria-label'));
}"""


@pytest.mark.timeout(180)
def test_scores_hands_and_the_replay_step_are_said_in_words(player: Any) -> None:
    person = player()
    sign_up(person)
    page = person.page
    table_id = create_table(page, "alkort", 2, {"target": 1})
    play_to_end(page, "alkort")
    page.keyboard.press("Escape")  # the match-over dialog

    # The match score: the figures as a screen reader reads them.
    for side in page.locator(".side-score").all():
        spoken = side.locator(".points").aria_snapshot()
        assert "points to win the match" in spoken and "/" not in spoken, spoken
        # The screen keeps its "x / 1".
        shown = side.locator(".points .muted")
        assert shown.is_visible() and shown.text_content() == " / 1"

    assert page.evaluate(HIDDEN_HANDS) == [
        "no cards",
        "1 face-down card",
        "9 face-down cards",
    ]

    # The replay: the move shown is the list's current step, for a screen
    # reader too, as the keyboard steps through the match.
    page.goto(f"/tables/{table_id}/replay/")
    page.locator("#log button").first.wait_for()
    page.locator("#slider").focus()
    for key in ("End", "ArrowLeft", "ArrowLeft", "Home", "ArrowRight"):
        page.keyboard.press(key)
        current = page.locator("#log [aria-current=step]")
        # A step with no line of its own (the deal) marks none.
        tinted = page.locator("#log li.current").count()
        assert current.count() == tinted, key
        if key != "Home":
            assert tinted == 1, key
        if tinted:
            assert current.evaluate("(node) => node.closest('li').matches('.current')")
            line = current.inner_text()
            assert line in page.locator("#step-text").inner_text(), (key, line)
    assert page.get_by_role("list", name="Moves").count() == 1


@pytest.mark.timeout(120)
def test_the_ring_sign_of_allegra_is_not_read_out(player: Any) -> None:
    """The last grid's foot ends in "↺" (the ring turns back to the first
    grid): a screen reader read "anticlockwise open circle arrow" after the
    name of the seat it shares its column with."""
    person = player()
    sign_up(person)
    page = person.page
    create_table(page, "allegra", 3)
    page.locator(".grid-foot").first.wait_for()
    feet = page.locator(".grid-foot")
    assert "↺" in "".join(feet.all_text_contents())
    for foot in feet.all():
        assert "↺" not in foot.aria_snapshot()


@pytest.mark.timeout(180)
def test_a_profiles_table_links_name_their_table(player: Any) -> None:
    """Each of a profile's latest tables ends in "result · replay": a screen
    reader's list of the page's links read "result", "replay", "result", …
    with no word of which table each opens."""
    person = player()
    name = sign_up(person)
    page = person.page
    table_id = create_table(page, "alkort", 2, {"target": 1})
    play_to_end(page, "alkort")
    page.goto(f"/players/{name}/")
    row = page.locator(f"#recent-tables [data-table='{table_id}']")
    row.wait_for()
    for word, href in (
        ("result", f"/tables/{table_id}/"),
        ("replay", f"/tables/{table_id}/replay/"),
    ):
        link = row.get_by_role("link", name=f"{word} of Alkort #{table_id}", exact=True)
        assert link.get_attribute("href") == href
        assert link.inner_text() == word  # the screen keeps its short word
