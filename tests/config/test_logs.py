"""Logs: no secret in any line, one shape on stderr, ``LOG_LEVEL`` in either case.

API clients authenticate their WebSocket with ``?token=<key>`` on the URL and
uvicorn logs each request's path with its query string; ``config.logs``
blanks such values before any handler prints them, in uvicorn's log config
(``config/uvicorn-logging.json``, which ``scripts/web.sh`` passes) and in
Django's ``LOGGING``.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.logs import REDACTED, SECRET_PARAMETERS, RedactSecrets, checked_level
from tests.helpers import (
    REPO,
    clean_env,
    database_url,
    free_port,
    run_python,
    stop_process_group,
)

#: The start of every line of ours: Django's ``%(asctime)s %(levelname)s
#: %(name)s: `` (``config/settings/base.py``).
STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ [\w.]+: "
LINE = re.compile(rf"^{STAMP}", re.MULTILINE)


def record(msg: Any, args: Any = ()) -> logging.LogRecord:
    return logging.LogRecord(
        "uvicorn.error", logging.INFO, __file__, 1, msg, args, None
    )


def filtered(msg: Any, args: Any = ()) -> logging.LogRecord:
    rec = record(msg, args)
    assert RedactSecrets().filter(rec) is True  # a record is never dropped
    return rec


# --- The filter ---------------------------------------------------------------


def test_a_token_in_an_argument_is_redacted_and_the_template_kept() -> None:
    """uvicorn's WebSocket line: the path with its query is an argument."""
    rec = filtered(
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:48210", "/ws/tables/1/?token=b17b5b9a0c&after=3"),
    )

    assert rec.msg == '%s - "WebSocket %s" [accepted]'
    assert rec.args == ("127.0.0.1:48210", "/ws/tables/1/?token=[redacted]&after=3")
    assert rec.getMessage() == (
        '127.0.0.1:48210 - "WebSocket /ws/tables/1/?token=[redacted]&after=3" [accepted]'
    )


def test_numbers_stay_numbers_for_the_access_line() -> None:
    """uvicorn's access line formats the status with %d (and its own formatter
    reads ``record.args``): only the strings change."""
    rec = filtered(
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:1", "GET", "/api/tables/?Token=abc", "1.1", 200),
    )

    assert rec.args == (
        "127.0.0.1:1",
        "GET",
        "/api/tables/?Token=[redacted]",
        "1.1",
        200,
    )
    assert (
        rec.getMessage()
        == '127.0.0.1:1 - "GET /api/tables/?Token=[redacted] HTTP/1.1" 200'
    )


def test_a_token_in_the_message_is_redacted() -> None:
    rec = filtered("GET /ws/tables/1/?after=2&token=b17b5b9a0c HTTP/1.1")

    assert rec.getMessage() == "GET /ws/tables/1/?after=2&token=[redacted] HTTP/1.1"


def test_a_template_naming_the_parameter_is_replaced_by_its_clean_text() -> None:
    rec = filtered("opened /ws/?token=%s for %s", ("b17b5b9a0c", "alice"))

    assert rec.getMessage() == "opened /ws/?token=[redacted] for alice"
    assert "b17b5b9a0c" not in repr((rec.msg, rec.args))


def test_mapping_arguments_and_objects_are_redacted() -> None:
    class Url:
        def __str__(self) -> str:
            return "wss://cardroom.example/ws/tables/1/?token=b17b5b9a0c"

    rec = filtered("%(path)s", ({"path": "/x?password=hunter2"},))
    assert isinstance(rec.args, dict)
    assert rec.getMessage() == "/x?password=[redacted]"

    rec = filtered("to %s, raw %r", (Url(), b"token=b17b5b9a0c"))
    assert rec.getMessage() == (
        "to wss://cardroom.example/ws/tables/1/?token=[redacted], raw b'token=[redacted]'"
    )


