"""daphne as ``make run`` serves, against Twisted's habits
(``config.daphne_http``): a throttled request's status line says ``429 Too
Many Requests`` (with ``Retry-After`` and the error body), and a form body
Twisted cannot parse gets the API's JSON 400, not a bare one."""

import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import (
    DAPHNE,
    clean_env,
    embedded_migrated,
    free_port,
    server_process,
)

pytestmark = pytest.mark.timeout(120)

Answer = tuple[int, str, dict[str, str], bytes]


def request(
    port: int, method: str, path: str, body: bytes | None = None, **headers: str
) -> Answer:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return (
            response.status,
            response.reason,
            dict(response.getheaders()),
            response.read(),
        )
    finally:
        connection.close()


@pytest.fixture
def daphne(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """daphne on the embedded default, a throwaway database, and an anonymous
    throttle of three requests a minute; its port and log."""
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path / "var"),
        THROTTLE_ANON_RATE="3/minute",
    )
    embedded_migrated(env, timeout=60)
    port, log = free_port(), tmp_path / "daphne.log"
    with server_process(
        [*DAPHNE, "-p", str(port), "config.asgi:application"], env, log
    ) as server:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text()
            try:
                # The first of the three requests a minute.
                assert request(port, "GET", "/api/games/")[:2] == (200, "OK")
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        yield port, log


def test_a_throttled_request_says_too_many_requests(daphne: tuple[int, Path]) -> None:
    port, log = daphne
    answers = [request(port, "GET", "/api/games/") for _ in range(3)]

    assert [a[:2] for a in answers[:2]] == [(200, "OK")] * 2
    status, reason, headers, body = answers[2]
    assert (status, reason) == (429, "Too Many Requests")
    assert 1 <= int(headers["Retry-After"]) <= 60
    assert headers["Content-Type"] == "application/json"
    error = json.loads(body)
    assert error["code"] == "throttled"
    assert error["message"].startswith("Request was throttled. Expected available in")
    assert "429 Unknown Status" not in log.read_text()


def test_a_form_body_twisted_cannot_parse_gets_the_apis_400(
    daphne: tuple[int, Path],
) -> None:
    status, _, headers, answer = request(
        daphne[0],
        "POST",
        "/api/accounts/register/",
        b"x",
        **{"Content-Type": "multipart/form-data"},  # and no boundary
    )

    assert (status, headers.get("Content-Type")) == (400, "application/json")
    assert json.loads(answer) == {
        "code": "parse_error",
        "message": "Multipart form parse error - Invalid boundary in multipart: None",
    }
