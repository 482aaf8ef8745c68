"""``games.consumers.TableConsumer`` through ``WebsocketCommunicator``.

The consumer runs in the assembled ASGI app (origin check, session and token
auth, routing) on the real Redis channel layer and PostgreSQL; its database
work runs in other threads, so these tests commit (``transactional_db``).
Bot turns run inline (the test settings' ``TASK_RUNNER``).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from hypothesis import example, given, settings
from hypothesis import strategies as st

import rules
from config.asgi import application
from games import apis, event_store, realtime
from games.apis import ActionSubmitApi
from games.consumers import TableConsumer
from games.models import GameEvent, Seat, SeatConnection, Table
from games.services import action_submit, table_leave
from tests.accounts.factories import BotFactory, UserFactory, token_for
from tests.games.tables import seat_users, table_started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

GAME = rules.get_game("alkort")
WAIT = 15.0


class Socket:
    """A communicator on ``ws/tables/<id>/`` that collects frames by type."""

    def __init__(
        self,
        table_id: int,
        token: str | None = None,
        query: str = "",
        headers: list[tuple[bytes, bytes]] | None = None,
    ) -> None:
        params = [f"token={token}"] if token else []
        if query:
            params.append(query)
        path = f"/ws/tables/{table_id}/" + ("?" + "&".join(params) if params else "")
        self.comm = WebsocketCommunicator(application, path, headers=headers or [])

    async def __aenter__(self) -> Socket:
        connected, _ = await self.comm.connect(timeout=WAIT)
        assert connected
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.comm.disconnect(timeout=WAIT)

    async def send(self, message: dict[str, Any]) -> None:
        await self.comm.send_json_to(message)

    async def next(self, kind: str | None = None, timeout: float = WAIT) -> Any:
        """The next frame (of type ``kind``, skipping others)."""
        while True:
            frame = await self.comm.receive_json_from(timeout=timeout)
            if kind is None or frame["type"] == kind:
                return frame

    async def states_within(self, seconds: float) -> list[Any]:
        """The state frames that arrive within ``seconds`` (others skipped)."""
        states = []
        while not await self.comm.receive_nothing(timeout=seconds):
            frame = await self.comm.receive_json_from()
            if frame["type"] == "state":
                states.append(frame)
        return states

    async def quiet(self, timeout: float = 0.3) -> bool:
        return await self.comm.receive_nothing(timeout=timeout)


def run(coro: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(coro())


def two_people() -> tuple[Table, dict[int, Any]]:
    """Two-player Alkort (seat 1 acts first) and its people's tokens."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    assert GAME.to_act(GAME.load_state(table.state)) == (1,)
    return table, {seat: token_for(user) for seat, user in seat_users(table).items()}


def legal(table_id: int, seat: int) -> list[dict[str, Any]]:
    table = Table.objects.get(pk=table_id)
    return GAME.legal_actions(GAME.load_state(table.state), seat)


def test_an_unknown_table_closes_with_4404() -> None:
    async def go() -> None:
        comm = WebsocketCommunicator(application, "/ws/tables/987654/")
        connected, _ = await comm.connect()
        assert connected
        assert await comm.receive_output(WAIT) == {
            "type": "websocket.close",
            "code": 4404,
        }

    run(go)


def refusal(
    table_id: int, query: str, headers: list[tuple[bytes, bytes]] | None = None
) -> list[Any]:
    """What a handshake with ``query`` (and ``headers``) receives: a frame,
    then the close."""
    received: list[Any] = []

    async def go() -> None:
        comm = WebsocketCommunicator(
            application, f"/ws/tables/{table_id}/?{query}", headers=headers or []
        )
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected  # accepted, so that the close code reaches the client
        sent = await comm.receive_output(WAIT)
        assert sent["type"] == "websocket.send"
        received.append(json.loads(sent["text"]))
        received.append(await comm.receive_output(WAIT))
        assert await comm.receive_nothing()

    run(go)
    return received


def refused_with(code: str, message: str) -> list[Any]:
    return [
        {"type": "error", "code": code, "message": message},
        {"type": "websocket.close", "code": 4401, "reason": message},
    ]


