"""The lobby's Playing tab and matches nobody plays any more.

An untimed match between people that everyone walked away from (the tab
closed, nobody pressed Leave, no turn clock to hand the seats to bots) stays
in play for ever, and the Playing tab used to fill up with such dead tables,
newest first, ahead of the live ones. Now it lists the matches with a move in
the last ``TABLE_IDLE_HOURS`` (24), the latest move first, each saying when
its last move was; the idle ones are folded under "Idle tables (N)"; a
person's own idle match shows under Mine, marked idle, to go back to.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import violations
from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import sign_up, unique_name

SET_UP = """
import json
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games.models import Table
from tests.games.tables import table_started

def person(name):
    return User.objects.create_user(username=name, password="x-long-password-1")

me = User.objects.get(username=ME)
made = {}
for key, seating, hours in (
    ("abandoned", [me, person(PREFIX + "a")], 72),
    ("hours", [person(PREFIX + "b"), person(PREFIX + "c")], 2),
    ("latest", [person(PREFIX + "d"), person(PREFIX + "e")], 0),
):
    table = table_started(seating=seating)
    Table.objects.filter(pk=table.pk).update(
        updated_at=timezone.now() - timedelta(hours=hours)
    )
    made[key] = table.pk
print(json.dumps(made))
"""

MOVED = """
from django.utils import timezone
from games.models import Table
Table.objects.filter(pk=TABLE).update(updated_at=timezone.now())
"""


def _row(scope: Any, table: int) -> Any:
    """The row of ``table`` in ``scope`` (a page or a locator)."""
    return scope.locator(f"li[data-table='{table}']")


def _playing_tab(page: Any) -> None:
    page.click("#tab-playing")
    page.wait_for_selector("#table-list .idle-tables, #table-list ul.tables")


@pytest.mark.timeout(120)
def test_the_playing_tab_folds_away_matches_nobody_plays(
    player: Any, live_manage: Callable[[str], str], screenshot_dir: Any
) -> None:
    person = player()
    page = person.page
    me = sign_up(person)
    prefix = unique_name("idle")
    made = json.loads(
        live_manage(
            SET_UP.replace("ME", repr(me)).replace("PREFIX", repr(prefix))
        ).splitlines()[-1]
    )

    _playing_tab(page)
    active = page.locator("#table-list > ul.tables")
    latest, hours = _row(active, made["latest"]), _row(active, made["hours"])
    expect(latest).to_contain_text("last move just now")
    expect(hours).to_contain_text("last move 2 h ago")
    # The latest move first, although "hours" was created before "latest".
    order = page.eval_on_selector_all(
        "#table-list > ul.tables > li", "(rows) => rows.map((r) => r.dataset.table)"
    )
    assert order.index(str(made["latest"])) < order.index(str(made["hours"]))
    # The abandoned match is not in the list but folded, closed, under its count.
    expect(_row(active, made["abandoned"])).to_have_count(0)
    fold = page.locator("#table-list details.idle-tables")
    expect(fold).not_to_have_attribute("open", "")
    summary = fold.locator("summary")
    # (This worker's other tests may have left idle tables of their own.)
    expect(summary).to_have_text(re.compile(r"^Idle tables \(\d+\)$"))
    abandoned = _row(fold, made["abandoned"])
    expect(abandoned).to_be_hidden()
    summary.click()
    expect(abandoned).to_be_visible()
    expect(abandoned).to_contain_text("last move 3 days ago")
    expect(abandoned.locator(".tag")).to_have_text("idle")
    # It stays open across the list's refresh (every 5 s), and the keyboard
    # stays on its heading when the list is drawn again.
    summary.focus()
    live_manage(MOVED.replace("TABLE", str(made["hours"])))
    expect(hours).to_contain_text("last move just now", timeout=8000)
    expect(fold).to_have_attribute("open", "")
    assert page.evaluate("document.activeElement.dataset.key") == "idle-summary"
    assert violations(page, "lobby, idle tables open @1440px") == []
    keep_screenshot(page, screenshot_dir, "lobby-playing-idle-1440")

    # Its player finds it under Mine, marked idle, with the way back to it.
    page.click("#tab-mine")
    mine = _row(page.locator("#table-list"), made["abandoned"])
    expect(mine).to_contain_text("last move 3 days ago")
    expect(mine.locator(".tag")).to_have_text("idle")
    expect(mine.locator("a", has_text="Open")).to_have_attribute(
        "href", f"/tables/{made['abandoned']}/"
    )


@pytest.mark.timeout(90)
def test_the_idle_fold_fits_a_phone(
    player: Any, live_manage: Callable[[str], str], screenshot_dir: Any
) -> None:
    person = player(width=390, height=844)
    page = person.page
    me = sign_up(person)
    live_manage(
        SET_UP.replace("ME", repr(me)).replace("PREFIX", repr(unique_name("ph")))
    )

    _playing_tab(page)
    page.locator("#table-list details.idle-tables summary").click()
    page.locator(
        "#table-list details.idle-tables li"
    ).first.scroll_into_view_if_needed()

    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert violations(page, "lobby, idle tables open @390px") == []
    keep_screenshot(page, screenshot_dir, "lobby-playing-idle-390")
