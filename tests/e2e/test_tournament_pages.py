"""Tournaments in the browser: register and withdraw, a running round's standings."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import violations
from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import sign_up
from tests.e2e.layout import broken_words, page_width

# What an organiser leaves behind in the admin: one tournament taking
# registrations, one whose first round is in play (three people at 2-player
# tables, so a house bot makes the second table up).
SET_UP = """
import json
import re
from tests.tournaments.factories import TournamentFactory, enter
from tests.accounts.factories import UserFactory
from tournaments import services

def published(**kwargs):
    tournament = TournamentFactory(**kwargs)
    services.registration_open(tournament_id=tournament.pk)
    return tournament

open_one = published(name="Open duels", game="alkort", table_size=2, options={"target": 1})
running = published(name="Running duels", game="alkort", table_size=2, options={"target": 1})
people = [entry.player.username for entry in enter(running, 3)]
services.round_seat(tournament_id=running.pk)
services.round_start(tournament_id=running.pk, user=UserFactory(is_staff=True))
services.standings_recompute(tournament_id=running.pk)
print(json.dumps({"open": open_one.pk, "running": running.pk, "people": people}))
"""


@pytest.mark.timeout(90)
def test_register_withdraw_and_a_running_round(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    made = json.loads(live_manage(SET_UP).strip().splitlines()[-1])
    person = player()
    name = sign_up(person)
    page = person.page

    page.goto("/tournaments/")
    listed = page.locator("#tournament-list li", has_text="Open duels")
    expect(listed.locator(".tag")).to_have_text("Registration open")
    running = page.locator("#tournament-list li", has_text="Running duels")
    expect(running).to_contain_text("Alkort · Swiss · 3 rounds · 2-player tables")
    expect(running).to_contain_text("3 players")

    listed.get_by_role("link").click()
    expect(page.locator("#entries li")).to_have_count(0)
    page.get_by_role("button", name="Register").click()
    expect(page.locator("#entries li")).to_have_text([name])
    page.get_by_role("button", name="Withdraw").click()
    expect(page.get_by_text("Nobody has registered yet.")).to_be_visible()
    expect(page.get_by_role("button", name="Register")).to_be_visible()
    # Nothing to stand on before the first round.
    assert page.locator("#standings, #rounds").count() == 0

    page.goto(f"/tournaments/{made['running']}/")
    standings = page.locator("#standings tbody tr")
    expect(standings).to_have_count(3)
    assert sorted(standings.locator("th a").all_text_contents()) == sorted(
        made["people"]
    )
    assert page.locator("#standings th").all_text_contents()[:3] == [
        "#",
        "Player",
        "Points",
    ]
    tables = page.locator("#rounds .round-tables > li")
    expect(tables).to_have_count(2)
    # The seat the house bot filled is named as the bot, not left blank.
    expect(tables.filter(has_text="basic bot")).to_have_count(1)
    # Each round is named by its heading ("Round 1"), with no list number before it.
    assert (
        page.locator("#rounds").evaluate("e => getComputedStyle(e).listStyleType")
        == "none"
    )
    assert page.get_by_role("button", name="Register").count() == 0


TEAM_SET_UP = """
import json
import re
from tests.tournaments.factories import TournamentFactory
from tournaments import services

