"""Leaving and coming back loses nothing; a refused move says why and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.flows import create_table, play_to_end, seq, sign_up, wait_turn


def _hand(page: Any) -> list[str]:
    return page.locator(".hand svg[data-card]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )


@pytest.mark.timeout(180)
def test_close_the_page_mid_match_open_it_again_and_finish(player: Any) -> None:
    person = player()
    sign_up(person)
    table_id = create_table(person.page, "alkort", 2, {"target": 2})
    play_to_end(person.page, "alkort", stop_after=3)
    assert wait_turn(person.page) == "turn"
    hand, at = _hand(person.page), seq(person.page)
    log = person.page.locator("#log li").all_text_contents()

    person.page.close()
    page = person.new_page()
    page.goto(f"/tables/{table_id}/")
    page.wait_for_selector(f"#table-page[data-seq='{at}']")

    assert _hand(page) == hand
    assert page.locator("#log li").all_text_contents() == log
    assert wait_turn(page) == "turn"
    play_to_end(page, "alkort")
    page.locator("dialog#result").wait_for(state="visible")


@pytest.mark.timeout(120)
def test_a_refused_move_shows_the_rules_message_and_changes_nothing(
    player: Any,
) -> None:
    person = player()
    person.expected_failures.append("/actions/")
    sign_up(person)
    create_table(person.page, "alkort", 2, {"target": 1})
    page = person.page
    assert wait_turn(page) == "turn"
    hand, at = _hand(page), seq(page)
    phase = page.request.get(page.url.replace("/tables/", "/api/tables/")).json()[
        "view"
    ]["phase"]
    missing = next(c for c in ("2C", "3C", "4C", "6C", "7C", "8C") if c not in hand)

    page.evaluate(f"window.cardroom.act({{type: 'play', card: '{missing}'}})")

    expected = (
        "Cards are played after the stock exchange: exchange or pass first"
        if phase == "exchange"
        else f"{missing} is not in your hand"
    )
    refusal = page.locator("#refusal")
    refusal.wait_for(state="visible")
    assert refusal.text_content() == expected
    assert seq(page) == at
    assert _hand(page) == hand
    assert page.get_attribute("#table-page", "data-myturn") == "1"
