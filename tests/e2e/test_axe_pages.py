"""axe-core finds nothing on the pages around the tables, at phone and desktop width:
the lobby, signing up and in, the account, tournaments, statistics, the rules."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.axe import Audit
from tests.e2e.flows import create_table, sign_up, unique_name

# What an organiser leaves behind in the admin: a tournament taking
# registrations and one whose first round is in play (a house bot makes the
# second table up). Names of its own: the tournament pages' test makes its
# own on the same database.
SET_UP = """
import json
from tests.accounts.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tournaments import services
from tournaments.models import Entry

def published(name):
    tournament = TournamentFactory(
        name=name, game="alkort", table_size=2, options={"target": 1}
    )
    services.registration_open(tournament_id=tournament.pk)
    return tournament

open_one = published("PREFIX open")
running = published("PREFIX running")
for i in range(3):
    Entry.objects.create(tournament=running, player=UserFactory(username=f"PREFIX{i}"))
organiser = UserFactory(username="PREFIXorg", is_staff=True)
services.round_seat(tournament_id=running.pk)
services.round_start(tournament_id=running.pk, user=organiser)
services.standings_recompute(tournament_id=running.pk)
print(json.dumps({"open": open_one.pk, "running": running.pk}))
"""


@pytest.mark.timeout(120)
def test_pages_outside_the_table_pass_axe(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    set_up = SET_UP.replace("PREFIX", unique_name("axe"))
    made = json.loads(live_manage(set_up).strip().splitlines()[-1])
    person = player()
    page = person.page
    audit = Audit()

    page.goto("/")
    page.wait_for_selector("#create-options .option", state="attached")
    audit.check_widths(page, "lobby (logged out)")
    page.goto("/accounts/login/")
    audit.check_widths(page, "log in")
    page.goto("/accounts/signup/")
    audit.check_widths(page, "sign up")

    name = sign_up(person)
    page.wait_for_selector("#create-options .option", state="attached")
    audit.check_widths(page, "lobby")
    page.goto("/accounts/settings/")
    audit.check_widths(page, "account settings")
    page.goto("/tournaments/")
    page.wait_for_selector("#tournament-list li")
    audit.check_widths(page, "tournaments")
    page.goto(f"/tournaments/{made['running']}/")
    page.wait_for_selector("#standings tbody tr")
    audit.check_widths(page, "tournament (running)")
    page.goto(f"/tournaments/{made['open']}/")
    page.get_by_role("button", name="Register").wait_for()
    audit.check_widths(page, "tournament (registration)")
    page.goto("/leaderboards/alkort/")
    page.wait_for_selector("#leaderboard, .empty")
    audit.check_widths(page, "leaderboard")
    page.goto("/games/alkort/")
    page.wait_for_selector("#stats-root .panel, #stats-root .empty")
    audit.check_widths(page, "game statistics")
    page.goto(f"/players/{name}/")
    page.wait_for_selector("#recent-tables, .empty")
    audit.check_widths(page, "profile (no matches)")
    for game in ("alager", "alkort", "allegra"):
        page.goto(f"/rules/{game}/")
        audit.check_widths(page, f"{game} rules")
    person.expected_failures.append("/tables/999999/")
    page.goto("/tables/999999/")
    audit.check_widths(page, "page not found")
    create_table(page, "alkort", 2, fill="open")
    audit.check_widths(page, "table (waiting for players)")

    audit.assert_clean()