tournament = TournamentFactory(
    name="Pairs cup", game="alkort", table_size=4, team_event=True, options={"target": 1}
)
services.registration_open(tournament_id=tournament.pk)
print(json.dumps({"tournament": tournament.pk}))
"""


@pytest.mark.timeout(90)
def test_registering_for_a_team_event_names_the_team(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """A team event takes a team: the page asks for it, and a refusal about it
    points at the field."""
    made = json.loads(live_manage(TEAM_SET_UP).strip().splitlines()[-1])
    person = player()
    person.expected_failures.append(f"/api/tournaments/{made['tournament']}/register/")
    name = sign_up(person)
    page = person.page
    page.goto(f"/tournaments/{made['tournament']}/")
    team = page.get_by_label("Team")

    page.get_by_role("button", name="Register").click()
    expect(page.get_by_role("alert")).to_have_text(
        "This is a team event: name your team to register."
    )
    expect(team).to_have_attribute("aria-invalid", "true")
    expect(team).to_be_focused()

    team.fill("Ravens")
    page.get_by_role("button", name="Register").click()
    expect(page.locator("#entries li")).to_have_text([f"{name} · Ravens"])
    expect(page.get_by_role("button", name="Withdraw")).to_be_visible()


# The signed-up person (NAME) and two others in a round seated, then started.
SEATED_SET_UP = """
import json
import re
from accounts.models import User
from tests.tournaments.factories import TournamentFactory
from tournaments import services
from tournaments.models import Entry

tournament = TournamentFactory(
    name="Your duel", game="alkort", table_size=2, options={"target": 1},
    fill_policy="byes",
)
services.registration_open(tournament_id=tournament.pk)
Entry.objects.create(tournament=tournament, player=User.objects.get(username=NAME))
# Named after the person: factory names repeat from one shell to the next.
rival = User.objects.create(username=NAME + "-rival")
Entry.objects.create(tournament=tournament, player=rival)
services.round_seat(tournament_id=tournament.pk)
print(json.dumps({"tournament": tournament.pk}))
"""

START = """
from accounts.models import User
from tournaments import services
organiser = User.objects.create(username="organiser-of-ID", is_staff=True)
services.round_start(tournament_id=ID, user=organiser)
"""


@pytest.mark.timeout(90)
def test_a_player_is_shown_their_table(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """A seated player finds their table at the top of the page, not by
    reading every table's names: a note while the round is only seated, a
    link once it is in play."""
    person = player()
    name = sign_up(person)
    code = SEATED_SET_UP.replace("NAME", json.dumps(name))
    made = json.loads(live_manage(code).strip().splitlines()[-1])
    page = person.page
    page.goto(f"/tournaments/{made['tournament']}/")
    expect(page.locator("#your-table")).to_have_text(
        "Round 1 is seated: you play at table 1 once the organiser starts it."
    )
    # Not "once the first round is seated": it is, and they are not there yet.
    expect(
        page.get_by_text("Standings appear once the first round has started.")
    ).to_be_visible()
    live_manage(START.replace("ID", str(made["tournament"])))
    page.reload()
    link = page.locator("#your-table").get_by_role("link")
    expect(link).to_have_text(re.compile(r"^Play at table #\d+$"))
    link.click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))


# An event of two places, one taken; FILL has another person take the last.
PLACES_SET_UP = """
import json
from accounts.models import User
from tests.tournaments.factories import TournamentFactory
from tournaments import services

