"""Over-long URLs and request heads answer 414 / 431 from both real servers.

daphne (``make run``) and uvicorn (``scripts/web.sh``: ``make up``, the
containers), each started as its own process, get raw requests over a socket:
a URL one byte over ``MAX_URL_BYTES`` answers ``414 URI Too Long`` with the
API's error body (Twisted used to drop the connection without a word,
httptools to answer ``400 Invalid HTTP request received.`` beyond 64 KiB),
one at the limit reaches Django; a head over ``MAX_HEAD_BYTES``, or a header
line that never ends, answers 431 (config/request_head.py).
"""

import contextlib
import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from config.request_head import MAX_HEAD_BYTES, MAX_URL_BYTES
from tests.helpers import (
    DAPHNE,
    clean_env,
    embedded_migrated,
    free_port,
    server_process,
)

pytestmark = pytest.mark.timeout(180)

Answer = tuple[int, str, dict[str, str], bytes]
SECRET = "s3cr3t-token-value"


def exchange(port: int, *requests: bytes) -> list[Answer]:
    """Send ``requests`` on one connection, one after the other's answer."""
    answers = []
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        for raw in requests:
            # The server may answer and close while the request is still going.
            with contextlib.suppress(OSError):
                sock.sendall(raw)
            answers.append(_read_answer(sock))
    return answers


def _read_answer(sock: socket.socket) -> Answer:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"connection closed without an answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    _, status, reason = status_line.split(" ", 2)
    headers = {
        name.lower(): value.strip()
        for name, value in (line.split(":", 1) for line in lines)
    }
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(status), reason, headers, body[:length]


def get(target: str, *extra: str, port: int) -> bytes:
    lines = [f"GET {target} HTTP/1.1", f"Host: 127.0.0.1:{port}", *extra, "", ""]
    return "\r\n".join(lines).encode()


def padded(prefix: str, length: int) -> str:
    """A URL of exactly ``length`` bytes starting with ``prefix``."""
    return prefix + "a" * (length - len(prefix))


def _wait_until_serving(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + 90
    while True:
        assert process.poll() is None, log.read_text()
        try:
            status, *_ = exchange(port, get("/healthz", port=port))[0]
            if status == 200:
                return
        except (OSError, AssertionError):
            pass
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.3)


@pytest.fixture(scope="module", params=["daphne", "uvicorn"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, int, Path]]:
    """daphne as ``make run`` serves, or uvicorn through ``scripts/web.sh``:
    its name, port and log."""
    name = request.param
    tmp = tmp_path_factory.mktemp(name)
    port, log = free_port(), tmp / "server.log"
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp / "var"),
        STATIC_ROOT=str(tmp / "static"),
    )
    embedded_migrated(env)
    if name == "daphne":
        command = [*DAPHNE, "-p", str(port), "config.asgi:application"]
    else:
        command = ["scripts/web.sh"]
        env.update(BIN=str(Path(os.sys.executable).parent), PORT=str(port))
    with server_process(command, env, log) as process:
        _wait_until_serving(process, port, log)
        yield name, port, log


def assert_uri_too_long(answer: Answer) -> None:
    status, reason, headers, body = answer
    assert (status, reason) == (414, "URI Too Long")
    assert headers["content-type"] == "application/json"
    assert headers["connection"] == "close"
    assert json.loads(body) == {
        "code": "uri_too_long",
        "message": f"The URL is longer than the limit of {MAX_URL_BYTES} bytes.",
    }


def test_a_url_at_the_limit_reaches_django(server: tuple[str, int, Path]) -> None:
    _, port, _ = server

    status, _, headers, body = exchange(
        port, get(padded("/api/stats/players/", MAX_URL_BYTES), port=port)
    )[0]

    assert status == 404  # Django's answer: nobody has that name
    assert json.loads(body)["code"] == "not_found"


