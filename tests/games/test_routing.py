"""``games.routing``: the socket paths, through the assembled ASGI app.

The contract's only socket path is ``ws/tables/{id}/`` (docs/architecture.md
§6). A handshake on any other path is answered like an unknown table: the
handshake is accepted and the socket closed with 4404, so the client gets a
code it can act on rather than an HTTP 500 and a logged traceback.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.consumers import CLOSE_UNKNOWN_TABLE

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


@pytest.mark.parametrize(
    "path",
    [
        "/ws/tables/abc/",  # not a table id
        "/ws/tables/7",  # no trailing slash
        "/ws/tables/7/moves/",
        "/ws/tables/",
        "/ws/",
        "/elsewhere/",
    ],
)
def test_a_path_that_is_no_table_socket_closes_with_4404(
    path: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def go() -> None:
        comm = WebsocketCommunicator(application, path)
        connected, _ = await comm.connect(timeout=10)
        assert connected
        assert await comm.receive_output(10) == {
            "type": "websocket.close",
            "code": CLOSE_UNKNOWN_TABLE,
        }

    asyncio.run(go())
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
