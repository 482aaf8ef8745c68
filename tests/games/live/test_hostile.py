"""Hostile and unlucky clients on a running stack: each gets an error frame
or a documented close code, and the server goes on serving everyone else."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from games.consumers import MAX_MESSAGE_CHARS
from tests.games.live.conftest import Stack, Ws
from tests.games.live.test_play import duel

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def test_an_oversized_message_is_refused_before_it_is_read(stack: Stack) -> None:
    """A message over ``MAX_MESSAGE_CHARS`` is answered ``request_too_large``
    without being parsed: parsing (and depth-checking) a few megabytes of
    small arrays holds the server's event loop, every socket of the process
    with it, for seconds, and anyone, a spectator too, may send one. Nothing
    of an oversized ``act`` is played, and the socket lives on."""
    table_id, _ada, bo = duel(stack)
    pad = [[0]] * 60_000  # about 240 KB: under the server's own frame limit
    ping = json.dumps({"type": "ping", "pad": pad})
    action = bo.get(f"/api/tables/{table_id}/")["legal_actions"][0]
    act = json.dumps({"type": "act", "action": action, "command_id": "c1", "pad": pad})
    assert len(ping) > MAX_MESSAGE_CHARS

    async def go() -> list[dict[str, Any]]:
        async with (
            Ws(stack.base, table_id) as spectator,
            Ws(stack.base, table_id, bo.token) as player,
        ):
            await spectator.next("state")
            await player.next("state")
            assert spectator.conn is not None and player.conn is not None
            await spectator.conn.send(ping)
            refused = [await spectator.next("error")]
            await player.conn.send(act)
            refused.append(await player.next("error"))
            await spectator.send({"type": "ping"})
            await spectator.next("pong")
            return refused

    refused = asyncio.run(go())
    message = f"A message is longer than the limit of {MAX_MESSAGE_CHARS} characters."
    assert (
        refused
        == [{"type": "error", "code": "request_too_large", "message": message}] * 2
    )
    assert bo.get(f"/api/tables/{table_id}/")["seq"] == 2  # nothing played