@pytest.mark.parametrize(
    ("query", "code", "message"),
    [
        ("token=nope", "authentication_failed", "Invalid token."),
        ("token=%00", "authentication_failed", "Invalid token."),
        (
            "token=",
            "authentication_failed",
            "The token parameter is empty. Send ?token=<key>, or no token to watch.",
        ),
        (
            "token",
            "authentication_failed",
            "The token parameter is empty. Send ?token=<key>, or no token to watch.",
        ),
        (
            "after=1&token=&x=1",
            "authentication_failed",
            "The token parameter is empty. Send ?token=<key>, or no token to watch.",
        ),
        (
            "token=nope&token=",
            "authentication_failed",
            "Send one token parameter, not several.",
        ),
    ],
)
def test_a_token_that_names_nobody_closes_with_4401_and_why(
    query: str, code: str, message: str
) -> None:
    """A client that sent a token meant to play: it is told, never let in to
    watch as a spectator instead."""
    table, _ = two_people()

    assert refusal(table.pk, query) == refused_with(code, message)
    assert not SeatConnection.objects.filter(table=table).exists()


HEADER_BAD = (
    "Invalid token header. Send Authorization: Token <key>, or no token to watch."
)


@pytest.mark.parametrize(
    ("header", "query", "message"),
    [
        (b"Token nope", "", "Invalid token."),
        (b"Token", "", HEADER_BAD),
        (b"Token a b", "", HEADER_BAD),
        (
            b"Token nope",
            "token=other",
            "A token in the header and another in ?token=: send one.",
        ),
    ],
)
def test_a_token_header_that_names_nobody_closes_with_4401_and_why(
    header: bytes, query: str, message: str
) -> None:
    table, _ = two_people()

    refused = refusal(table.pk, query, headers=[(b"authorization", header)])

    assert refused == refused_with("authentication_failed", message)


def test_a_token_in_the_handshakes_header_plays_from_its_seat() -> None:
    """A client library that sets headers (as it does for HTTP) sends the
    token as ``Authorization: Token <key>``: it plays, it does not watch."""
    table, people = two_people()
    header = [(b"authorization", f"Token {people[1]}".encode())]

    frames: list[Any] = []

    async def go() -> None:
        async with (
            Socket(table.pk, headers=header) as bo,
            Socket(table.pk, headers=[(b"authorization", b"Bearer x")]) as other,
        ):
            frames.extend([await bo.next("state"), await other.next("state")])

    run(go)
    mine, watching = frames

    assert mine["seat"] == 1 and mine["legal_actions"]
    assert watching["seat"] is None  # another scheme is not a token of ours


def test_a_bots_or_an_inactive_persons_token_closes_with_4401_and_why() -> None:
    table, _ = two_people()
    bot = token_for(BotFactory())
    gone = UserFactory(is_active=False)

    assert refusal(table.pk, f"token={bot}") == refused_with(
        "bot_account", "Bot accounts are played by the server and cannot use the API."
    )
    assert refusal(table.pk, f"token={token_for(gone)}") == refused_with(
        "authentication_failed", "User inactive or deleted."
    )


def test_a_spectator_gets_the_spectator_view_and_presence() -> None:
    table, people = two_people()
    state = GAME.load_state(table.state)

    async def go() -> None:
        async with Socket(table.pk) as spectator:
            first = await spectator.next()
            presence = await spectator.next()
        assert first == {
            "type": "state",
            "seq": 2,
            "status": "playing",
            "seat": None,
            "full": True,
            "view": GAME.view(state, None),
            "legal_actions": [],
            "deadline": None,
            "events": [],
        }
        assert presence == {
            "type": "presence",
            "seats": [
                {
                    "seat": i,
                    "connected": False,
                    "away": False,
                    "bot": False,
                    "timeouts": 0,
                }
                for i in (0, 1)
            ],
        }

    run(go)