@pytest.mark.parametrize(
    "name", [*SECRET_PARAMETERS, "TOKEN", "Access_Token", "API_KEY"]
)
def test_every_secret_parameter_in_any_case(name: str) -> None:
    rec = filtered("GET %s", (f"/x?a=1&{name}=s3cret&b=2",))

    assert rec.getMessage() == f"GET /x?a=1&{name}={REDACTED}&b=2"


@pytest.mark.parametrize(
    "url",
    [
        "/x?csrftoken=abc",  # another parameter whose name ends alike
        "/x?tokens=abc",
        "/x?key=abc&page=2",
        "/token/abc",  # a path, not a parameter
    ],
)
def test_other_parameters_are_left_alone(url: str) -> None:
    assert filtered("GET %s", (url,)).getMessage() == f"GET {url}"


def test_an_encoded_url_inside_a_query_is_redacted_too() -> None:
    rec = filtered("GET %s", ("/login/?next=%2Fws%2F%3Ftoken%3Db17b5b9a0c",))

    assert rec.getMessage() == "GET /login/?next=%2Fws%2F%3Ftoken%3D[redacted]"


@pytest.mark.parametrize(
    ("url", "clean"),
    [
        (
            "postgres://cardroom:s3cret@db:5432/cardroom",
            "postgres://cardroom:[redacted]@db:5432/cardroom",
        ),
        ("redis://:s3cret@cache:6379/0", "redis://:[redacted]@cache:6379/0"),
        ("amqp://guest:s3:cr%40et@mq//", "amqp://guest:[redacted]@mq//"),
    ],
)
def test_a_urls_password_is_redacted(url: str, clean: str) -> None:
    """A database or broker URL in a message (a worker's connection error, a
    task's arguments): the user and host stay, for the operator."""
    rec = filtered("connecting to %s failed", (url,))

    assert rec.getMessage() == f"connecting to {clean} failed"
    assert "s3" not in repr(rec.args)


@pytest.mark.parametrize(
    "text",
    [
        "postgres://root@127.0.0.1:5432/cardroom",  # a user, no password
        "http://127.0.0.1:8000/api/tables/?page=2",  # a port, not a password
        "see http://h:80/x@y",  # "@" after the host
    ],
)
def test_a_url_without_a_password_is_left_alone(text: str) -> None:
    assert filtered(text).getMessage() == text


def test_redaction_is_idempotent() -> None:
    once = filtered("GET %s", ("redis://:pw@h/0 /x?token=abc&auth=def",))
    twice = filtered(once.msg, once.args)

    assert (
        twice.getMessage()
        == once.getMessage()
        == "GET redis://:[redacted]@h/0 /x?token=[redacted]&auth=[redacted]"
    )


def test_a_token_in_an_exceptions_traceback_is_redacted() -> None:
    """An exception whose message holds a URL with its query (a client's, an
    HTTP library's) prints it on the traceback's last line: cleaned too,
    the rest of the traceback kept for the operator."""
    try:
        raise ValueError("could not open /ws/tables/1/?token=b17b5b9a0c&after=3")
    except ValueError:
        rec = logging.LogRecord(
            "cardroom.x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info()
        )
    rec.stack_info = "Stack (most recent call last):\n  get('/x?auth=s3cret')"
    assert RedactSecrets().filter(rec) is True

    text = logging.Formatter().format(rec)
    assert "b17b5b9a0c" not in text and "s3cret" not in text, text
    assert text.startswith("failed\nTraceback (most recent call last):\n"), text
    assert "ValueError: could not open /ws/tables/1/?token=[redacted]&after=3" in text
    assert "get('/x?auth=[redacted]')" in text
    assert "test_a_token_in_an_exceptions_traceback_is_redacted" in text


def test_websocket_frames_text_is_left_out_and_their_kind_kept() -> None:
    """uvicorn's WebSocket protocol (the ``websockets`` library) logs every
    frame at DEBUG with its text: a move naming the seat's cards, the seat's
    frame with its hand."""
    from websockets.frames import Close, Frame, Opcode

    move = b'{"type": "act", "action": {"type": "keep", "card": "QH"}}'
    for direction in ("<", ">"):
        for opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
            rec = filtered(f"{direction} %s", (Frame(opcode, move),))
            assert rec.getMessage() == (
                f"{direction} {opcode.name} [{len(move)} bytes, not shown]"
            )
    closing = Frame(Opcode.CLOSE, Close(1000, "bye").serialize())
    assert filtered("< %s", (closing,)).getMessage() == f"< {closing}"


