"""Playing live on a running stack: refusals, resync, two servers, timers."""

from __future__ import annotations

import asyncio
import time
import uuid
from datetime import datetime
from typing import Any

import pytest
from django.utils import timezone

import rules
from games.models import SeatTimeout
from tests.games.live.conftest import Api, Stack, Ws, event_seqs, person

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

GAME = rules.get_game("alkort")


def duel(
    stack: Stack, *, servers: tuple[str, str] | None = None, **extra: Any
) -> tuple[int, Api, Api]:
    """Two-player Alkort between two new people (seat 1 acts first)."""
    a, b = servers or (stack.base, stack.base)
    return duel_on(a, b, **extra)


def duel_on(a: str, b: str, **extra: Any) -> tuple[int, Api, Api]:
    """``duel`` with Ada registered on server ``a`` and Bo on ``b``."""
    tag = uuid.uuid4().hex[:8]
    ada, bo = person(a, f"ada-{tag}"), person(b, f"bo-{tag}")
    table = ada.post(
        "/api/tables/",
        {"game": "alkort", "players": 2, "options": {"target": 3}, **extra},
    )
    bo.post(f"/api/tables/{table['id']}/join/", {"seat": 1})
    ada.post(f"/api/tables/{table['id']}/start/")
    return table["id"], ada, bo


def test_refused_acts_answer_with_the_rest_error(stack: Stack) -> None:
    table_id, ada, bo = duel(stack)
    rest_path = f"/api/tables/{table_id}/actions/"
    first = bo.get(f"/api/tables/{table_id}/")["legal_actions"][0]
    requests = [
        (ada, {"action": first}),  # not ada's turn
        (bo, {"action": first, "expected_seq": 1}),  # stale
        (bo, {"action": {"type": "play", "card": "ZZ"}}),  # illegal
    ]
    rest = [api.call("POST", rest_path, body) for api, body in requests]

    async def go() -> list[dict[str, Any]]:
        async with (
            Ws(stack.base, table_id, ada.token) as wa,
            Ws(stack.base, table_id, bo.token) as wb,
        ):
            await wa.next("state")
            await wb.next("state")
            frames = []
            for api, body in requests:
                ws = wa if api is ada else wb
                await ws.send({"type": "act", **body})
                frames.append(await ws.next("error"))
            return frames

    frames = asyncio.run(go())
    assert [status for status, _ in rest] == [400, 409, 400]
    assert [f["code"] for f in frames] == ["not_your_turn", "stale", "unknown_action"]
    assert [{"code": f["code"], "message": f["message"]} for f in frames] == [
        body for _, body in rest
    ]
    assert bo.get(f"/api/tables/{table_id}/")["seq"] == 2


async def act_first(ws: Ws) -> dict[str, Any]:
    """Play the first legal action of ``ws``'s latest frame; its answer."""
    frame = ws.states()[-1]
    await ws.send(
        {
            "type": "act",
            "action": frame["legal_actions"][0],
            "expected_seq": frame["seq"],
        }
    )
    return await ws.next("state")


def test_reconnecting_with_the_last_seq_gets_exactly_the_missing_events(
    stack: Stack,
) -> None:
    table_id, ada, bo = duel(stack)

    async def go() -> tuple[int, dict[str, Any], int]:
        async with Ws(stack.base, table_id, ada.token) as wa:
            held = (await wa.next("state"))["seq"]
        # While ada is away, bo and she (over REST) play on.
        for api in (bo, ada, bo):
            detail = api.get(f"/api/tables/{table_id}/")
            if not detail["legal_actions"]:
                continue
            api.post(
                f"/api/tables/{table_id}/actions/",
                {"action": detail["legal_actions"][0], "expected_seq": detail["seq"]},
            )
        now = ada.get(f"/api/tables/{table_id}/")["seq"]
        async with Ws(stack.base, table_id, ada.token, after=held) as wa:
            return held, await wa.next("state"), now

    held, frame, now = asyncio.run(go())
    assert now > held
    assert frame["full"] is False
    assert event_seqs([frame]) == list(range(held + 1, now + 1))