def test_a_seat_acts_over_the_socket_and_every_socket_hears_of_it() -> None:
    table, people = two_people()
    action = legal(table.pk, 1)[0]
    decided = GAME.decide(GAME.load_state(table.state), 1, action)

    async def go() -> None:
        async with (
            Socket(table.pk, people[1]) as bo,
            Socket(table.pk, people[0]) as ada,
            Socket(table.pk) as spectator,
        ):
            for sock in (bo, ada, spectator):
                await sock.next("state")
            await bo.send({"type": "act", "action": action, "expected_seq": 2})
            frames = [await sock.next("state") for sock in (bo, ada, spectator)]
            # One frame per move each: the echo of Bo's own move adds nothing.
            for sock in (bo, ada, spectator):
                assert await sock.states_within(0.5) == []
        state = GAME.replay(
            await database_sync_to_async(event_store.load_events)(table.pk)
        )
        for seat, frame in zip((1, 0, None), frames, strict=True):
            assert frame["seq"] == 2 + len(decided)
            assert frame["full"] is False
            assert frame["view"] == GAME.view(state, seat)
            assert [e["seq"] for e in frame["events"]] == list(
                range(3, 3 + len(decided))
            )
            assert [
                {k: e[k] for k in ("type", "version", "payload")}
                for e in frame["events"]
            ] == [GAME.redact(e, seat).to_json() for e in decided]
        assert frames[1]["legal_actions"] == GAME.legal_actions(state, 0)

    run(go)


def test_refused_acts_get_the_rest_codes_and_messages() -> None:
    table, people = two_people()
    action = legal(table.pk, 1)[0]

    async def go() -> None:
        async with (
            Socket(table.pk, people[0]) as ada,
            Socket(table.pk) as spectator,
        ):
            await ada.next("state")
            await spectator.next("state")
            await ada.send({"type": "act", "action": action, "command_id": "c1"})
            wrong_turn = await ada.next("error")
            await ada.send({"type": "act", "action": action, "expected_seq": 1})
            stale = await ada.next("error")
            await ada.send({"type": "act", "action": {"type": "fly"}})
            illegal = await ada.send({"type": "act"}) or await ada.next("error")
            missing = await ada.next("error")
            await spectator.send({"type": "act", "action": action})
            anonymous = await spectator.next("error")
            await ada.send({"type": "dance"})
            unknown = await ada.next("error")
            assert await ada.quiet()  # no state frame: nothing changed
        assert wrong_turn == {
            "type": "error",
            "code": "not_your_turn",
            "message": "It is not your turn: seat 1 is to act",
            "command_id": "c1",
        }
        assert stale == {
            "type": "error",
            "code": "stale",
            "message": f"Your view is stale: table {table.pk} is at seq 2, not 1. "
            "Fetch the table and try again.",
        }
        assert illegal["code"] in {"unknown_action", "not_your_turn"}
        assert missing == {
            "type": "error",
            "code": "invalid",
            "message": "action: This field is required.",
        }
        assert anonymous == {
            "type": "error",
            "code": "not_authenticated",
            "message": "Authentication credentials were not provided.",
        }
        assert unknown == {
            "type": "error",
            "code": "unknown_message",
            "message": "Unknown message type 'dance'; send act, sync or ping.",
        }

    run(go)
    assert Table.objects.get(pk=table.pk).seq == 2


def test_hostile_frames_get_an_error_and_the_socket_lives_on() -> None:
    """A frame nested past the REST limit, a surrogate command id, an ``after``
    of a non-ASCII digit: each an error frame (or ignored), never a crash that
    closes the socket and leaves its registration behind."""
    table, people = two_people()
    action = legal(table.pk, 1)[0]

    async def go() -> None:
        async with Socket(table.pk, people[1], query="after=%C2%B2") as bo:
            first = await bo.next("state")
            await bo.comm.send_to(text_data="[" * 1200 + "]" * 1200)
            deep = await bo.next("error")
            await bo.comm.send_to(
                text_data='{"type": "act", "action": {"type": "pass"}, '
                '"command_id": "\\ud800"}'
            )
            surrogate = await bo.next("error")
            await bo.send({"type": "x" * 10_000})
            huge = await bo.next("error")
            await bo.comm.send_to(bytes_data=b'{"type": "ping"}')
            binary = await bo.next("error")
            await bo.send({"type": "act", "action": action, "command_id": "c1"})
            moved = await bo.next("state")
        assert first["full"] is True  # "²" is no seq: a full state
        assert deep == {
            "type": "error",
            "code": "too_deeply_nested",
            "message": "A message is nested deeper than 32 levels.",
        }
        assert surrogate == {
            "type": "error",
            "code": "invalid",
            "message": "command_id: Surrogate characters are not allowed: U+D800.",
            "command_id": "\ud800",  # echoed, escaped, as every id is
        }
        assert huge == {
            "type": "error",
            "code": "unknown_message",
            "message": f"Unknown message type '{'x' * 36}...; send act, sync or ping.",
        }
        assert binary == {
            "type": "error",
            "code": "parse_error",
            "message": "Messages are JSON in text frames; a binary frame is not read.",
        }
        assert moved["seq"] == 3

    run(go)
    assert not SeatConnection.objects.filter(table_id=table.pk).exists()


