"""Whole matches on a running server, watched and played over real sockets.

People at every seat but one (a bot) play each game from the frames alone:
each acts from its latest ``state`` frame (``legal_actions``, ``expected_seq``
and a ``command_id``) over its WebSocket, while a spectator watches. Every
connection must receive every seq after its first frame exactly once and in
order, and every frame must be exactly what the rules let that seat see at
that seq: its view of the replayed state and the events redacted for it.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from typing import Any

import pytest

import rules
from games import event_store
from tests.games.live.conftest import Api, Stack, Ws, event_seqs, person
from tests.games.test_no_leak import CASES

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


def new_table(
    stack: Stack, game: str, players: int, options: dict[str, Any], bots: int
) -> tuple[int, dict[int, Api], Api]:
    """A started table: people at the first seats, random bots after them."""
    tag = uuid.uuid4().hex[:8]
    people = {i: person(stack.base, f"p{i}-{tag}") for i in range(players - bots)}
    owner = people[0] if people else person(stack.base, f"owner-{tag}")
    body = {"game": game, "players": players, "options": options}
    table = owner.post("/api/tables/", {**body, "watch": not people})
    for seat, api in people.items():
        if seat:
            api.post(f"/api/tables/{table['id']}/join/", {"seat": seat})
    for seat in range(players - bots, players):
        owner.post(
            f"/api/tables/{table['id']}/bots/", {"seat": seat, "level": "random"}
        )
    owner.post(f"/api/tables/{table['id']}/start/")
    return table["id"], people, owner


async def play(ws: Ws, seed: str) -> None:
    """Act from each frame that offers moves, until the match ends."""
    rng = random.Random(seed)
    n = 0
    frame = await ws.next("state")
    while frame["status"] != "finished":
        if frame["legal_actions"]:
            n += 1
            action = rng.choice(frame["legal_actions"])
            await ws.send(
                {
                    "type": "act",
                    "action": action,
                    "expected_seq": frame["seq"],
                    "command_id": f"{seed}-{n}",
                }
            )
        reply = await ws.next(timeout=30)
        while reply["type"] not in ("state", "error"):
            reply = await ws.next(timeout=30)
        if reply["type"] == "error":
            # Another seat moved first (simultaneous turns, or the move that
            # ended the match): its frame is on the way.
            assert reply["code"] in ("stale", "table_finished"), reply
            reply = await ws.next("state", timeout=30)
        frame = reply


def check_frames(
    game: rules.Game[Any], events: list[rules.Event], ws: Ws, seat: Any
) -> None:
    states = ws.states()
    first = states[0]
    assert first["full"] is True
    assert event_seqs(states) == list(range(first["seq"] + 1, len(events) + 1))
    for frame in states:
        if frame["status"] == "finished":
            continue
        state = game.replay(events[: frame["seq"]])
        assert frame["seat"] == seat
        assert frame["view"] == game.view(state, seat)
        for item in frame["events"]:
            assert {k: item[k] for k in ("type", "version", "payload")} == (
                game.redact(events[item["seq"] - 1], seat).to_json()
            )


@pytest.mark.parametrize(("game_name", "players", "options"), CASES)
def test_a_match_played_and_watched_over_sockets(
    stack: Stack, game_name: str, players: int, options: dict[str, Any]
) -> None:
    game = rules.get_game(game_name)
    table_id, people, _ = new_table(stack, game_name, players, options, bots=1)
    sockets = {
        seat: Ws(stack.base, table_id, api.token) for seat, api in people.items()
    }
    spectator = Ws(stack.base, table_id)

    async def go() -> None:
        async with spectator:
            for ws in sockets.values():
                await ws.__aenter__()
            try:
                await asyncio.gather(
                    *(play(ws, f"{game_name}-{seat}") for seat, ws in sockets.items()),
                    spectator.until(lambda f: f["status"] == "finished", timeout=180),
                )
            finally:
                for ws in sockets.values():
                    await ws.__aexit__()

    asyncio.run(go())
    events = event_store.load_events(table_id)
    check_frames(game, events, spectator, None)
    for seat, ws in sockets.items():
        check_frames(game, events, ws, seat)
    detail = Api(stack.base).get(f"/api/tables/{table_id}/")
    assert detail["status"] == "finished"
    assert detail["outcome"] == game.outcome(game.replay(events))


def test_a_table_of_bots_plays_to_the_end_on_its_own(stack: Stack) -> None:
    """Started over REST, played by the Celery worker, watched by a socket."""
    table_id, _, owner = new_table(stack, "alkort", 4, {"target": 1}, bots=4)

    spectator = Ws(stack.base, table_id)

    async def go() -> None:
        async with spectator:
            await spectator.until(lambda f: f["status"] == "finished", timeout=120)

    asyncio.run(go())
    check_frames(
        rules.get_game("alkort"), event_store.load_events(table_id), spectator, None
    )
    assert owner.get(f"/api/tables/{table_id}/")["status"] == "finished"