def test_two_server_processes_serve_one_table(stack: Stack) -> None:
    """Ada on one server, Bo on the other: each sees the other's moves."""
    a, b = stack.servers
    table_id, ada, bo = duel(stack, servers=(a, b))

    async def go() -> tuple[Ws, Ws]:
        wa, wb = Ws(a, table_id, ada.token), Ws(b, table_id, bo.token)
        async with wa, wb:
            fa, fb = await wa.next("state"), await wb.next("state")
            for _ in range(6):
                assert fa["seq"] == fb["seq"]
                mover, frame = (wa, fa) if fa["legal_actions"] else (wb, fb)
                seq = frame["seq"]
                await mover.send(
                    {
                        "type": "act",
                        "action": frame["legal_actions"][0],
                        "expected_seq": seq,
                    }
                )
                fa = await wa.until(lambda f, seq=seq: f["seq"] > seq)
                fb = await wb.until(lambda f, seq=seq: f["seq"] > seq)
            return wa, wb

    wa, wb = asyncio.run(go())
    assert event_seqs(wa.frames) == event_seqs(wb.frames)
    assert {e["seat"] for e in event_seqs_events(wa)} == {0, 1}


def event_seqs_events(ws: Ws) -> list[dict[str, Any]]:
    return [e for f in ws.states() for e in f["events"]]


def test_timeouts_hand_an_idle_seat_to_a_bot_until_its_person_returns(
    stack: Stack,
) -> None:
    """time_control 1 s: Bo never moves. Each expiry plays his default move
    (recorded as a timeout); the third marks him away and the basic bot plays
    for him; when he reconnects, the seat is his again."""
    table_id, ada, bo = duel(stack, time_control=1)
    bo_seat_away: list[dict[str, Any]] = []
    returned: list[datetime] = []

    async def go() -> tuple[Ws, dict[str, Any]]:
        wa = Ws(stack.base, table_id, ada.token)
        async with wa, Ws(stack.base, table_id, bo.token) as wb:
            first = await wb.next("state")
            assert first["deadline"] is not None and first["legal_actions"]
            # Ada plays whenever it is her turn; Bo does nothing.
            while True:
                frame = await wa.next(timeout=15)
                if frame["type"] == "presence" and frame["seats"][1]["away"]:
                    bo_seat_away.append(frame)
                    break
                if frame["type"] == "state" and frame["legal_actions"]:
                    await wa.send(
                        {
                            "type": "act",
                            "action": frame["legal_actions"][0],
                            "expected_seq": frame["seq"],
                        }
                    )
        # Bo is away and disconnected: the bot plays his seat at once now.
        await asyncio.sleep(0.5)
        returned.append(timezone.now())
        async with Ws(stack.base, table_id, bo.token) as wb:
            await wb.next("state")
            back = await wb.next("presence")
        return wa, back

    wa, back = asyncio.run(go())
    [away] = bo_seat_away
    assert away["seats"][1] == {
        "seat": 1,
        "connected": True,
        "away": True,
        "bot": False,
        "timeouts": 3,
    }
    assert back["seats"][1] == {
        "seat": 1,
        "connected": True,
        "away": False,
        "bot": False,
        "timeouts": 0,
    }
    # Bo's three. Ada has a second a move too: on a loaded machine she may
    # miss one, which is hers, not his, and changes nothing here. Once back,
    # Bo idles on: his clock runs again, so count only what came before.
    timeouts = list(
        SeatTimeout.objects.filter(
            table_id=table_id, seat=1, created_at__lt=returned[0]
        ).values_list("seq", flat=True)
    )
    assert len(timeouts) == 3
    moves = {e["seq"]: e for e in event_seqs_events(wa)}
    assert all(moves[seq]["seat"] == 1 for seq in timeouts)
    # Let the bots finish, and wait for them: a worker still playing this
    # table while the next test's set-up empties the tables would deadlock.
    ada.post(f"/api/tables/{table_id}/leave/")
    bo.post(f"/api/tables/{table_id}/leave/")
    deadline = time.monotonic() + 60
    while ada.get(f"/api/tables/{table_id}/")["status"] == "playing":
        assert time.monotonic() < deadline, "the bots did not finish the match"
        time.sleep(0.2)

    async def finish() -> None:
        async with Ws(stack.base, table_id) as spectator:
            await spectator.until(lambda f: f["status"] == "finished", timeout=60)

    asyncio.run(finish())
