"""A throttled request over daphne, as ``make run`` serves: the status line
says ``429 Too Many Requests``, not ``429 Unknown Status``
(``config.reason_phrases``), with ``Retry-After`` and the error body."""

import http.client
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import REPO, clean_env, free_port, stop_process_group

pytestmark = pytest.mark.timeout(120)


def answer(port: int) -> tuple[int, str, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/api/games/")
        response = connection.getresponse()
        return (
            response.status,
            response.reason,
            dict(response.getheaders()),
            (response.read()),
        )
    finally:
        connection.close()


def test_daphne_says_too_many_requests_with_retry_after(tmp_path: Path) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path / "var"),
        THROTTLE_ANON_RATE="1/minute",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO,
        env=env,
        check=True,
        timeout=60,
    )
    port = free_port()
    log = tmp_path / "daphne.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            + ["config.asgi:application"],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text()
            try:
                first = answer(port)
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        status, reason, headers, body = answer(port)
    finally:
        stop_process_group(server)

    assert first[:2] == (200, "OK")
    assert (status, reason) == (429, "Too Many Requests")
    assert 1 <= int(headers["Retry-After"]) <= 60
    assert headers["Content-Type"] == "application/json"
    error = json.loads(body)
    assert error["code"] == "throttled"
    assert error["message"].startswith("Request was throttled. Expected available in")
    assert "429 Unknown Status" not in log.read_text()