tournament = TournamentFactory(
    name="Two places", game="alkort", table_size=2, options={"target": 1},
    max_entries=2,
)
services.registration_open(tournament_id=tournament.pk)
# Named after the tournament: factory names repeat from one shell to the next.
first = User.objects.create(username=f"first-of-{tournament.pk}")
services.entry_register(tournament_id=tournament.pk, user=first)
print(json.dumps({"tournament": tournament.pk}))
"""

# Named after the person: factory names repeat from one shell to the next.
FILL = """
from accounts.models import User
from tournaments import services
late = User.objects.create(username=NAME + "-late")
services.entry_register(tournament_id=ID, user=late)
"""


@pytest.mark.timeout(90)
def test_places_taken_and_a_full_tournament(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """A tournament with a limit shows its places taken in the list and on
    its page; once full, its page says so instead of offering Register."""
    made = json.loads(live_manage(PLACES_SET_UP).strip().splitlines()[-1])
    person = player()
    name = sign_up(person)
    page = person.page

    page.goto("/tournaments/")
    listed = page.locator("#tournament-list li", has_text="Two places")
    expect(listed).to_contain_text("1 of 2 places taken")

    page.goto(f"/tournaments/{made['tournament']}/")
    expect(
        page.get_by_role("heading", name="Registered (1 of 2 places taken)")
    ).to_be_visible()
    page.get_by_role("button", name="Register").click()
    expect(
        page.get_by_role("heading", name="Registered (2 of 2 places taken)")
    ).to_be_visible()
    # Entered, the person can still withdraw from a full event.
    page.get_by_role("button", name="Withdraw").click()
    expect(page.locator("#entries li")).to_have_count(1)
    assert name not in page.locator("#entries").inner_text()

    live_manage(
        FILL.replace("NAME", json.dumps(name)).replace("ID", str(made["tournament"]))
    )
    page.reload()
    expect(page.locator("#tournament-full")).to_have_text(
        "The tournament is full: all 2 places are taken."
    )
    assert page.get_by_role("button", name="Register").count() == 0


@pytest.mark.timeout(90)
def test_the_page_follows_the_round_without_a_reload(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """A player waiting on the tournament's page for the organiser to start
    the round is shown their table when it starts, without reloading: the
    page showed only what it read when it opened, so a player who waited
    there never saw *Play at table* and, at a timed table, lost their moves
    to the clock (three timeouts and a bot took the seat). A team name being
    typed is not wiped by the refresh."""
    person = player()
    name = sign_up(person)
    code = SEATED_SET_UP.replace("NAME", json.dumps(name))
    made = json.loads(live_manage(code).strip().splitlines()[-1])
    page = person.page
    page.goto(f"/tournaments/{made['tournament']}/")
    expect(page.locator("#your-table")).to_contain_text("Round 1 is seated")
    live_manage(START.replace("ID", str(made["tournament"])))
    link = page.locator("#your-table").get_by_role("link")
    expect(link).to_have_text(re.compile(r"^Play at table #\d+$"), timeout=15_000)
    # The table's status in the rounds' list follows too.
    expect(page.locator("#rounds")).to_contain_text("(playing)")


@pytest.mark.timeout(90)
def test_the_refresh_keeps_a_team_name_being_typed(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """Someone else registering while a person types their team name does
    not redraw the form under them; their Register then shows both."""
    made = json.loads(live_manage(TEAM_SET_UP).strip().splitlines()[-1])
    person = player()
    name = sign_up(person)
    page = person.page
    page.goto(f"/tournaments/{made['tournament']}/")
    team = page.get_by_label("Team")
    team.fill("Ravens")
    live_manage(
        FILL.replace("NAME", json.dumps(name))
        .replace("ID", str(made["tournament"]))
        .replace("user=late)", 'user=late, team="Crows")')
    )
    page.wait_for_timeout(6_000)  # longer than a refresh
    expect(team).to_have_value("Ravens")
    page.get_by_role("button", name="Register").click()
    expect(page.locator("#entries li")).to_have_text(
        [f"{name}-late · Crows", f"{name} · Ravens"]
    )


@pytest.mark.timeout(90)
def test_the_refresh_keeps_the_keyboard_focus(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """A redraw (someone else registered) leaves the keyboard where the person
    had it: the page was drawn anew and focus fell back to the start of the
    document, so a keyboard or screen-reader user lost their place every time
    the tournament changed."""
    made = json.loads(live_manage(SET_UP).strip().splitlines()[-1])
    person = player()
    name = sign_up(person)
    page = person.page
    page.goto(f"/tournaments/{made['open']}/")
    register = page.get_by_role("button", name="Register")
    register.focus()
    live_manage(FILL.replace("NAME", json.dumps(name)).replace("ID", str(made["open"])))
    expect(page.locator("#entries li")).to_have_text([f"{name}-late"], timeout=20_000)
    assert page.evaluate("document.activeElement.textContent") == "Register"
    page.keyboard.press("Enter")
    expect(page.locator("#entries li")).to_have_count(2)


CLOCK_SET_UP = """
import json
from tests.tournaments.factories import TournamentFactory
from tournaments import services

