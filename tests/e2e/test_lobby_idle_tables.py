"""The lobby's Playing tab and matches nobody plays any more.

An untimed match between people that everyone walked away from (the tab
closed, nobody pressed Leave, no turn clock to hand the seats to bots) stays
in play for ever, and the Playing tab used to fill up with such dead tables,
newest first, ahead of the live ones. Now it lists the matches with a move in
the last ``TABLE_IDLE_HOURS`` (24), the latest move first, each saying when
its last move was; the idle ones are folded under "Idle tables (N)"; a
person's own idle match shows under Mine, marked idle, to go back to. The
Open tab does the same with open tables nobody has taken a seat at for as
long (only their creator can start them, and they went away).
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

#: Open tables (two seats, Alkort): one a creator opened 3 days ago and left,
#: one opened 3 days ago with a seat taken 2 h ago, one just opened, and one
#: of ME's own opened 3 days ago. Prints their ids.
OPEN_SET_UP = """
import json
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games import services
from games.models import Table

def person(name):
    return User.objects.create_user(username=name, password="x-long-password-1")

me = User.objects.get(username=ME)
now = timezone.now()
made = {}
for key, creator, opened, taken in (
    ("deserted", person(PREFIX + "a"), 72, None),
    ("joined", person(PREFIX + "b"), 72, 2),
    ("fresh", person(PREFIX + "c"), 0, None),
    ("mine", me, 72, None),
):
    table = services.table_create(user=creator, game="alkort", players=2)
    if taken is not None:
        services.table_join(table_id=table.pk, user=person(PREFIX + key))
    Table.objects.filter(pk=table.pk).update(
        created_at=now - timedelta(hours=opened),
        updated_at=now - timedelta(hours=opened if taken is None else taken),
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


def _listed(page: Any) -> list[str]:
    """The tables of the unfolded list, in the order shown."""
    return page.eval_on_selector_all(
        "#table-list > ul.tables > li", "(rows) => rows.map((r) => r.dataset.table)"
    )


def _unfold(page: Any, table: int, says: str) -> tuple[Any, Any]:
    """Check that ``table`` waits, hidden, in the closed idle fold, open the
    fold and check its row (``says``, tagged idle); the fold and its heading."""
    fold = page.locator("#table-list details.idle-tables")
    expect(fold).not_to_have_attribute("open", "")
    summary = fold.locator("summary")
    # (This worker's other tests may have left idle tables of their own.)
    expect(summary).to_have_text(re.compile(r"^Idle tables \(\d+\)$"))
    row = _row(fold, table)
    expect(row).to_be_hidden()
    summary.click()
    expect(row).to_be_visible()
    expect(row).to_contain_text(says)
    expect(row.locator(".tag")).to_have_text("idle")
    return fold, summary


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
    order = _listed(page)
    assert order.index(str(made["latest"])) < order.index(str(made["hours"]))
    # The abandoned match is not in the list but folded, closed, under its count.
    expect(_row(active, made["abandoned"])).to_have_count(0)
    fold, summary = _unfold(page, made["abandoned"], "last move 3 days ago")
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


@pytest.mark.timeout(120)
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

    # The Open tab's fold, open, fits as well.
    _open_tables(page, live_manage, me)
    page.locator("#table-list details.idle-tables summary").click()
    page.locator(
        "#table-list details.idle-tables li"
    ).first.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert violations(page, "lobby, idle open tables @390px") == []
    keep_screenshot(page, screenshot_dir, "lobby-open-idle-390")


def _open_tables(page: Any, live_manage: Callable[[str], str], me: str) -> dict:
    made = json.loads(
        live_manage(
            OPEN_SET_UP.replace("ME", repr(me)).replace(
                "PREFIX", repr(unique_name("open"))
            )
        ).splitlines()[-1]
    )
    page.click("#tab-lobby")
    page.wait_for_selector("#table-list .idle-tables")
    return made


@pytest.mark.timeout(120)
def test_the_open_tab_folds_away_tables_nobody_will_start(
    player: Any, live_manage: Callable[[str], str], screenshot_dir: Any
) -> None:
    """Only its creator can start an open table: one they opened and walked
    away from used to stay in the Open tab for ever, and people joined it to
    wait in vain. Now the tab lists the open tables with a seat taken (or
    opened) in the last 24 hours, the latest first, and folds the others
    under "Idle tables (N)", as the Playing tab does."""
    person = player()
    page = person.page
    me = sign_up(person)
    made = _open_tables(page, live_manage, me)

    active = page.locator("#table-list > ul.tables")
    fresh, joined = _row(active, made["fresh"]), _row(active, made["joined"])
    expect(fresh).to_contain_text("opened just now")
    expect(joined).to_contain_text("opened 3 days ago, last seat taken 2 h ago")
    order = _listed(page)
    assert order.index(str(made["fresh"])) < order.index(str(made["joined"]))
    for key in ("deserted", "mine"):
        expect(_row(active, made[key])).to_have_count(0)
    fold, summary = _unfold(page, made["deserted"], "opened 3 days ago")
    expect(fold.locator(".hint").first).to_contain_text("only they can start them")
    # Open, it stays open across the refresh, with the keyboard on it.
    summary.focus()
    page.wait_for_timeout(5600)
    expect(fold).to_have_attribute("open", "")
    assert page.evaluate("document.activeElement.dataset.key") == "idle-summary"
    assert violations(page, "lobby, idle open tables @1440px") == []
    keep_screenshot(page, screenshot_dir, "lobby-open-idle-1440")

    # The Playing tab's fold is its own: closed, whatever Open's is.
    _playing_tab(page)
    playing_fold = page.locator("#table-list details.idle-tables")
    if playing_fold.count():
        expect(playing_fold).not_to_have_attribute("open", "")

    # Its creator finds their own idle open table under Mine, marked idle.
    page.click("#tab-mine")
    mine = _row(page.locator("#table-list"), made["mine"])
    expect(mine).to_contain_text("opened 3 days ago")
    expect(mine.locator(".tag")).to_have_text("idle")
    expect(mine.locator("a", has_text="Open")).to_have_attribute(
        "href", f"/tables/{made['mine']}/"
    )