@pytest.mark.parametrize("text", ["[1, 2]", '"ping"', "3", "null", "true"])
def test_a_json_value_that_is_not_an_object_is_a_parse_error(text: str) -> None:
    """A message is a JSON object with a ``type``: a list, a string, a number
    or ``null`` gets the error that says so, not "Unknown message type
    None", and the socket plays on."""
    table, people = two_people()

    async def go() -> None:
        async with Socket(table.pk, people[1]) as bo:
            await bo.next("state")
            await bo.comm.send_to(text_data=text)
            refused = await bo.next("error")
            await bo.send({"type": "ping"})
            await bo.next("pong")
        assert refused == {
            "type": "error",
            "code": "parse_error",
            "message": "A message must be a JSON object.",
        }

    run(go)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_message_with_a_number_json_has_not_is_not_read(constant: str) -> None:
    """``NaN`` and ``Infinity`` are not JSON: REST refuses such a body as
    ``parse_error`` and plays nothing, so the socket does the same, even where
    the rest of the ``act`` would be a legal move."""
    table, people = two_people()
    action = json.dumps(legal(table.pk, 1)[0])

    async def go() -> None:
        async with Socket(table.pk, people[1]) as bo:
            await bo.next("state")
            await bo.comm.send_to(
                text_data=f'{{"type": "act", "action": {action}, "x": {constant}}}'
            )
            refused = await bo.next("error")
            assert await bo.quiet()  # no state frame: nothing was played
        assert refused == {
            "type": "error",
            "code": "parse_error",
            "message": "A message must be a JSON object.",
        }

    run(go)
    assert Table.objects.get(pk=table.pk).seq == 2


def test_a_bug_in_handling_a_frame_is_reported_and_the_socket_lives_on(
    monkeypatch: Any, caplog: Any
) -> None:
    table, people = two_people()
    action = legal(table.pk, 1)[0]
    handle = TableConsumer.receive_json

    async def buggy(self: TableConsumer, content: Any, **kwargs: Any) -> None:
        if content.get("type") == "boom":
            raise KeyError("".join(("Q", "H")))  # a bug naming a card
        await handle(self, content, **kwargs)

    monkeypatch.setattr(TableConsumer, "receive_json", buggy)

    async def go() -> None:
        async with Socket(table.pk, people[1]) as bo:
            await bo.next("state")
            await bo.send({"type": "boom"})
            error = await bo.next("error")
            await bo.send({"type": "act", "action": action})
            moved = await bo.next("state")
        assert error == {
            "type": "error",
            "code": "server_error",
            "message": "Internal server error.",
        }
        assert moved["seq"] == 3

    run(go)
    assert "a message on table" in caplog.text
    assert "KeyError" in caplog.text
    assert "QH" not in caplog.text  # the message may name a hidden card


def test_sync_sends_exactly_the_missing_events_or_one_full_state(
    settings: Any,
) -> None:
    table, people = two_people()
    users = seat_users(table)
    for _ in range(4):
        table.refresh_from_db()
        seat = GAME.to_act(GAME.load_state(table.state))[0]
        action_submit(
            table_id=table.pk, user=users[seat], action=legal(table.pk, seat)[0]
        )
    table.refresh_from_db()
    settings.LIVE_RESYNC_MAX_EVENTS = table.seq - 3

    async def go() -> None:
        async with Socket(table.pk, people[0], query="after=3") as ada:
            near = await ada.next("state")
            await ada.send({"type": "sync", "after": 2})
            far = await ada.next("state")
            await ada.send({"type": "sync", "after": table.seq})
            level = await ada.next("state")
            await ada.send({"type": "ping"})
            assert await ada.next() == {"type": "pong"}
        assert [e["seq"] for e in near["events"]] == list(range(4, table.seq + 1))
        assert (near["full"], far["full"], far["events"]) == (False, True, [])
        assert (level["seq"], level["full"], level["events"]) == (table.seq, False, [])

    run(go)


