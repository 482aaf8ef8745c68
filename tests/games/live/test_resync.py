"""Resync on the real channel layer: what a far-behind client costs.

The consumer runs in this process (``WebsocketCommunicator`` on the
assembled ASGI app, the Redis channel layer, PostgreSQL), so the test can
count what its reads do.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

import rules
from config.asgi import application
from games import event_store, frames
from games.models import Table
from games.services import action_submit
from tests.accounts.factories import UserFactory, token_for
from tests.games.tables import seat_users, table_started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

GAME = rules.get_game("alkort")
WAIT = 15.0


def test_a_resync_too_far_behind_reads_no_events(
    settings: Any, monkeypatch: Any
) -> None:
    """A client further behind than ``LIVE_RESYNC_MAX_EVENTS`` gets a full
    state with no events, so none are read: a ``sync`` from 0 on a long
    match (or a reconnect with ``?after=0``) used to read and decode the
    whole log only to drop it, on the thread every socket's database work
    of the process waits for."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    users = seat_users(table)
    for _ in range(6):
        table.refresh_from_db()
        seat = GAME.to_act(GAME.load_state(table.state))[0]
        action = GAME.legal_actions(GAME.load_state(table.state), seat)[0]
        action_submit(table_id=table.pk, user=users[seat], action=action)
    seq = Table.objects.get(pk=table.pk).seq
    settings.LIVE_RESYNC_MAX_EVENTS = 3
    decoded: list[str] = []
    upcast = event_store.upcast

    def counted(type_: str, version: int, payload: Any) -> Any:
        decoded.append(type_)
        return upcast(type_, version, payload)

    monkeypatch.setattr(frames.event_store, "upcast", counted)

    path = f"/ws/tables/{table.pk}/?token={token_for(users[0])}&after=0"

    async def go() -> list[Any]:
        comm = WebsocketCommunicator(application, path)
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected
        got = []
        try:
            got.append(await comm.receive_json_from(timeout=WAIT))  # ?after=0
            for after in (1, seq - 3):
                await comm.send_json_to({"type": "sync", "after": after})
                frame = await comm.receive_json_from(timeout=WAIT)
                while frame["type"] != "state":
                    frame = await comm.receive_json_from(timeout=WAIT)
                got.append(frame)
        finally:
            await comm.disconnect(timeout=WAIT)
        return got

    far, farther, near = asyncio.run(go())
    assert [(f["full"], len(f["events"])) for f in (far, farther, near)] == [
        (True, 0),
        (True, 0),
        (False, 3),
    ]
    assert len(decoded) == 3  # only the events the near frame carries
