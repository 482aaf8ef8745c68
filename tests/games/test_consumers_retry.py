"""A retried ``act`` (the same ``command_id`` and action) on the table socket.

docs/architecture.md §4: a retried command returns the original result
instead of being applied twice. On the socket the result of an ``act`` is a
``state`` frame; a retry is answered with one too, at the table's seq, without
repeating events the connection already has (every seq reaches a connection
exactly once).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import GameEvent
from tests.games.test_consumers import Socket, legal, run, two_people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def _events(table_id: int) -> int:
    return GameEvent.objects.filter(table_id=table_id).count()


def test_a_resent_act_is_answered_with_a_state_frame_and_played_once() -> None:
    table, people = two_people()
    action = legal(table.pk, 1)[0]
    act = {"type": "act", "action": action, "command_id": "c1"}
    frames: dict[str, Any] = {}

    async def go() -> None:
        async with Socket(table.pk, people[1]) as bo:
            await bo.next("state")
            await bo.send({**act, "expected_seq": 2})
            frames["first"] = await bo.next("state")
            await bo.send({**act, "expected_seq": 2})  # as sent the first time
            frames["retry"] = await bo.next(timeout=5)
            assert await bo.quiet()

    run(go)
    first, retry = frames["first"], frames["retry"]
    assert [e["seq"] for e in first["events"]] == [3]
    assert retry["type"] == "state"
    assert retry["seq"] == first["seq"] == 3
    assert retry["events"] == []  # seq 3 reached this connection once
    assert retry["full"] is False
    assert retry["view"] == first["view"]
    assert retry["legal_actions"] == first["legal_actions"]
    assert _events(table.pk) == 3


def test_an_act_resent_after_a_reconnect_is_answered_not_replayed() -> None:
    """The socket dropped before the move's frame came: the client reconnects
    with its last seq (the catch-up brings the move) and resends the act."""
    table, people = two_people()
    action = legal(table.pk, 1)[0]
    act = {"type": "act", "action": action, "command_id": "c2", "expected_seq": 2}
    frames: dict[str, Any] = {}

    async def go() -> None:
        async with Socket(table.pk, people[1]) as bo:
            await bo.next("state")
            await bo.send(act)
            await bo.next("state")
        async with Socket(table.pk, people[1], query="after=2") as bo:
            frames["catch_up"] = await bo.next("state")
            await bo.send(act)
            frames["retry"] = await bo.next("state", timeout=5)
            assert await bo.quiet()

    run(go)
    assert [e["seq"] for e in frames["catch_up"]["events"]] == [3]
    assert frames["retry"]["seq"] == 3
    assert frames["retry"]["events"] == []
    assert _events(table.pk) == 3