@pytest.mark.parametrize(
    "name", ["cookie", "Cookie", "authorization", "Set-Cookie", "proxy-authorization"]
)
def test_credential_headers_of_a_handshake_are_redacted(name: str) -> None:
    rec = filtered("< %s: %s", (name, "sessionid=s3cret; csrftoken=abc"))

    assert rec.getMessage() == f"< {name}: {REDACTED}"
    assert filtered("< %s: %s", ("user-agent", "x")).getMessage() == "< user-agent: x"


# --- LOG_LEVEL ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "level"),
    [
        ("info", "INFO"),
        ("INFO", "INFO"),
        ("Warning", "WARNING"),
        (" debug ", "DEBUG"),
        ("critical", "CRITICAL"),
        ("error", "ERROR"),
    ],
)
def test_log_level_in_either_case(value: str, level: str) -> None:
    assert checked_level(value) == level


# trace: uvicorn's, not Celery's (the worker and beat share LOG_LEVEL).
@pytest.mark.parametrize("value", ["loud", "", "20", "warn", "trace"])
def test_an_unknown_log_level_is_refused_by_name(value: str) -> None:
    with pytest.raises(ImproperlyConfigured) as refused:
        checked_level(value)

    assert str(refused.value) == (
        f"LOG_LEVEL={value!r} is not a log level: use one of critical, error, "
        "warning, info, debug (in either case)."
    )


DJANGO_LOGS = """
import json, logging
import django
django.setup()
from django.conf import settings
logging.getLogger("django.server").info('"GET %s HTTP/1.1" 200', "/x?token=srv-secret")
logging.getLogger("django.request").warning("Not Found: %s", "/x?token=req-secret")
logging.getLogger("cardroom.anything").warning("fetched /x?access_token=root-secret")
print(json.dumps(settings.LOG_LEVEL))
"""


def test_django_takes_a_lowercase_level_and_redacts_every_logger(
    tmp_path: Path,
) -> None:
    """``LOG_LEVEL=info`` used to stop every Django process at
    ``dictConfig``; and whatever logger a URL reaches, the line is clean."""
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path),
        LOG_LEVEL="info",
    )

    done = run_python(DJANGO_LOGS, env)

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == "INFO"
    lines = done.stderr.splitlines()
    assert len(lines) == 3, done.stderr
    assert all(LINE.match(line) for line in lines), done.stderr
    assert "secret" not in done.stderr.replace("[redacted]", ""), done.stderr
    assert ' INFO django.server: "GET /x?token=[redacted] HTTP/1.1" 200' in lines[0]
    assert " WARNING django.request: Not Found: /x?token=[redacted]" in lines[1]
    assert " WARNING cardroom.anything: fetched /x?access_token=[redacted]" in lines[2]


DJANGO_TRACEBACK = """
import logging
import django
django.setup()
try:
    raise RuntimeError("fetching wss://x/ws/tables/1/?token=tb-secret failed")
except RuntimeError:
    logging.getLogger("cardroom.api").exception("Unexpected error")
"""


def test_django_redacts_a_token_in_a_logged_traceback(tmp_path: Path) -> None:
    """``logger.exception`` (the API's 500, a socket's failed message): the
    traceback goes through the same redaction as the message."""
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path),
        LOG_LEVEL="info",
    )

    done = run_python(DJANGO_TRACEBACK, env)

    assert done.returncode == 0, done.stderr
    assert "tb-secret" not in done.stderr, done.stderr
    assert LINE.match(done.stderr), done.stderr
    assert " ERROR cardroom.api: Unexpected error\nTraceback " in done.stderr
    assert (
        "RuntimeError: fetching wss://x/ws/tables/1/?token=[redacted] failed"
        in done.stderr
    ), done.stderr