def test_a_bot_match_reaches_a_watcher_once_and_in_order() -> None:
    """Bots play inline on the commit of the person's first move; the watcher
    gets every seq exactly once, in order, as notifications pile up."""
    table = table_started(
        seating=[UserFactory(), "random", "random", "random"],
        options={"target": 1},
    )
    person = seat_users(table)[0]

    async def go() -> list[dict[str, Any]]:
        async with Socket(table.pk) as watcher:
            start.append((await watcher.next("state"))["seq"])
            rng = random.Random(4)
            frames: list[dict[str, Any]] = []
            while True:
                fresh = await database_sync_to_async(Table.objects.get)(pk=table.pk)
                if fresh.status == "finished":
                    break
                state = GAME.load_state(fresh.state)
                if 0 in GAME.to_act(state):
                    await database_sync_to_async(action_submit)(
                        table_id=table.pk,
                        user=person,
                        action=rng.choice(GAME.legal_actions(state, 0)),
                    )
                frames.append(await watcher.next("state"))
            while not await watcher.quiet():
                frames.append(await watcher.next("state"))
            return frames

    frames: list[dict[str, Any]] = []
    start: list[int] = []

    async def collect() -> None:
        frames.extend(await go())

    run(collect)
    seqs = [e["seq"] for f in frames for e in f["events"]]
    total = GameEvent.objects.filter(table=table).count()
    assert seqs == list(range(start[0] + 1, total + 1))
    assert len(seqs) > 20
    assert frames[-1]["status"] == "finished"


def test_a_seat_given_to_a_bot_watches_as_a_spectator_from_then_on() -> None:
    table, people = two_people()
    ada_user, bo_user = seat_users(table)[0], seat_users(table)[1]

    registered = database_sync_to_async(
        lambda: list(
            SeatConnection.objects.filter(table=table).values_list("seat", flat=True)
        )
    )

    async def go() -> None:
        async with Socket(table.pk, people[0]) as ada:
            assert (await ada.next("state"))["seat"] == 0
            assert await registered() == [0]
            await database_sync_to_async(table_leave)(table_id=table.pk, user=ada_user)
            frame = await ada.next("state")
            state = GAME.load_state(
                (await database_sync_to_async(Table.objects.get)(pk=table.pk)).state
            )
            # Registered as a spectator once the frame is out, so the next
            # move reaches her.
            for _ in range(100):
                if await registered() == [None]:
                    break
                await asyncio.sleep(0.05)
            assert await registered() == [None]
            await database_sync_to_async(action_submit)(
                table_id=table.pk,
                user=bo_user,
                action=(await database_sync_to_async(legal)(table.pk, 1))[0],
            )
            pushed = await ada.next("state")
        assert frame["seat"] is None
        assert pushed["seat"] is None
        assert pushed["events"]
        assert pushed["events"][0]["seq"] == frame["seq"] + 1
        assert frame["view"] == GAME.view(state, None)

    run(go)
    assert Seat.objects.get(table=table, index=0).bot_level == "basic"
    assert not SeatConnection.objects.filter(table=table).exists()


def test_a_frame_pushed_for_another_holder_of_the_seat_is_not_forwarded() -> None:
    """A seat's group is for whoever holds the seat: a frame whose holder is not
    this connection's person is never sent on; the connection reads instead."""
    table, people = two_people()
    stranger = UserFactory()

    async def go() -> None:
        async with Socket(table.pk, people[0]) as ada:
            first = await ada.next("state")
            layer = get_channel_layer()
            await layer.group_send(
                realtime.audience_group(table.pk, 0),
                {
                    "type": realtime.TABLE_FRAME,
                    "after": first["seq"],
                    "user": stranger.pk,
                    "frame": {**first, "seq": first["seq"] + 1, "view": "secret"},
                },
            )
            # It reads instead: nothing new there, so no state frame at all.
            assert await ada.states_within(0.5) == []

    run(go)