@pytest.mark.parametrize("length", [MAX_URL_BYTES + 1, 65_536, 1_000_000])
def test_a_longer_url_answers_414(server: tuple[str, int, Path], length: int) -> None:
    _, port, _ = server

    answer = exchange(port, get(padded("/api/stats/players/", length), port=port))[0]

    assert_uri_too_long(answer)


def test_a_long_query_string_counts_as_the_url(server: tuple[str, int, Path]) -> None:
    _, port, _ = server

    answer = exchange(port, get(padded("/healthz?x=", MAX_URL_BYTES + 1), port=port))

    assert_uri_too_long(answer[0])


def test_a_websocket_handshake_with_a_long_url_answers_414(
    server: tuple[str, int, Path],
) -> None:
    _, port, _ = server
    handshake = get(
        padded("/ws/tables/1/?token=", MAX_URL_BYTES + 100),
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        port=port,
    )

    assert_uri_too_long(exchange(port, handshake)[0])


def test_the_limit_is_per_request_on_a_kept_alive_connection(
    server: tuple[str, int, Path],
) -> None:
    _, port, _ = server
    long_but_allowed = padded("/healthz?x=", MAX_URL_BYTES - 100)

    first, second, third = exchange(
        port,
        get(long_but_allowed, port=port),
        get(long_but_allowed, port=port),
        get(padded("/healthz?x=", MAX_URL_BYTES + 1), port=port),
    )

    assert first[0] == second[0] == 200
    assert_uri_too_long(third)


def test_the_refusal_logs_one_line_without_the_url(
    server: tuple[str, int, Path],
) -> None:
    """The URL may carry a token (``?token=`` of API clients' sockets)."""
    _, port, log = server

    answer = exchange(
        port, get(padded(f"/api/games/?token={SECRET}&x=", 20_000), port=port)
    )[0]

    assert_uri_too_long(answer)
    deadline = time.monotonic() + 10
    while "cardroom.request_head" not in log.read_text():
        assert time.monotonic() < deadline, log.read_text()[-2000:]
        time.sleep(0.1)
    text = log.read_text()
    assert f"a URL longer than {MAX_URL_BYTES} bytes from 127.0.0.1:" in text
    assert SECRET not in text


def test_a_head_over_its_limit_answers_431(server: tuple[str, int, Path]) -> None:
    _, port, _ = server
    many = [f"X-Filler-{i}: {'b' * 1000}" for i in range(MAX_HEAD_BYTES // 1000 + 2)]
    one_long = f"X-Filler: {'b' * (MAX_URL_BYTES + 100)}"

    for extra in (many, [one_long]):
        assert_headers_too_large(exchange(port, get("/healthz", *extra, port=port))[0])


def test_an_endless_header_line_answers_431_before_it_ends(
    server: tuple[str, int, Path],
) -> None:
    """A line the server would buffer for as long as the client sends it."""
    _, port, _ = server
    chunk = b"b" * 4096
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(get("/healthz", port=port)[:-2] + b"X-Endless: ")
        for _ in range(2 * MAX_HEAD_BYTES // len(chunk)):
            try:
                sock.sendall(chunk)
            except OSError:  # refused and closed: the answer is waiting
                break
            time.sleep(0.005)
        answer = _read_answer(sock)

    assert_headers_too_large(answer)


def test_a_long_url_with_ordinary_headers_is_served(
    server: tuple[str, int, Path],
) -> None:
    """Twisted's own limit was 16 KiB for the URL and the headers together."""
    _, port, _ = server
    headers = [f"X-Filler-{i}: {'b' * 1000}" for i in range(8)]

    status, *_ = exchange(
        port, get(padded("/healthz?x=", MAX_URL_BYTES), *headers, port=port)
    )[0]

    assert status == 200


def assert_headers_too_large(answer: Answer) -> None:
    status, reason, headers, body = answer
    assert (status, reason) == (431, "Request Header Fields Too Large")
    assert headers["connection"] == "close"
    assert json.loads(body) == {
        "code": "headers_too_large",
        "message": "The request's header fields are larger than the limit of "
        f"{MAX_HEAD_BYTES} bytes.",
    }