DJANGO_SQL = """
import django
django.setup()
from django.conf import settings
from django.db import connection
assert settings.DEBUG
with connection.cursor() as cursor:
    cursor.execute("SELECT %s", ["sql-secret"])
import logging
logging.getLogger("cardroom.x").debug("debug lines are printed")
"""


def test_debug_level_with_debug_on_logs_no_sql_parameters(tmp_path: Path) -> None:
    """With DEBUG on (``make run``), Django logs each SQL statement at DEBUG
    with its parameters, which hold token keys, seeds and hands: never
    printed, whatever ``LOG_LEVEL``."""
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path),
        DEBUG="true",
        LOG_LEVEL="debug",
    )

    done = run_python(DJANGO_SQL, env)

    assert done.returncode == 0, done.stderr
    assert "sql-secret" not in done.stderr, done.stderr
    assert " DEBUG cardroom.x: debug lines are printed" in done.stderr


def test_an_unknown_log_level_stops_django_with_its_name(tmp_path: Path) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path),
        LOG_LEVEL="loud",
    )

    done = run_python("import django\ndjango.setup()", env)

    assert done.returncode != 0
    assert (
        "django.core.exceptions.ImproperlyConfigured: LOG_LEVEL='loud' is not a log "
        "level" in done.stderr
    ), done.stderr


# --- scripts/web.sh -----------------------------------------------------------