def test_a_missed_push_is_read_from_the_store_on_the_next_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A push lost on the way (here: never sent) leaves a gap that the next
    push reveals; the connection then reads both moves in one frame."""
    table, people = two_people()
    users = seat_users(table)
    push = realtime.frames_push
    sent: list[int] = []

    def lose_the_first(
        table_id: int, audiences: Any, build: Any, listening: Any = None
    ) -> None:
        sent.append(table_id)
        if len(sent) > 1:
            push(table_id, audiences, build, listening=listening)

    monkeypatch.setattr(realtime, "frames_push", lose_the_first)

    async def go() -> None:
        async with Socket(table.pk, people[0]) as ada:
            first = await ada.next("state")
            for _ in range(2):
                state = GAME.load_state(
                    (await database_sync_to_async(Table.objects.get)(pk=table.pk)).state
                )
                seat = GAME.to_act(state)[0]
                await database_sync_to_async(action_submit)(
                    table_id=table.pk,
                    user=users[seat],
                    action=GAME.legal_actions(state, seat)[0],
                )
            frame = await ada.next("state")
            end = await database_sync_to_async(Table.objects.get)(pk=table.pk)
            assert [e["seq"] for e in frame["events"]] == list(
                range(first["seq"] + 1, end.seq + 1)
            )
            assert await ada.states_within(0.5) == []

    run(go)


def test_only_the_seats_own_group_carries_its_cards() -> None:
    """What goes through each group during a match: the table's shared group
    gets no view and no event; a seat's group only frames of that seat for
    its holder; the spectators' group only spectator frames."""
    table, _ = two_people()  # the groups are listened to directly, no tokens
    users = seat_users(table)
    layer = get_channel_layer()
    groups = {
        "table": realtime.table_group(table.pk),
        0: realtime.audience_group(table.pk, 0),
        1: realtime.audience_group(table.pk, 1),
        None: realtime.audience_group(table.pk, None),
    }

    async def go() -> dict[Any, list[dict[str, Any]]]:
        channels = {}
        for key, group in groups.items():
            channels[key] = await layer.new_channel()
            await layer.group_add(group, channels[key])
            if key != "table":  # registered, as a socket registers its audience
                await database_sync_to_async(SeatConnection.objects.create)(
                    table=table,
                    seat=key,
                    channel_name=channels[key],
                    seen_at=timezone.now(),
                )
        rng = random.Random(3)
        for _ in range(6):
            fresh = await database_sync_to_async(Table.objects.get)(pk=table.pk)
            state = GAME.load_state(fresh.state)
            seat = GAME.to_act(state)[0]
            await database_sync_to_async(action_submit)(
                table_id=table.pk,
                user=users[seat],
                action=rng.choice(GAME.legal_actions(state, seat)),
            )
        await database_sync_to_async(realtime.flush)()
        got: dict[Any, list[dict[str, Any]]] = {key: [] for key in groups}
        for key, channel in channels.items():
            while True:
                try:
                    got[key].append(await asyncio.wait_for(layer.receive(channel), 0.3))
                except TimeoutError:
                    break
            await layer.group_discard(groups[key], channel)
        return got

    got: dict[Any, list[dict[str, Any]]] = {}

    async def collect() -> None:
        got.update(await go())

    run(collect)
    for message in got["table"]:
        assert set(message) <= {"type", "seq", "seats"}
    for key in (0, 1, None):
        assert len(got[key]) == 6
        for message in got[key]:
            assert message["type"] == realtime.TABLE_FRAME
            assert message["frame"]["seat"] == key
            assert message["user"] == (users[key].pk if key is not None else None)


@pytest.mark.django_db(transaction=False)
@settings(max_examples=300, deadline=None)
@example({"action": {}, "command_id": "\x00"})  # DRF refuses null characters
@example({"action": {}, "command_id": "\ud800"})  # and lone surrogates
@example({"action": {}, "command_id": "c1 "})  # kept exactly as sent
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "action": st.one_of(
                st.none(),
                st.integers(),
                st.text(max_size=5),
                st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
            ),
            "expected_seq": st.one_of(
                st.none(), st.booleans(), st.integers(-3, 10**6), st.text(max_size=4)
            ),
            "command_id": st.one_of(
                st.none(),
                st.integers(),
                # Surrogates included: no category is left out.
                st.text(st.characters(exclude_categories=()), max_size=70),
            ),
        },
    )
)
def test_the_acts_fast_path_agrees_with_the_rest_serializer(content: Any) -> None:
    """Every act the socket validates without DRF is one DRF accepts, with the
    same fields; everything else is left to DRF's messages."""
    fast = apis.action_fields(content)
    serializer = ActionSubmitApi.InputSerializer(data=content)
    if fast is not None:
        assert serializer.is_valid(), serializer.errors
        assert fast == dict(serializer.validated_data)