tournament = TournamentFactory(
    name="Quick duels", game="alkort", table_size=2, options={"target": 1},
    time_control=30,
)
services.registration_open(tournament_id=tournament.pk)
print(json.dumps({"tournament": tournament.pk}))
"""


@pytest.mark.timeout(90)
def test_the_set_up_names_the_time_control(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """A timed tournament says so where players choose to register, as the
    lobby names a table's clock: it did not, and a player found out only at
    the table, when the clock played for them."""
    made = json.loads(live_manage(CLOCK_SET_UP).strip().splitlines()[-1])
    page = player().page
    page.goto("/tournaments/")
    listed = page.locator("#tournament-list li", has_text="Quick duels")
    expect(listed).to_contain_text("2-player tables · 30 s a move")
    # Number and unit on one line, on a phone too.
    assert "30\u00a0s a move" in (listed.text_content() or "")
    page.goto(f"/tournaments/{made['tournament']}/")
    expect(page.locator("#tournaments-root > p.muted").first).to_contain_text(
        "2-player tables · 30 s a move"
    )


@pytest.mark.timeout(90)
def test_a_player_finds_their_own_line_in_the_standings(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """The signed-in player's line in the standings is marked (a tinted row,
    a *you* tag, ``aria-current``): in a big event they had to read every
    name to find where they stand. Only their line is marked."""
    person = player()
    name = sign_up(person)
    code = SEATED_SET_UP.replace("NAME", json.dumps(name))
    made = json.loads(live_manage(code).strip().splitlines()[-1])
    live_manage(START.replace("ID", str(made["tournament"])))
    page = person.page
    page.goto(f"/tournaments/{made['tournament']}/")
    expect(page.locator("#standings tbody tr")).to_have_count(2)
    mine = page.locator("#standings tbody tr[aria-current=true]")
    expect(mine).to_have_count(1)
    expect(mine.locator("th a")).to_have_text(name)
    expect(mine.locator(".you")).to_have_text("you")
    other = page.locator("#standings tbody tr", has_text=f"{name}-rival")
    tint = "e => getComputedStyle(e).backgroundColor"
    assert other.locator("td").first.evaluate(tint) != (
        mine.locator("td").first.evaluate(tint)
    )


# More published tournaments than the API's page holds (20), named after
# the person so that the test counts its own.
MANY_SET_UP = """
from tests.tournaments.factories import TournamentFactory
from tournaments import services
for number in range(1, 23):
    tournament = TournamentFactory(name=f"NAME cup {number:02d}", game="alkort", table_size=2)
    services.registration_open(tournament_id=tournament.pk)
"""


@pytest.mark.timeout(90)
def test_the_list_shows_more_than_one_page_of_tournaments(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """The list offers the tournaments past the API's first page: it showed
    the newest 20 and nothing said there were more, so a club's older
    events (and one created early with its registration still open)
    could not be found."""
    person = player()
    name = sign_up(person)
    live_manage(MANY_SET_UP.replace("NAME", name))
    page = person.page
    page.goto("/tournaments/")
    mine = page.locator("#tournament-list li", has_text=f"{name} cup")
    expect(mine).to_have_count(20)
    expect(page.locator("#tournaments-shown")).to_contain_text("Showing 20 of")
    page.get_by_role("button", name="Show more tournaments").click()
    expect(mine).to_have_count(22)
    expect(mine.first).to_contain_text(f"{name} cup 22")
    expect(mine.last).to_contain_text(f"{name} cup 01")


# A round of two people (NAME and a rival) started: its one table in play.
TABLE_SET_UP = """
import json
from accounts.models import User
from tests.tournaments.factories import TournamentFactory
from tournaments import services
from tournaments.models import Entry, Round

tournament = TournamentFactory(
    name="Spring <Swiss> of " + NAME, game="alkort", table_size=2,
    options={"target": 1}, fill_policy="byes", rounds=2,
)
services.registration_open(tournament_id=tournament.pk)
for username in (NAME, NAME + "-rival"):
    user, _ = User.objects.get_or_create(username=username)
    Entry.objects.create(tournament=tournament, player=user)
