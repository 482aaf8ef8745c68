"""Hostile and unlucky clients on a running stack: each gets an error frame
or a documented close code, and the server goes on serving everyone else."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
from django.db import connection

from games.consumers import MAX_MESSAGE_CHARS
from games.models import Seat, Table
from tests.games.live.conftest import ConnectionClosed, Stack, Ws, person
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


def table_delete(table_id: int) -> None:
    """Delete the table, from a thread of its own (and its own connection)."""
    try:
        Table.objects.filter(pk=table_id).delete()
    finally:
        connection.close()


def test_a_socket_on_a_deleted_lobby_table_closes_with_4404(stack: Stack) -> None:
    """The admin deletes a lobby table (one without events) while people
    watch it: their next message closes their socket with 4404, as a
    handshake on a table that does not exist is closed, instead of a
    ``server_error`` (and an error logged) for every ping from then on."""
    ada = person(stack.base, f"ada-{uuid.uuid4().hex[:8]}")
    logged = len(stack.logs())

    async def go() -> list[Any]:
        closed = []
        for token, message in (
            (ada.token, {"type": "ping"}),
            (None, {"type": "sync", "after": 0}),
            (ada.token, {"type": "act", "action": {"type": "pass"}}),
        ):
            table = await asyncio.to_thread(
                ada.post, "/api/tables/", {"game": "alkort", "players": 2}
            )
            async with Ws(stack.base, table["id"], token) as ws:
                await ws.next("state")
                await ws.next("presence")
                # As the admin deletes it, with sockets open.
                await asyncio.to_thread(table_delete, table["id"])
                await ws.send(message)
                try:
                    while True:
                        frame = await ws.next()
                        assert frame["type"] in ("presence", "error"), frame
                        assert frame.get("code") in (None, "not_found"), frame
                except ConnectionClosed as closing:
                    assert closing.rcvd is not None
                    closed.append(closing.rcvd.code)
        return closed

    assert asyncio.run(go()) == [4404, 4404, 4404]
    assert "failed" not in stack.logs()[logged:]


def test_an_after_of_any_length_gets_a_full_state(stack: Stack) -> None:
    """``?after=`` (or a ``sync``'s ``after``) past the log's end gets one
    full state, however many digits it has: one of thousands used to fail
    the handshake's reading (Python refuses to convert it) and close the
    socket with 1011, logged as a server failure."""
    table_id, _ada, bo = duel(stack)
    huge = "9" * 5000
    logged = len(stack.logs())

    async def go() -> list[dict[str, Any]]:
        got = []
        async with Ws(stack.base, table_id, bo.token, after=huge) as ws:
            got.append(await ws.next("state"))
            await ws.send({"type": "sync", "after": 10**30})
            got.append(await ws.next("state"))
            await ws.send({"type": "sync", "after": 1})
            got.append(await ws.next("state"))
        return got

    reconnect, far, near = asyncio.run(go())
    assert (reconnect["seq"], reconnect["full"], reconnect["events"]) == (2, True, [])
    assert (far["seq"], far["full"], far["events"]) == (2, True, [])
    assert (near["full"], [e["seq"] for e in near["events"]]) == (False, [2])
    assert "failed" not in stack.logs()[logged:]


def test_a_person_back_from_away_moves_everyones_deadline(stack: Stack) -> None:
    """A person whose seat was marked away reconnects: the move's clock
    restarts (``presence.seat_back``), and every socket of the table gets a
    frame with the new deadline, not only the returning one. The others used
    to keep showing the old deadline, which no longer held, until the next
    move."""
    table_id, ada, bo = duel(stack, time_control=3600)
    Seat.objects.filter(table_id=table_id, index=1).update(away=True, timeouts=3)

    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with Ws(stack.base, table_id, ada.token) as wa:
            before = await wa.next("state")
            await asyncio.sleep(1.1)  # so that the restarted clock differs
            async with Ws(stack.servers[1], table_id, bo.token) as wb:
                back = await wb.next("state")
                seen = await wa.next("state")
        return before, back, seen

    before, back, seen = asyncio.run(go())
    assert back["deadline"] > before["deadline"]
    assert (seen["seq"], seen["deadline"]) == (before["seq"], back["deadline"])
    assert seen["events"] == []


def test_an_act_naming_another_seat_plays_from_ones_own(stack: Stack) -> None:
    """An ``act`` has no seat: a ``seat`` field naming someone else's is
    ignored, and the move is judged for the sender's own seat (Ada's, who is
    not to act), over one server or the other."""
    table_id, ada, bo = duel(stack)
    action = bo.get(f"/api/tables/{table_id}/")["legal_actions"][0]

    async def go() -> list[dict[str, Any]]:
        refused = []
        for server in stack.servers:
            async with Ws(server, table_id, ada.token) as wa:
                await wa.next("state")
                await wa.send({"type": "act", "seat": 1, "action": action})
                refused.append(await wa.next("error"))
        return refused

    assert [f["code"] for f in asyncio.run(go())] == ["not_your_turn"] * 2
    assert bo.get(f"/api/tables/{table_id}/")["seq"] == 2
