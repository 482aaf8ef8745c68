"""No socket frame shows a card its audience has not seen, on a running stack.

People play whole matches over real WebSockets (two daphne processes and a
Celery worker, PostgreSQL and Redis), each from its own frames, while a
spectator watches. Before each move a seat also tries a move naming a card it
cannot see, and pings now and then. Afterwards every frame each socket got
(``state``, ``error``, ``presence``) is checked against the oracle of
``tests/rules/leak_oracle.py`` (what each audience has seen, worked out from
the stored events), and so is every line the servers and the worker logged
meanwhile. Allegra's hidden cards are poisoned on a copy of a match in play,
and every audience's socket reads the copy.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from typing import Any

import pytest

import rules
from games import event_store
from games.models import Table
from tests.games.leak_payloads import table_with_history
from tests.games.live.conftest import Api, Stack, Ws, person
from tests.rules.leak_oracle import (
    allegra_poisoned,
    cards_in_json,
    cards_in_text,
    knowledge,
    last_deal_end,
    poison_in_json,
    poison_in_text,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

CASES = [
    (
        "alager",
        3,
        {
            "end_mode": "fixed_deals",
            "num_deals": 2,
            "max_turns_per_deal": 12,
            "a1_discard_to": "stock_bottom",
        },
    ),
    ("alkort", 4, {"target": 2}),
]


def seated_table(
    stack: Stack, game: str, players: int, options: dict[str, Any]
) -> tuple[int, dict[int, Api]]:
    tag = uuid.uuid4().hex[:8]
    people = {i: person(stack.servers[i % 2], f"leak{i}-{tag}") for i in range(players)}
    table = people[0].post(
        "/api/tables/", {"game": game, "players": players, "options": options}
    )
    for seat, api in people.items():
        if seat:
            api.post(f"/api/tables/{table['id']}/join/", {"seat": seat})
    people[0].post(f"/api/tables/{table['id']}/start/")
    return table["id"], people


def probe(game: str, card: str) -> dict[str, Any]:
    if game == "alkort":
        return {"type": "play", "card": card}
    return {"type": "draw", "discard": card}


async def play(ws: Ws, game: str, deck: list[str], seed: str) -> None:
    """Act from each frame that offers moves, a probe first; until the end."""
    rng = random.Random(seed)
    n = 0
    frame = await ws.next("state")
    while frame["status"] != "finished":
        if frame["legal_actions"]:
            n += 1
            unseen = sorted(set(deck) - cards_in_json(frame["view"]))
            card = rng.choice(unseen)
            await ws.send(
                {
                    "type": "act",
                    "action": probe(game, card),
                    "expected_seq": frame["seq"],
                    "command_id": f"probe-{card}-{n}",
                }
            )
            await ws.send(
                {
                    "type": "act",
                    "action": rng.choice(frame["legal_actions"]),
                    "expected_seq": frame["seq"],
                    "command_id": f"{seed}-{n}",
                }
            )
            if rng.random() < 0.2:
                await ws.send({"type": "ping"})
        reply = await ws.next(timeout=30)
        while reply["type"] != "state":
            if reply["type"] == "error" and not reply.get("command_id", "").startswith(
                "probe"
            ):
                # Another seat moved first: its frame is on the way.
                assert reply["code"] in ("stale", "table_finished"), reply
            reply = await ws.next(timeout=30)
        frame = reply


def check_frames(game: str, events: list[rules.Event], ws: Ws, seat: int | None) -> int:
    """Every frame of ``ws`` against the oracle; how many cards it could have shown."""
    know = knowledge(game, events)
    seed = events[-1].payload["seed"]
    hidden = 0
    for frame in ws.frames:
        text = str(frame)
        if frame["type"] == "error":
            assert frame["code"] != "server_error", frame
            message = frame["message"]
            command = frame.get("command_id", "")
            if command.startswith("probe-"):
                message = message.replace(command.split("-")[1], "<card>")
            leaked = set(cards_in_text(message)) & know.deck
            assert not leaked, f"error frame names {leaked}: {frame}"
            continue
        assert seed not in text or frame.get("status") == "finished", frame
        if frame["type"] != "state":
            assert not cards_in_json(frame), frame
            continue
        seq = frame["seq"]
        view = dict(frame["view"] or {})
        last = view.pop("last_deal", None)
        if last is not None:
            leaked = know.unseen(seat, last_deal_end(events, seq), cards_in_json(last))
            assert not leaked, f"{seat}'s last_deal at {seq} shows {leaked}"
        shown = cards_in_json(view) | cards_in_json(frame["legal_actions"])
        leaked = know.unseen(seat, seq, shown)
        assert not leaked, f"seat {seat}'s frame at seq {seq} shows {leaked}: {frame}"
        for item in frame["events"]:
            leaked = know.unseen(seat, item["seq"], cards_in_json(item))
            assert not leaked, f"seat {seat}'s event {item} shows {leaked}"
        hidden += len(know.unseen(seat, seq, set(know.deck)))
    return hidden


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_frames_and_logs_name_no_card_their_audience_has_not_seen(
    stack: Stack, game: str, players: int, options: dict[str, Any]
) -> None:
    deck = sorted(knowledge(game, rules.get_game(game).start(
        players=players, options=options, seed="deck"
    )).deck)  # fmt: skip
    logged = len(stack.logs())
    table_id, people = seated_table(stack, game, players, options)
    sockets = {
        seat: Ws(stack.servers[seat % 2], table_id, api.token)
        for seat, api in people.items()
    }
    spectator = Ws(stack.servers[1], table_id)

    async def go() -> None:
        async with spectator:
            for ws in sockets.values():
                await ws.__aenter__()
            try:
                await asyncio.gather(
                    *(
                        play(ws, game, deck, f"{game}-{seat}")
                        for seat, ws in sockets.items()
                    ),
                    spectator.until(lambda f: f["status"] == "finished", timeout=240),
                )
            finally:
                for ws in sockets.values():
                    await ws.__aexit__()

    asyncio.run(go())
    events = event_store.load_events(table_id)
    hidden = check_frames(game, events, spectator, None)
    for seat, ws in sockets.items():
        hidden += check_frames(game, events, ws, seat)
    assert hidden > 0, "nothing was ever hidden: the test proves nothing"
    assert any(f["type"] == "error" for ws in sockets.values() for f in ws.frames)
    lines = stack.logs()[logged:]
    leaked = cards_in_text(lines) & set(deck)
    assert not leaked, f"the servers logged cards {leaked}:\n{lines[-3000:]}"
    assert events[-1].payload["seed"] not in lines


def test_no_frame_carries_a_hidden_allegra_card(stack: Stack) -> None:
    """Every audience's socket on a poisoned copy of an Allegra match in play."""
    table_id, people = seated_table(stack, "allegra", 4, {"rounds": 1})
    game = rules.get_game("allegra")
    rng = random.Random("allegra-live")
    for _ in range(40):  # play into the match over REST
        detail = {s: api.get(f"/api/tables/{table_id}/") for s, api in people.items()}
        movers = [s for s, d in detail.items() if d["legal_actions"]]
        if not movers or detail[0]["status"] != "playing":
            break
        seat = rng.choice(movers)
        legal = detail[seat]["legal_actions"]
        kind = rng.choice(sorted({a["type"] for a in legal}))
        action = rng.choice([a for a in legal if a["type"] == kind])
        people[seat].post(f"/api/tables/{table_id}/actions/", {"action": action})
    table = Table.objects.get(pk=table_id)
    assert table.status == "playing"
    poisoned = allegra_poisoned(event_store.load_events(table))
    assert poisoned.values
    copy = table_with_history(table, poisoned.events)
    assert game.to_act(game.load_state(copy.state))
    logged = len(stack.logs())
    audiences: dict[int | None, Ws] = {
        seat: Ws(stack.servers[seat % 2], copy.pk, api.token)
        for seat, api in people.items()
    }
    audiences[None] = Ws(stack.base, copy.pk)

    async def read(seat: int | None, ws: Ws) -> None:
        async with ws:
            first = await ws.next("state")
            await ws.send({"type": "sync", "after": 0})
            await ws.next("state")
            await ws.send({"type": "ping"})
            await ws.next("pong")
            for action in first["legal_actions"][:3]:  # stale: refused
                await ws.send(
                    {"type": "act", "action": action, "expected_seq": first["seq"] - 1}
                )
                await ws.next("error")
            await ws.send({"type": "act", "action": {"type": "take", "cell": {}}})
            await ws.next("error")

    async def go() -> None:
        await asyncio.gather(*(read(s, ws) for s, ws in audiences.items()))

    asyncio.run(go())
    assert Table.objects.get(pk=copy.pk).seq == copy.seq  # nothing was played
    for seat, ws in audiences.items():
        allowed = poisoned.allowed(seat)
        assert any(f["type"] == "state" and f["events"] for f in ws.frames)
        for frame in ws.frames:
            found = poison_in_json(frame) | poison_in_text(str(frame.get("message")))
            assert not found - allowed, f"{seat} got hidden cards: {frame}"
            assert table.seed not in str(frame)
    lines = stack.logs()[logged:]
    assert not poison_in_text(lines), lines[-3000:]
    assert table.seed not in lines
