"""What a person does in the browser, step by step, for the e2e tests."""

from __future__ import annotations

import itertools
import time
from typing import Any

from tests.e2e.conftest import PASSWORD

_names = itertools.count(1)

TURN_OR_OVER = """() => {
  const root = document.getElementById('table-page');
  if (!root) return false;
  if (root.dataset.status === 'finished') return 'over';
  if (root.dataset.myturn === '1') return 'turn';
  return false;
}"""


def unique_name(prefix: str) -> str:
    import os

    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw")
    return f"{prefix}{worker[-2:]}{os.getpid() % 10000}n{next(_names)}"


def sign_up(person: Any, prefix: str = "ada", length: int | None = None) -> str:
    """Create an account through the sign-up page; ends on the lobby.

    With ``length``, the unique name is padded to that many characters.
    """
    page = person.page
    name = unique_name(prefix)
    if length is not None:
        name = (name + "x" * length)[:length]
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/")  # the sign-up page's own address matches too
    page.wait_for_selector(f".me:text-is('{name}')")
    # The lobby's buttons do nothing until its module script has run, which
    # may be after the name shows on a loaded machine: wait for the page's
    # load event (after every module script), or a click can go unheard.
    page.wait_for_load_state("load")
    person.username = name
    return name


def create_table(
    page: Any,
    game: str,
    players: int,
    options: dict[str, Any] | None = None,
    *,
    fill: str = "bots",
    level: str = "random",
    rated: bool = False,
    time_control: int | None = None,
) -> int:
    """Fill in the lobby's create form and submit it; returns the table id."""
    page.goto("/")
    page.select_option("#create-game", game)
    page.select_option("#create-players", str(players))
    page.select_option("#create-fill", fill)
    page.select_option("#create-level", level)
    page.select_option("#create-time", str(time_control or ""))
    for name, value in (options or {}).items():
        field = page.locator(f"#opt-{name}")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.locator("#create-rated").set_checked(rated)
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#table-page[data-seq]")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def wait_turn(page: Any, timeout: float = 30_000) -> str:
    """Wait until this seat may move ('turn') or the match is over ('over')."""
    return str(page.wait_for_function(TURN_OR_OVER, timeout=timeout).json_value())


def wait_live(page: Any) -> None:
    """Wait until the page plays over its WebSocket (until then, and whenever
    the socket is lost, it moves and reads over REST)."""
    page.wait_for_function(
        "() => window.cardroom && window.cardroom.client.mode === 'socket'",
        timeout=20_000,
    )


def seq(page: Any) -> int:
    return int(page.get_attribute("#table-page", "data-seq") or 0)


def move_done(page: Any, before: int) -> None:
    page.wait_for_function(
        """before => {
          const root = document.getElementById('table-page');
          return Number(root.dataset.seq) > before || !document.getElementById('refusal').hidden;
        }""",
        arg=before,
        timeout=20_000,
    )
    refusal = page.locator("#refusal")
    assert refusal.is_hidden(), f"a move was refused: {refusal.text_content()}"


def alager_move(page: Any) -> None:
    """Knock when allowed, otherwise pass ("dál"): the shortest way through."""
    konec = page.get_by_role("button", name="Konec (knock)")
    if konec.is_enabled():
        konec.click()
    else:
        page.get_by_role("button", name="Dál (pass)").click()


def alkort_move(page: Any) -> None:
    """Keep the hand in the exchange; then play the first card allowed."""
    keep = page.get_by_role("button", name="Keep my hand (pass)")
    if keep.count() and keep.is_enabled():
        keep.click()
    else:
        page.locator(".hand button.card-slot").first.click()


def allegra_move(page: Any) -> None:
    """Pass in a knock window; else turn a face-down cell of the area."""
    pass_button = page.get_by_role("button", name="Pass", exact=True)
    if pass_button.count() and pass_button.is_enabled():
        pass_button.click()
        return
    cells = page.locator(".ring button.card-slot")
    face_down = page.locator(".ring button.card-slot:has(svg.back)")
    if face_down.count():
        face_down.first.click()
    elif cells.count():
        cells.first.click()
    else:
        page.locator(".actions button:not([disabled])").first.click()


MOVES = {"alager": alager_move, "alkort": alkort_move, "allegra": allegra_move}


def play_to_end(
    page: Any, game: str, *, limit: int = 400, stop_after: int | None = None
) -> int:
    """Click through this seat's moves until the match ends; returns the moves."""
    for done in range(limit):
        if wait_turn(page) == "over":
            return done
        if stop_after is not None and done >= stop_after:
            return done
        before = seq(page)
        MOVES[game](page)
        move_done(page, before)
    raise AssertionError(f"the {game} match did not end in {limit} moves")


def wait_counted(page: Any, name: str, game: str, matches: int) -> None:
    """Wait until the worker has counted ``matches`` rated matches of ``name``
    at ``game``: statistics are recorded by a Celery task after each match
    ends, and a profile page reads them once, when it opens."""
    deadline = time.monotonic() + 60
    while True:
        answer = page.request.get(f"/api/stats/players/{name}/")
        rating = (answer.json().get("ratings") or {}).get(game) if answer.ok else None
        if rating and rating["matches"] == matches:
            return
        assert time.monotonic() < deadline, f"not counted: {answer.text()}"
        page.wait_for_timeout(200)