services.round_seat(tournament_id=tournament.pk)
organiser = User.objects.create(username=f"organiser-{tournament.pk}", is_staff=True)
services.round_start(tournament_id=tournament.pk, user=organiser)
table = Round.objects.get(tournament=tournament).tables.get().table
print(json.dumps({"tournament": tournament.pk, "table": table.pk, "seed": table.seed}))
"""

# Both people play the table to its end (random legal moves).
END_TABLE = """
import random
from django.db import transaction
from games.models import Table
from tests.tournaments.factories import play_people
play_people(Table.objects.get(pk=ID), random.Random(3), transaction.atomic)
"""


@pytest.mark.timeout(90)
def test_a_tournament_table_names_its_round_and_links_back(
    player: Any, live_manage: Callable[[str], str], screenshot_dir: Any
) -> None:
    """A tournament's table says which round of which tournament it is, with
    a link back to the tournament, while it is played and once it has
    ended: the page read like any lobby table, and a player had no way back
    to the standings but the browser's history."""
    person = player()
    name = sign_up(person)
    made = json.loads(
        live_manage(TABLE_SET_UP.replace("NAME", json.dumps(name)))
        .strip()
        .splitlines()[-1]
    )
    page = person.page
    page.goto(f"/tables/{made['table']}/")
    link = page.locator("#table-tournament").get_by_role("link")
    title = f"Spring <Swiss> of {name}"
    expect(link).to_have_text(f"Round 1 of {title}")
    expect(link).to_have_attribute("href", f"/tournaments/{made['tournament']}/")
    assert made["seed"] not in page.content()
    # On a phone the line sits under the heading, whole, and the page does
    # not widen.
    page.set_viewport_size({"width": 390, "height": 844})
    expect(link).to_be_in_viewport()
    assert page_width(page) <= 390
    keep_screenshot(page, screenshot_dir, "tournament-table-390")
    page.set_viewport_size({"width": 1440, "height": 900})
    link.click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{made['tournament']}/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(title)
    # A tournament in play has no result yet.
    expect(page.locator("#standings")).to_be_visible()
    expect(page.locator("#podium")).to_have_count(0)
    # Once the match has ended, the page still says where it belongs.
    live_manage(END_TABLE.replace("ID", str(made["table"])))
    page.goto(f"/tables/{made['table']}/")
    expect(page.locator("#table-page")).to_have_attribute("data-status", "finished")
    link = page.locator("#table-tournament").get_by_role("link")
    expect(link).to_have_text(f"Round 1 of {title}")


# A one-round event played to its end by people (random legal moves): four
# players at 2-player tables, or, with TEAMS, two teams at one 4-player table.
FINISHED_SET_UP = """
import json
import random
from django.db import transaction
from accounts.models import User
from tests.tournaments.factories import TournamentFactory, play_people
from tournaments import services
from tournaments.models import Entry, Round

teams = TEAMS
tournament = TournamentFactory(
    name="Final of " + NAME, game="alkort", table_size=4 if teams else 2,
    options={"target": 1}, fill_policy="byes", rounds=1, team_event=teams,
)
services.registration_open(tournament_id=tournament.pk)
names = [NAME] + [NAME + f"-{i}" for i in range(1, 4)]
for i, username in enumerate(names):
    user, _ = User.objects.get_or_create(username=username)
    team = ("Ravens", "Crows")[i % 2] if teams else ""
    Entry.objects.create(tournament=tournament, player=user, team=team)
services.round_seat(tournament_id=tournament.pk)
organiser = User.objects.create(username=f"organiser-{tournament.pk}", is_staff=True)
services.round_start(tournament_id=tournament.pk, user=organiser)
for i, rt in enumerate(Round.objects.get(tournament=tournament).tables.all()):
    play_people(rt.table, random.Random(i), transaction.atomic)
services.round_finish(tournament_id=tournament.pk)
services.standings_recompute(tournament_id=tournament.pk)
print(json.dumps({"tournament": tournament.pk}))
"""

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def podium_of(standings: list[dict[str, Any]], teams: bool) -> list[dict[str, Any]]:
    """The podium the standings make: each rank up to 3rd, its names (or
    teams), the ranks as they are (in a team event they count teams)."""
    steps: dict[int, list[str]] = {}
    for row in standings:
        if row["rank"] > 3:
            continue
        names = steps.setdefault(row["rank"], [])
        name = row["team"] if teams else row["username"]
        if name not in names:
            names.append(name)
    return [{"place": ORDINAL[r], "names": steps[r]} for r in sorted(steps)]


