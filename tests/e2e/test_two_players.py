"""Two people in two browser contexts play each other, each seeing only its own cards."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import MOVES, create_table, move_done, seq, sign_up, wait_turn


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


def _on_the_socket(person: Any) -> int:
    """Wait until the page plays over its WebSocket; how many requests it had
    made by then (REST polling is only the fallback, and would pass every
    other check here)."""
    expect(person.page.locator("#conn")).to_have_text("live")
    return len(person.requests)


def _left_the_socket(person: Any, since: int) -> list[str]:
    """The requests a page on its socket should never make: a move over REST,
    or a poll of the log."""
    return [
        url
        for url in person.requests[since:]
        if "/actions/" in url or "/events/" in url
    ]


@pytest.mark.timeout(180)
def test_alkort_between_two_people_live_on_the_socket_each_seeing_only_its_own_hand(
    player: Any,
) -> None:
    ada, bo, table_id = _open_table(player, "alkort", {"target": 1})
    live = {p.username: _on_the_socket(p) for p in (ada, bo)}
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
        # Every move went out, and every other seat's move came in, as frames.
        assert _left_the_socket(person, live[person.username]) == []
        assert person.page.locator("#conn").text_content() == "live"


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


def _my_turn(person: Any) -> None:
    person.page.wait_for_selector("#table-page[data-myturn='1']", timeout=20_000)


def _click(person: Any, locator: Any) -> None:
    before = seq(person.page)
    locator.click()
    move_done(person.page, before)


@pytest.mark.timeout(180)
def test_allegra_knock_exchange_step_by_step(player: Any) -> None:
    ada, bo, table_id = _open_table(player, "allegra", {"rounds": 1})
    for person in (ada, bo):  # the initial reveal: two cells each, ada first
        for _ in range(2):
            _my_turn(person)
            _click(
                person,
                person.page.locator(".ring button.card-slot:has(svg.back)").first,
            )

    knocked = False
    for _ in range(12):
        _my_turn(ada)
        _click(ada, ada.page.locator("button[data-key=draw-btn]"))
        _my_turn(bo)
        knock = bo.page.get_by_role("button", name="Knock!")
        if knock.is_enabled():
            _click(bo, knock)
            knocked = True
            break
        _click(bo, bo.page.get_by_role("button", name="Pass", exact=True))
        _my_turn(ada)
        before = seq(ada.page)
        MOVES["allegra"](ada.page)  # swap the drawn card into a face-down cell
        move_done(ada.page, before)
        _my_turn(bo)
        before = seq(bo.page)
        MOVES["allegra"](bo.page)
        move_done(bo.page, before)
    assert knocked, "bo never could knock"

    _my_turn(ada)
    _click(ada, ada.page.get_by_role("button", name=f"Give it to {bo.username}"))
    _my_turn(bo)
    assert bo.page.locator("#action-hint").text_content().startswith("You knocked:")
    _click(bo, bo.page.locator(".ring button.card-slot").first)
    _my_turn(ada)
    assert ada.page.locator("#action-hint").text_content() == (
        "Take a card from the knocker's area (not the one just placed)."
    )
    _click(ada, ada.page.locator(".ring button.card-slot").first)
    _my_turn(ada)
    assert ada.page.locator("#action-hint").text_content() == (
        "Put the card you took into your area (the card there is discarded)."
    )
    _click(ada, ada.page.locator(".ring button.card-slot").first)

    log = ada.page.locator("#log li").all_text_contents()
    steps = [
        f"Knocked: {bo.username}.",
        f"{ada.username} (you) gave the ",
        f"{bo.username} placed the ",
        f"{ada.username} (you) took ",
        f"{ada.username} (you) put the ",
        f"{bo.username} filled the gap with ",
    ]
    for step in steps:
        assert any(line.startswith(step) for line in log), (step, log[:12])
    # The knocker's own page says it knocked; ada's saw only that bo answered.
    assert (
        f"{bo.username} (you) knocked."
        in bo.page.locator("#log li").all_text_contents()
    )
    assert f"{bo.username} answered." in log


@pytest.mark.timeout(120)
def test_alkort_info_box_has_no_blank_lines(player: Any) -> None:
    """The box under the Alkort felt (stock exchange, partner reveal) showed a
    blank line above and below its text: the paragraphs' own margins."""
    person = player(390, 844)
    page = person.page
    sign_up(person)
    create_table(page, "alkort", 4)
    assert wait_turn(page) == "turn"
    gaps = page.evaluate(
        """() => {
          const box = document.querySelector('#board .info');
          if (!box) return null;
          const b = box.getBoundingClientRect();
          const first = box.firstElementChild.getBoundingClientRect();
          const last = box.lastElementChild.getBoundingClientRect();
          return [first.top - b.top, b.bottom - last.bottom];
        }"""
    )
    assert gaps is not None, "no info box on the first turn of a 4-player deal"
    assert all(gap <= 14 for gap in gaps), f"blank space in the info box: {gaps}"
