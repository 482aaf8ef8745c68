"""Browser tests: Debian's Chromium, driven by Playwright, against a live server.

The session starts, per xdist worker, a real ASGI server (daphne) on a free
port and a real Celery worker, both on this worker's test database (real
PostgreSQL) and Redis prefix and queue. The worker takes what production's
takes from a finished table (statistics, ratings, standings); bot turns and
turn timers run in the server right after the move that makes them due
(``TASK_RUNNER=inline``, the test settings' default), so a test waits for no
bot delay. Bot turns through Celery, as production plays them, are the live
stack's (``tests/games/live``, ``TASK_RUNNER=celery``). Each
test gets fresh browser contexts (``player``) whose console errors and
requests are recorded: a test fails if a page logs an error or asks for
anything outside the server's origin.

Chromium comes from Debian (``make browsers``; ``make test`` installs it).
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.helpers import database_url

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(settings.BASE_DIR)
#: Where the tests leave their screenshots (var/ is the checkout's scratch space).
OUTPUT = ROOT / "var" / "e2e"
SCREENSHOTS = ROOT / "docs" / "screenshots"
PASSWORD = "a-long-unusual-passphrase"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.path):
            item.add_marker(pytest.mark.e2e)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer /healthz: {log.read_text()[-2000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _admin_sql(statement: str) -> None:
    """Run one statement on the server's maintenance database (autocommit)."""
    import psycopg

    db = settings.DATABASES["default"]
    with psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"] or None,  # None: libpq's default user
        password=db["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as conn:
        conn.execute(statement)


@pytest.fixture(scope="session")
def live_env() -> Iterator[dict[str, str]]:
    """The environment of the live server's processes, on a database of their own.

    The database is named after the checkout and the xdist worker (like the
    other test databases) and migrated by the real ``migrate`` command; what
    the browser tests commit never meets the rest of the suite.
    """
    db = settings.DATABASES["default"]
    name = f"test_{db['NAME']}_{settings.CHECKOUT_ID}_e2e_{settings.TEST_WORKER}"
    _admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin_sql(f'CREATE DATABASE "{name}"')
    url = database_url(name)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        # A queue of the browser tests' own. The live-play tests' stack
        # (tests/games/live) keeps a worker on this xdist worker's queue for
        # the whole session, on another database: sharing a queue, each
        # worker took the other's bot turns and statistics and ran them on
        # the wrong database, where they did nothing.
        "CELERY_QUEUE": f"{settings.CELERY_TASK_DEFAULT_QUEUE}-e2e",
        "PYTHONUNBUFFERED": "1",
    }
    for command in (["migrate"], ["ensure_demo_accounts", "--bots-only"]):
        subprocess.run(
            [sys.executable, "manage.py", *command, "--verbosity", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
    try:
        yield env
    finally:
        _admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def live_manage(live_env: dict[str, str]) -> Callable[[str], str]:
    """Run Python in ``manage.py shell`` on the live server's database, as an
    organiser's admin work would leave it (what the page under test shows);
    returns what it printed.

    Each script's factories count from a number of their own: a new shell's
    ``UserFactory`` starts at ``player0`` again, so two scripts on one live
    database (a worker's tests share it) made the same person and the second
    failed on the unique username."""
    scripts = itertools.count(1)

    def run(code: str) -> str:
        start = next(scripts) * 100_000
        code = (
            "from tests.accounts.factories import UserFactory as _People\n"
            f"_People.reset_sequence({start})\n{code}"
        )
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "--verbosity", "0", "-c", code],
            cwd=ROOT,
            env=live_env,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise RuntimeError(f"manage.py shell failed: {done.stderr[-2000:]}")
        return done.stdout

    return run


@pytest.fixture(scope="session")
def live_url(live_env: dict[str, str]) -> Iterator[str]:
    """The base URL of a live daphne + Celery worker on ``live_env``'s database."""
    env = live_env
    logs = OUTPUT / f"logs-{settings.TEST_WORKER}"
    logs.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    bin_dir = Path(sys.executable).parent
    server_log = logs / "daphne.log"
    worker_log = logs / "celery.log"
    with server_log.open("wb") as out, worker_log.open("wb") as wout:
        worker = subprocess.Popen(
            [
                str(bin_dir / "celery"),
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "--queues",
                env["CELERY_QUEUE"],
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel",
                "WARNING",
            ],
            cwd=ROOT,
            env=env,
            stdout=wout,
            stderr=subprocess.STDOUT,
        )
        server = subprocess.Popen(
            [
                str(bin_dir / "daphne"),
                "--bind",
                "127.0.0.1",
                "--port",
                str(port),
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(base, server, server_log)
            yield base
        finally:
            _stop(server)
            _stop(worker)


# Module scope: Playwright's sync API keeps an event loop running in this
# thread while a browser is open, and Django refuses database calls under a
# running loop, so the browser must be gone before the rest of the suite runs.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: run `make browsers` (make test does).")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@dataclass
class Player:
    """One person: a browser context, its page, and what its pages did."""

    context: Any
    page: Any
    origin: str
    username: str = ""
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    #: API paths whose 4xx answers a test expects (a refused move, an API
    #: that is not there yet): Chromium logs every such answer as a console
    #: error, which is only a problem when nobody meant it.
    expected_failures: list[str] = field(default_factory=list)

    def _console(self, message: Any) -> None:
        if message.type != "error":
            return
        where = (message.location or {}).get("url", "")
        if message.text.startswith("Failed to load resource") and any(
            path in where for path in self.expected_failures
        ):
            return
        self.errors.append(f"{message.text} ({where})")

    def watch(self, page: Any) -> Any:
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("request", lambda request: self.requests.append(request.url))
        return page

    def new_page(self) -> Any:
        self.page = self.watch(self.context.new_page())
        return self.page

    def foreign_requests(self) -> list[str]:
        allowed = (self.origin + "/", self.origin.replace("http", "ws", 1) + "/")
        return [
            url
            for url in self.requests
            if not url.startswith(allowed) and not url.startswith("data:")
        ]


@pytest.fixture
def player(live_url: str, browser: Any) -> Iterator[Any]:
    """A factory of players (browser contexts) checked at the end of the test."""
    made: list[Player] = []

    def make(width: int = 1440, height: int = 900) -> Player:
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=live_url
        )
        context.set_default_timeout(15_000)
        person = Player(context=context, page=None, origin=live_url)
        person.new_page()
        made.append(person)
        return person

    yield make
    problems = []
    for person in made:
        if person.errors:
            problems.append(f"console errors ({person.username}): {person.errors}")
        if person.foreign_requests():
            problems.append(f"requests off the origin: {person.foreign_requests()}")
        person.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """Where screenshots go; ``E2E_SCREENSHOTS_TO_DOCS=1`` also refreshes docs/."""
    path = OUTPUT / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def keep_screenshot(page: Any, directory: Path, name: str) -> Path:
    """Save a full-page screenshot; copy it to docs/screenshots/ when asked."""
    target = directory / f"{name}.png"
    page.screenshot(path=str(target), full_page=True)
    if os.environ.get("E2E_SCREENSHOTS_TO_DOCS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(target, SCREENSHOTS / target.name)
    return target