def shown_podium(page: Any) -> list[dict[str, Any]]:
    return list(
        page.eval_on_selector_all(
            "#podium .podium-step",
            """steps => steps.map((step) => ({
              place: step.querySelector('.podium-place').textContent,
              names: [...step.querySelectorAll('.podium-name')].map((n) => n.dataset.name),
            }))""",
        )
    )


@pytest.mark.timeout(120)
@pytest.mark.parametrize("teams", [False, True], ids=["players", "teams"])
def test_a_finished_tournament_shows_its_winner_and_podium(
    player: Any,
    live_manage: Callable[[str], str],
    screenshot_dir: Any,
    teams: bool,
) -> None:
    """A finished tournament's page leads with its result: the winner (or
    winning team) and a podium of the top three drawn as steps, places and
    ties exactly as the standings rank them (a tie shares its step). The
    page showed only the standings table, so who had won was a matter of
    reading its first lines. Phone and desktop both show it whole."""
    person = player()
    name = sign_up(person, prefix="pod")
    code = FINISHED_SET_UP.replace("NAME", json.dumps(name)).replace(
        "TEAMS", str(teams)
    )
    made = json.loads(live_manage(code).strip().splitlines()[-1])
    page = person.page
    detail = page.request.get(f"/api/tournaments/{made['tournament']}/").json()
    assert detail["status"] == "finished"
    expected = podium_of(detail["standings"], teams)
    winners = expected[0]["names"]
    for width, height in ((1440, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/tournaments/{made['tournament']}/")
        podium = page.locator("#podium")
        expect(podium).to_be_visible()
        assert shown_podium(page) == expected
        winner = page.locator("#winner")
        if teams:
            # Two teams: the standings rank the second team's players 2nd
            # (places count teams), and the podium stands it there.
            assert [s["rank"] for s in detail["standings"]] == [1, 1, 2, 2]
            assert [step["place"] for step in expected] == ["1st", "2nd"]
            expect(winner).to_contain_text(f"Winning team: {winners[0]}")
            # The team's players are named with it.
            members = [
                s["username"] for s in detail["standings"] if s["team"] == winners[0]
            ]
            for member in members:
                expect(winner).to_contain_text(member)
        elif len(winners) == 1:
            expect(winner).to_have_text(f"Winner: {winners[0]}")
        else:
            expect(winner).to_contain_text("Winners (shared first place): ")
        # Drawn: the first step stands highest, the others lower.
        heights = page.eval_on_selector_all(
            "#podium .podium-block",
            "blocks => blocks.map((b) => b.getBoundingClientRect().height)",
        )
        assert heights[0] == max(heights) and heights[0] > 0
        if len(heights) > 1:
            assert heights[0] > min(heights)
        # Whole within the screen, above the standings.
        box = podium.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page_width(page) <= width
        standings = page.locator("#standings").bounding_box()
        assert standings is not None and box["y"] < standings["y"]
        # axe-core finds nothing wrong with the result's drawing.
        assert violations(page, f"podium at {width}") == []
        keep_screenshot(
            page,
            screenshot_dir,
            f"tournament-podium-{'teams' if teams else 'players'}-{width}",
        )


# Every word of the podium's text that the browser broke over two lines: one
# word (text between spaces) whose letters lie on more than one line.
WORDS_BROKEN = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.getElementById('podium'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""

# The names on the steps: each one's box, its step's, and its title.
STEP_NAMES = """() => [...document.querySelectorAll('#podium .podium-step')].flatMap((step) => {
  const box = step.getBoundingClientRect();
  return [...step.querySelectorAll('[title]')].map((label) => {
    const r = label.getBoundingClientRect();
    return { title: label.title, text: label.textContent,
             inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 };
  });
})"""

LONG_TEAMS = ("The Extraordinarily Longwinded Ravens of Featherstonehaugh", "Crows")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("teams", [False, True], ids=["players", "teams"])
def test_long_names_on_the_podium_break_between_words(
    player: Any,
    live_manage: Callable[[str], str],
    screenshot_dir: Any,
    teams: bool,
) -> None:
    """On a phone a long player's or team's name on a podium step wrapped
    inside a word ("Featherstoneha / ugh"). A name now breaks only between
    its words, a word too long for the step is cut with an ellipsis, and the
    whole name is in its title and in the text a screen reader reads."""
    person = player(390, 844)
    name = sign_up(person, prefix="pod")
    code = (
        FINISHED_SET_UP.replace(
            'names = [NAME] + [NAME + f"-{i}" for i in range(1, 4)]',
            'names = [NAME] + ["Bartholomew" + NAME + f"Featherstonehaugh{i}" '
            "for i in range(1, 4)]",
        )
        .replace('("Ravens", "Crows")', repr(LONG_TEAMS))
        .replace("NAME", json.dumps(name))
        .replace("TEAMS", str(teams))
    )
    made = json.loads(live_manage(code).strip().splitlines()[-1])
    page = person.page
    for width, height in ((390, 844), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/tournaments/{made['tournament']}/")
        expect(page.locator("#podium")).to_be_visible()
        assert page.evaluate(WORDS_BROKEN) == [], f"at {width}"
        names = page.evaluate(STEP_NAMES)
        assert names and all(n["inside"] for n in names), names
        # The whole name stays in the text (and the title): cut only to the eye.
        assert all(n["text"] == n["title"] for n in names), names
        if teams:
            assert {n["title"] for n in names} >= set(LONG_TEAMS)
        assert page_width(page) <= width
        keep_screenshot(
            page,
            screenshot_dir,
            f"tournament-podium-long-{'teams' if teams else 'players'}-{width}",
        )


# The same people registering for a second event (its entries' list).
LONG_ENTRIES = """
import json
from accounts.models import User
from tests.tournaments.factories import TournamentFactory
from tournaments import services
from tournaments.models import Entry

names = NAMES
tournament = TournamentFactory(
    name="Next of " + names[0], game="alkort", table_size=4 if TEAMS else 2, team_event=TEAMS,
)
services.registration_open(tournament_id=tournament.pk)
for i, username in enumerate(names):
    team = TEAM_NAMES[i % 2] if TEAMS else ""
    Entry.objects.create(tournament=tournament, player=User.objects.get(username=username), team=team)
print(json.dumps({"tournament": tournament.pk}))
"""

# Each name (an element with a title) in the standings, the rounds and the
# entries as shown: its text, whether it is all within the visible part of
# its box (a table's scroll box at its start), whether the eye sees it cut
# (an ellipsis), on how many lines.
NAMES_SHOWN = """() => [...document.querySelectorAll('#standings, #rounds, #entries')].flatMap((list) => {
  const box = (list.closest('.table-scroll') || list).getBoundingClientRect();
  return [...list.querySelectorAll('[title]')].filter((n) => n.getClientRects().length).map((n) => {
    const r = n.getBoundingClientRect();
    const lines = new Set([...n.querySelectorAll('.seat-name, .result-word')]
      .map((w) => Math.round(w.getBoundingClientRect().top)));
    return { list: list.id, title: n.title, text: n.textContent, lines: lines.size,
             inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 };
  });
})"""

# The standings' number cells: alignment and figures, per column.
NUMBERS = """() => [...document.querySelectorAll('#standings tbody td:not(.team)')].map((cell) => {
  const style = getComputedStyle(cell);
  return style.textAlign + ' ' + style.fontVariantNumeric;
})"""


@pytest.mark.timeout(150)
@pytest.mark.parametrize("teams", [False, True], ids=["players", "teams"])
def test_long_names_in_the_standings_rounds_and_entries_read_on_a_phone(
    player: Any,
    live_manage: Callable[[str], str],
    screenshot_dir: Any,
    teams: bool,
) -> None:
    """On a phone the standings' Team column broke a long team's name inside
    a word and the table's scroll edge cut it off ("The Extraordinaril"), and
    the entries broke a long username over lines. Names there, in the rounds
    and the entries break only between words, a word too long is cut with an
    ellipsis (whole in its title and its text), and at 390 px every name
    stands whole on the screen: only the numbers scroll, right-aligned. The
    signed-in player's line stays tinted and tagged *you*."""
    person = player(390, 844)
    name = sign_up(person, prefix="std", length=40)
    others = [f"Bartholomew{name}Featherstonehaugh{i}" for i in range(1, 4)]
    code = (
        FINISHED_SET_UP.replace(
            'names = [NAME] + [NAME + f"-{i}" for i in range(1, 4)]',
            f"names = {[name, *others]!r}",
        )
        .replace('("Ravens", "Crows")', repr(LONG_TEAMS))
        .replace("NAME", json.dumps(name))
        .replace("TEAMS", str(teams))
    )
    made = json.loads(live_manage(code).strip().splitlines()[-1])
    entries = LONG_ENTRIES.replace("TEAM_NAMES", repr(LONG_TEAMS)).replace(
        "NAMES", repr([*others, name])
    )
    opened = json.loads(
        live_manage(entries.replace("TEAMS", str(teams))).strip().splitlines()[-1]
    )
    page = person.page
    for width, height in ((390, 844), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        for event in (made, opened):
            page.goto(f"/tournaments/{event['tournament']}/")
            shown = "#standings" if event is made else "#entries"
            expect(page.locator(shown)).to_be_visible()
            assert broken_words(page, "#standings, #rounds, #entries") == [], width
            names = page.evaluate(NAMES_SHOWN)
            assert names and all(n["inside"] for n in names), (width, names)
            # Cut only to the eye: the whole name in the text and the title.
            assert all(n["text"] == n["title"] for n in names), names
            titles = {n["title"] for n in names}
            assert titles >= {name, *others}, titles
            if teams:
                assert titles >= set(LONG_TEAMS), titles
            # A username keeps to one line (only the long team's name may
            # wrap, between its words).
            assert all(n["lines"] == 1 for n in names if n["title"] != LONG_TEAMS[0])
            assert page_width(page) <= width
            keep_screenshot(
                page,
                screenshot_dir,
                f"tournament-{shown[1:]}-long-{'teams' if teams else 'players'}-{width}",
            )
        page.goto(f"/tournaments/{made['tournament']}/")
        expect(page.locator("#standings")).to_be_visible()
        mine = page.locator("#standings tbody tr[aria-current=true]")
        expect(mine).to_have_count(1)
        expect(mine.locator(".you")).to_be_visible()
        # The tag stays on the name's line.
        label = mine.locator(".seat-label").bounding_box()
        you = mine.locator(".you").bounding_box()
        assert label and you and abs(you["y"] - label["y"]) < label["height"], (
            label,
            you,
        )
        tint = "e => getComputedStyle(e).backgroundColor"
        other = page.locator("#standings tbody tr:not([aria-current])").first
        assert mine.locator("th").evaluate(tint) != other.locator("th").evaluate(tint)
        assert set(page.evaluate(NUMBERS)) == {"right tabular-nums"}
        # axe-core finds nothing wrong with the standings and rounds either.
        assert violations(page, f"standings at {width}") == []
