"""Two people in two browser contexts play each other, each seeing only its own cards."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.flows import MOVES, create_table, move_done, seq, sign_up


def _open_table(
    player: Any, game: str, options: dict[str, Any]
) -> tuple[Any, Any, int]:
    ada, bo = player(), player()
    sign_up(ada, "ada")
    sign_up(bo, "bo")
    table_id = create_table(ada.page, game, 2, options, fill="open")
    bo.page.goto("/")
    bo.page.locator(
        f".table-row[data-table='{table_id}'] button", has_text="Join"
    ).click()
    bo.page.wait_for_url(f"**/tables/{table_id}/")
    ada.page.get_by_role("button", name="Start the match").click()
    for person in (ada, bo):
        person.page.wait_for_selector("#table-page[data-status='playing']")
    return ada, bo, table_id


def _me(person: Any, table_id: int) -> dict[str, Any]:
    return person.page.request.get(f"/api/tables/{table_id}/").json()


def _play_out(ada: Any, bo: Any, game: str, limit: int = 400) -> None:
    for _ in range(limit):
        for person in (ada, bo):
            state = person.page.get_attribute("#table-page", "data-status")
            if state == "finished":
                return
            if person.page.get_attribute("#table-page", "data-myturn") == "1":
                before = seq(person.page)
                MOVES[game](person.page)
                move_done(person.page, before)
        ada.page.wait_for_timeout(150)
    raise AssertionError("the match did not end")


@pytest.mark.timeout(180)
def test_alkort_between_two_people_shows_each_only_its_own_hand(player: Any) -> None:
    ada, bo, table_id = _open_table(player, "alkort", {"target": 1})
    views = {p.username: _me(p, table_id)["view"] for p in (ada, bo)}

    for person, other in ((ada, bo), (bo, ada)):
        own = views[person.username]["hand"]
        hidden = views[other.username]["hand"]
        person.page.wait_for_selector(".hand svg[data-card]")
        shown = person.page.locator(".hand svg[data-card]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.card)"
        )
        assert shown == own
        for card in hidden:
            assert person.page.locator(f"[data-card='{card}']").count() == 0, card
        # The other seat's hand is there only as card backs.
        assert person.page.locator(".spot-top svg.back").count() == len(hidden)

    # A spectator (no account) sees neither hand.
    watcher = player()
    watcher.page.goto(f"/tables/{table_id}/")
    watcher.page.wait_for_selector("#table-page[data-status='playing']")
    assert watcher.page.locator(".hand").count() == 0
    for card in views[ada.username]["hand"] + views[bo.username]["hand"]:
        assert watcher.page.locator(f"[data-card='{card}']").count() == 0, card
    assert watcher.page.locator(".spot svg.back").count() == 18

    _play_out(ada, bo, "alkort")
    for person in (ada, bo):
        person.page.locator("dialog#result").wait_for(state="visible")


@pytest.mark.timeout(180)
def test_allegra_between_two_people_draws_exactly_each_view(player: Any) -> None:
    ada, bo, table_id = _open_table(player, "allegra", {"rounds": 1})

    for person in (ada, bo):
        view = _me(person, table_id)["view"]
        cells = person.page.locator(".ring [data-cell]")
        drawn = cells.evaluate_all(
            """nodes => nodes.map(n => [n.dataset.cell,
                 n.querySelector('svg.back') ? 'down'
                 : n.querySelector('svg.hole') ? null
                 : Number(n.querySelector('svg').dataset.value)])"""
        )
        expected = {
            f"{s}-{r}-{c}": view["grids"][s][r][c]
            for s in range(2)
            for r in range(3)
            for c in range(4)
        }
        assert dict(drawn) == expected
        # Both grids and the shared column of each neighbour are drawn once.
        assert cells.count() == 24
        assert person.page.locator(".ring .cell.shared").count() == 6

    _play_out(ada, bo, "allegra")
    for person in (ada, bo):
        person.page.locator("dialog#result").wait_for(state="visible")