@contextmanager
def web_sh(env: dict[str, str], logs: Path) -> Iterator[tuple[str, Path, Path]]:
    """``scripts/web.sh`` on a free port, its stdout and stderr in two files;
    stopped (and so its logs complete) when the block ends."""
    port = free_port()
    out, err = logs / "web.stdout", logs / "web.stderr"
    env = {
        **env,
        "BIN": str(Path(sys.executable).parent),
        "PORT": str(port),
        "PYTHONUNBUFFERED": "1",
    }
    with out.open("wb") as stdout, err.open("wb") as stderr:
        process = subprocess.Popen(
            ["scripts/web.sh"],
            cwd=REPO,
            env=env,
            stdout=stdout,
            stderr=stderr,
            start_new_session=True,  # its own process group: uvicorn and workers
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, err.read_text()
            try:
                with urllib.request.urlopen(f"{base_url}/healthz", timeout=5):
                    break
            except OSError:  # not listening yet, or busy starting
                assert time.monotonic() < deadline, err.read_text()
                time.sleep(0.2)
        yield base_url, out, err
    finally:
        stop_process_group(process)


def get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=10) as response:
        return int(response.status)


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_web_sh_logs_no_token_and_logs_like_django(tmp_path: Path) -> None:
    """A real API client's token, on the WebSocket URL and on an HTTP URL,
    against the full stack (this test's PostgreSQL database, Redis, two
    uvicorn workers) with ``LOG_LEVEL=info`` in lowercase."""
    from django.conf import settings
    from websockets.sync.client import connect

    from games.models import Seat
    from tests.accounts.factories import UserFactory, token_for
    from tests.games.factories import SeatFactory

    SeatFactory()  # a person seated at a lobby table
    seat = Seat.objects.select_related("user").get()
    key = token_for(seat.user)
    other_key = token_for(UserFactory())
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=database_url(),
        REDIS_URL=settings.REDIS_URL,
        PYTEST_XDIST_WORKER=settings.TEST_WORKER,  # this worker's Redis prefix
        WEB_WORKERS="2",
        LOG_LEVEL="info",
    )

    with web_sh(env, tmp_path) as (base_url, out, err):
        ws_url = base_url.replace("http", "ws") + f"/ws/tables/{seat.table_id}/"
        with connect(f"{ws_url}?token={key}", open_timeout=10) as socket:
            # A frame, not a 4401 close: the token was read, and it is valid.
            assert json.loads(socket.recv(timeout=10))["type"]
        assert get(f"{base_url}/healthz?after=1&token={other_key}&auth={key}") == 200

    stdout, stderr = out.read_text(), err.read_text()
    for secret in (key, other_key):
        assert secret not in stdout + stderr, stderr
    assert stdout == ""  # every line on stderr
    lines = stderr.splitlines()
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}"
    accepted = re.compile(
        rf'^{stamp} INFO uvicorn\.error: 127\.0\.0\.1:\d+ - "WebSocket '
        rf'/ws/tables/{seat.table_id}/\?token=\[redacted\]" \[accepted\]$'
    )
    access = re.compile(
        rf'^{stamp} INFO uvicorn\.access: 127\.0\.0\.1:\d+ - "GET '
        r'/healthz\?after=1&token=\[redacted\]&auth=\[redacted\] HTTP/1\.1" 200$'
    )
    assert any(accepted.match(line) for line in lines), stderr
    assert any(access.match(line) for line in lines), stderr
    assert any(" INFO uvicorn.error: Uvicorn running on " in line for line in lines)
    # Every record starts with the time (a traceback's lines follow their own).
    assert all(
        LINE.match(line) for line in lines if not line.startswith((" ", "Traceback"))
    ), stderr


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_web_sh_at_debug_logs_no_cookie_and_no_frame(tmp_path: Path) -> None:
    """At ``LOG_LEVEL=debug`` uvicorn's WebSocket protocol logs each
    handshake header (a browser's session cookie) and each frame's text (a
    move, the seat's hand): neither is printed, the lines themselves are."""
    from django.conf import settings
    from websockets.sync.client import connect

    from games.models import Seat
    from tests.accounts.factories import token_for
    from tests.games.factories import SeatFactory

    SeatFactory()  # a person seated at a lobby table
    seat = Seat.objects.select_related("user").get()
    key = token_for(seat.user)
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=database_url(),
        REDIS_URL=settings.REDIS_URL,
        PYTEST_XDIST_WORKER=settings.TEST_WORKER,
        WEB_WORKERS="1",
        LOG_LEVEL="debug",
    )
    cookie = "sessionid=cookie-secret; csrftoken=csrf-secret"

    with web_sh(env, tmp_path) as (base_url, out, err):
        ws_url = base_url.replace("http", "ws") + f"/ws/tables/{seat.table_id}/"
        with connect(
            f"{ws_url}?token={key}",
            open_timeout=10,
            additional_headers={"Cookie": cookie},
        ) as socket:
            first = json.loads(socket.recv(timeout=10))
            socket.send(json.dumps({"type": "ping", "note": "frame-secret"}))
            while json.loads(socket.recv(timeout=10))["type"] != "pong":
                pass

    stderr = err.read_text()
    assert first["type"] == "state"
    for secret in (key, "cookie-secret", "csrf-secret", "frame-secret", '"state"'):
        assert secret not in stderr, stderr
    assert " DEBUG uvicorn.error: < cookie: [redacted]" in stderr, stderr
    assert re.search(r" DEBUG uvicorn.error: < TEXT \[\d+ bytes, not shown\]", stderr)
    assert re.search(r" DEBUG uvicorn.error: > TEXT \[\d+ bytes, not shown\]", stderr)


@pytest.mark.timeout(120)
def test_web_sh_above_info_logs_no_info_and_no_access_line(tmp_path: Path) -> None:
    """``--log-level`` still applies over ``--log-config``: at ``WARNING`` (in
    capitals) neither uvicorn's start lines nor any access line is printed."""
    env = clean_env(
        CARDROOM_VAR_DIR=str(tmp_path / "var"),
        STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_SETTINGS_MODULE="config.settings.local",
        TASK_RUNNER="inline",  # no scheduler thread on the unmigrated database
        LOG_LEVEL="WARNING",
    )

    with web_sh(env, tmp_path) as (base_url, out, err):
        assert get(f"{base_url}/healthz?token=abc") == 200

    stderr = err.read_text()
    assert out.read_text() == ""
    assert " INFO " not in stderr, stderr
    assert "uvicorn.access" not in stderr, stderr
    assert "healthz" not in stderr, stderr
