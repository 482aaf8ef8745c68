"""axe-core finds nothing on a table in play, the match-over dialog, the
replay and a profile with its rating chart: each game, at phone and desktop
width, with the two-colour and the four-colour deck."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.axe import Audit
from tests.e2e.flows import (
    MOVES,
    create_table,
    move_done,
    play_to_end,
    seq,
    sign_up,
    wait_counted,
    wait_turn,
)

# Short matches; Alager on the 32-card deck, whose cards carry Czech names.
# Its limit is 2: a deal can end before this seat's first turn (a special
# hand dealt or completed by a bot, about 1 match in 300 on this deck), and a
# limit of 1 then ends the match before the seat has seen a move.
GAMES = {
    "alager": (3, {"deck": 32, "penalty_limit": 2}),
    "alkort": (2, {"target": 1}),
    "allegra": (2, {"rounds": 1}),
}


# What the seat's turn shows when its cards and moves are all there: Alager's
# hand cards to pick, Alkort's cards to play (not the stock exchange, where a
# strong hand has only "Keep my hand"), Allegra's move buttons (not the
# opening reveals, which have none).
SHOWN = {
    "alager": ".hand button.card-slot",
    "alkort": ".hand button.card-slot",
    "allegra": ".actions button",
}


def own_moves_shown(page: Any, game: str) -> None:
    """Play on until the seat's turn shows its own cards and its moves."""
    for _ in range(20):
        assert wait_turn(page) == "turn"
        if page.locator(SHOWN[game]).count():
            return
        before = seq(page)
        MOVES[game](page)
        move_done(page, before)
    raise AssertionError("no move buttons in 20 moves")


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game", GAMES)
def test_a_match_and_its_pages_pass_axe(player: Any, game: str) -> None:
    person = player()
    name = sign_up(person)
    page = person.page
    players, options = GAMES[game]
    table_id = create_table(page, game, players, options, rated=game == "alkort")
    audit = Audit()

    own_moves_shown(page, game)
    audit.check_widths(page, f"{game} table, your turn", decks=True)
    if game == "alager":
        # A picked hand card turns the table cards and the stock into buttons.
        page.locator(".hand button.card-slot").first.click()
        page.locator(".table-cards button.card-slot").first.wait_for()
        audit.check_widths(page, f"{game} table, a card picked", decks=True)
        page.locator(".hand button.card-slot[aria-pressed=true]").click()

    spectator = player().page
    spectator.goto(f"/tables/{table_id}/")
    spectator.wait_for_selector("#board > *")
    audit.check(spectator, f"{game} table, a visitor watching")
    spectator.close()

    play_to_end(page, game)
    page.locator("dialog#result").wait_for(state="visible")
    audit.check_widths(page, f"{game} match-over dialog")
    page.get_by_role("button", name="See the table").click()
    audit.check_widths(page, f"{game} table, match over", decks=True)

    page.goto(f"/tables/{table_id}/replay/")
    page.locator("#verdict").wait_for()
    audit.check_widths(page, f"{game} replay", decks=True)

    if game == "alkort":
        wait_counted(page, name, game, 1)
        page.goto(f"/players/{name}/")
        page.locator(".rating-history svg.chart").first.wait_for()
        audit.check_widths(page, "profile with a rating chart")
        page.goto(f"/games/{game}/")
        page.locator("#first-player").wait_for()
        audit.check_widths(page, "game statistics")
        page.goto(f"/leaderboards/{game}/")
        page.locator("#leaderboard").wait_for()
        audit.check_widths(page, "leaderboard")

    audit.assert_clean()
