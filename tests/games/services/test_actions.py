"""``action_submit``: the rules decide, the log grows, the cache follows."""

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from channels.layers import get_channel_layer
from django.utils import timezone

import rules
from games import event_store, frames, realtime, signals, state_cache
from games.errors import Conflict, Forbidden, NotFound
from games.models import GameEvent, ProcessedCommand, SeatConnection, Table
from games.services import action_submit, table_create
from tests.accounts.factories import UserFactory
from tests.games.tables import (
    play_to_end,
    raises_table_error,
    seat_users,
    table_started,
)

pytestmark = pytest.mark.django_db

GAME = rules.get_game("alkort")


@pytest.fixture
def table() -> Table:
    """Two-player Alkort with people at both seats; seat 1 acts first."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    assert GAME.to_act(GAME.load_state(table.state)) == (1,)
    return table


def _first_legal(table: Table, seat: int) -> dict[str, Any]:
    return GAME.legal_actions(GAME.load_state(table.state), seat)[0]


def _unchanged(table: Table) -> None:
    """Nothing was written: same seq, same events, same cache."""
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.seq == table.seq == GameEvent.objects.filter(table=table).count()
    assert fresh.state == table.state


def test_submit_appends_the_rules_events_and_updates_the_cache(table: Table) -> None:
    bo = seat_users(table)[1]
    action = _first_legal(table, 1)
    before = GAME.load_state(table.state)
    expected_events = GAME.decide(before, 1, action)

    result = action_submit(table_id=table.pk, user=bo, action=action)

    table.refresh_from_db()
    state = GAME.replay(event_store.load_events(table))
    assert table.seq == 2 + len(expected_events)
    assert event_store.load_events(table, after=2) == expected_events
    assert GAME.load_state(table.state) == state
    assert result == {
        "seq": table.seq,
        "status": "playing",
        "view": GAME.view(state, 1),
        "legal_actions": GAME.legal_actions(state, 1),
    }
    rows = GameEvent.objects.filter(table=table, seq__gt=2)
    assert {(row.actor_id, row.seat) for row in rows} == {(bo.pk, 1)}


def test_someone_without_a_seat_cannot_act(table: Table) -> None:
    with raises_table_error(
        Forbidden, "not_seated", f"You have no seat at table {table.pk}."
    ):
        action_submit(table_id=table.pk, user=UserFactory(), action={"type": "pass"})
    _unchanged(table)


def test_acting_out_of_turn_is_refused_by_the_rules(table: Table) -> None:
    ada = seat_users(table)[0]

    with pytest.raises(rules.NotYourTurn) as caught:
        action_submit(table_id=table.pk, user=ada, action={"type": "pass"})

    assert (caught.value.code, str(caught.value)) == (
        "not_your_turn",
        "It is not your turn: seat 1 is to act",
    )
    _unchanged(table)


@pytest.mark.parametrize(
    ("action", "code", "message"),
    [
        ("pass", "malformed_action", "An action must be a JSON object with a 'type'"),
        ({"kind": "pass"}, "malformed_action", "An action needs a 'type' string"),
        (
            {"type": "fold"},
            "unknown_action",
            "Unknown action type 'fold'; this game knows: exchange, pass, play",
        ),
    ],
)
def test_bad_actions_are_refused_with_the_rules_message(
    table: Table, action: Any, code: str, message: str
) -> None:
    with pytest.raises(rules.IllegalAction) as caught:
        action_submit(table_id=table.pk, user=seat_users(table)[1], action=action)

    assert (caught.value.code, str(caught.value)) == (code, message)
    _unchanged(table)


def test_a_stale_expected_seq_is_refused_before_the_rules(table: Table) -> None:
    with raises_table_error(
        Conflict,
        "stale",
        f"Your view is stale: table {table.pk} is at seq 2, not 1. "
        "Fetch the table and try again.",
    ):
        action_submit(
            table_id=table.pk,
            user=seat_users(table)[1],
            action=_first_legal(table, 1),
            expected_seq=1,
        )
    _unchanged(table)


def test_the_current_expected_seq_is_accepted(table: Table) -> None:
    result = action_submit(
        table_id=table.pk,
        user=seat_users(table)[1],
        action=_first_legal(table, 1),
        expected_seq=2,
    )

    assert result["seq"] > 2


@pytest.mark.parametrize("table_id", [2**63, 10**28, -(2**63) - 1])
def test_a_table_id_no_table_can_have_is_not_found(table_id: int) -> None:
    """Beyond a bigint there is no table: 404, as the ORM would answer, not
    the database's refusal of the number."""
    with raises_table_error(NotFound, "not_found", f"Table {table_id} does not exist."):
        action_submit(table_id=table_id, user=UserFactory(), action={"type": "pass"})


def test_a_lobby_table_has_not_started() -> None:
    ada = UserFactory()
    lobby = table_create(user=ada, game="alkort", players=2)

    with raises_table_error(
        Conflict, "not_started", f"Table {lobby.pk} has not started yet."
    ):
        action_submit(table_id=lobby.pk, user=ada, action={"type": "pass"})


def test_a_repeated_command_id_returns_the_first_answer_and_acts_once(
    table: Table,
) -> None:
    bo = seat_users(table)[1]
    action = _first_legal(table, 1)

    first = action_submit(table_id=table.pk, user=bo, action=action, command_id="c-1")
    seq = Table.objects.get(pk=table.pk).seq
    again = action_submit(table_id=table.pk, user=bo, action=action, command_id="c-1")

    assert again == first
    assert Table.objects.get(pk=table.pk).seq == seq
    assert GameEvent.objects.filter(table=table).count() == seq
    assert ProcessedCommand.objects.filter(table=table).count() == 1


def test_a_command_keeps_its_seq_not_the_seats_view(table: Table) -> None:
    """The stored command holds no copy of the seat's hidden cards."""
    bo = seat_users(table)[1]
    action = _first_legal(table, 1)

    first = action_submit(table_id=table.pk, user=bo, action=action, command_id="c-1")

    stored = ProcessedCommand.objects.get(table=table)
    assert (stored.seat, stored.command_id, stored.action, stored.seq) == (
        1, "c-1", action, first["seq"],
    )  # fmt: skip
    assert "response" not in {f.name for f in ProcessedCommand._meta.fields}


@pytest.mark.parametrize("remembered", [True, False], ids=["remembered", "replayed"])
def test_a_retry_after_later_moves_gets_the_first_answer(
    table: Table, remembered: bool
) -> None:
    """The answer is rebuilt at the command's seq, not the table's."""
    people = seat_users(table)
    action = _first_legal(table, 1)
    first = action_submit(
        table_id=table.pk, user=people[1], action=action, command_id="c-1"
    )
    table.refresh_from_db()
    seat = GAME.to_act(GAME.load_state(table.state))[0]
    action_submit(
        table_id=table.pk, user=people[seat], action=_first_legal(table, seat)
    )
    if not remembered:
        state_cache.clear()

    again = action_submit(
        table_id=table.pk, user=people[1], action=action, command_id="c-1"
    )

    assert again == first
    assert Table.objects.get(pk=table.pk).seq > first["seq"]


def test_a_retry_of_the_tables_last_move_is_answered_from_its_cached_state(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The usual retry (the answer was lost on its way) needs no replay, even
    in a process that does not remember the state."""
    bo = seat_users(table)[1]
    action = _first_legal(table, 1)
    first = action_submit(table_id=table.pk, user=bo, action=action, command_id="c-1")
    state_cache.clear()

    def no_replay(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the log was read")

    monkeypatch.setattr(event_store, "load_events", no_replay)
    again = action_submit(table_id=table.pk, user=bo, action=action, command_id="c-1")

    assert again == first


def test_a_retry_of_the_last_move_says_the_match_ended(table: Table) -> None:
    people = seat_users(table)
    answer: dict[str, Any] = {"status": "playing"}
    moves = 0
    while answer["status"] == "playing" and moves < 5000:
        moves += 1
        table.refresh_from_db()
        state = GAME.load_state(table.state)
        seat = GAME.to_act(state)[0]
        action = GAME.legal_actions(state, seat)[0]
        answer = action_submit(
            table_id=table.pk, user=people[seat], action=action, command_id=f"m{moves}"
        )
    game_over = answer
    assert game_over["status"] == "finished"
    state_cache.clear()

    again = action_submit(
        table_id=table.pk, user=people[seat], action=action, command_id=f"m{moves}"
    )

    assert again == game_over


def test_a_command_id_reused_for_another_action_is_refused(table: Table) -> None:
    bo = seat_users(table)[1]
    action_submit(
        table_id=table.pk, user=bo, action=_first_legal(table, 1), command_id="c-1"
    )

    with raises_table_error(
        Conflict,
        "command_reused",
        "Command 'c-1' was already used for another action.",
    ):
        action_submit(
            table_id=table.pk, user=bo, action={"type": "other"}, command_id="c-1"
        )


def test_a_refused_command_can_be_retried_with_its_id(table: Table) -> None:
    bo = seat_users(table)[1]
    action = _first_legal(table, 1)
    with pytest.raises(Conflict):
        action_submit(
            table_id=table.pk, user=bo, action=action, expected_seq=0, command_id="c-9"
        )

    result = action_submit(
        table_id=table.pk, user=bo, action=action, expected_seq=2, command_id="c-9"
    )

    assert result["seq"] > 2


def test_command_ids_belong_to_a_seat(table: Table) -> None:
    """Another seat's identical id is its own command."""
    people = seat_users(table)
    action_submit(
        table_id=table.pk,
        user=people[1],
        action=_first_legal(table, 1),
        command_id="same",
    )
    table.refresh_from_db()
    seat = GAME.to_act(GAME.load_state(table.state))[0]

    result = action_submit(
        table_id=table.pk,
        user=people[seat],
        action=_first_legal(table, seat),
        command_id="same",
    )

    assert result["seq"] == Table.objects.get(pk=table.pk).seq
    assert ProcessedCommand.objects.filter(table=table, command_id="same").count() == 2


def test_the_last_move_finishes_the_table(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()], options={"target": 1})
    finished: list[int] = []

    def receiver(sender: Any, table_id: int, **kwargs: Any) -> None:
        finished.append(table_id)

    signals.table_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            play_to_end(table)
    finally:
        signals.table_finished.disconnect(receiver)

    table.refresh_from_db()
    events = event_store.load_events(table)
    assert table.status == "finished" and table.finished_at is not None
    assert events[-1].type == "alkort.match_ended"
    assert table.outcome == events[-1].payload["outcome"]
    assert table.outcome == GAME.outcome(GAME.replay(events))
    assert finished == [table.pk]  # announced once, on commit
    with raises_table_error(
        Conflict, "table_finished", f"The match at table {table.pk} has ended."
    ):
        action_submit(
            table_id=table.pk, user=seat_users(table)[0], action={"type": "pass"}
        )


def test_live_play_hears_of_each_move_on_commit(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """On commit, a watcher's audience group gets the move's frame (the
    watcher registered, as every socket does)."""
    layer = get_channel_layer()
    group = realtime.audience_group(table.pk, None)
    SeatConnection.objects.create(
        table=table, seat=None, channel_name="watcher", seen_at=timezone.now()
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        result = action_submit(
            table_id=table.pk, user=seat_users(table)[1], action=_first_legal(table, 1)
        )
    assert callbacks, "nothing waits for the commit"

    async def watch() -> Any:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        try:
            for callback in callbacks:  # what the commit would run
                callback()
            return await asyncio.wait_for(layer.receive(channel), 10)
        finally:
            await layer.group_discard(group, channel)

    message = asyncio.run(watch())
    assert message["type"] == realtime.TABLE_FRAME
    assert message["user"] is None
    assert message["frame"]["seq"] == result["seq"]
    assert message["frame"]["seat"] is None


def test_a_move_nobody_watches_asks_redis_nothing(
    table: Table,
    django_capture_on_commit_callbacks: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The row lock's read says no socket listens: no frame is built, nothing
    is published, and Redis is not asked who subscribes."""
    layer = get_channel_layer()
    publisher = layer.sync_publisher()
    calls: list[str] = []
    monkeypatch.setattr(
        publisher, "groups_listened", lambda groups: calls.append("numsub") or []
    )
    monkeypatch.setattr(
        publisher, "group_send_many", lambda items: calls.append("publish")
    )
    built: list[Any] = []
    monkeypatch.setattr(
        frames, "frames_after_move", lambda **kwargs: built.append(kwargs) or []
    )
    with django_capture_on_commit_callbacks(execute=True):
        action_submit(
            table_id=table.pk, user=seat_users(table)[1], action=_first_legal(table, 1)
        )
    assert calls == []
    assert built == []


def test_only_the_registered_audiences_are_pushed_to_without_asking_redis(
    table: Table,
    django_capture_on_commit_callbacks: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process without sockets publishes the frames of the audiences the
    row lock found registered, and asks Redis nothing first."""
    people = seat_users(table)
    SeatConnection.objects.create(
        table=table, seat=0, channel_name="ada", seen_at=timezone.now()
    )
    publisher = get_channel_layer().sync_publisher()
    sent: list[Any] = []
    monkeypatch.setattr(
        publisher, "groups_listened", lambda groups: pytest.fail("asked Redis")
    )
    monkeypatch.setattr(publisher, "group_send_many", sent.extend)
    with django_capture_on_commit_callbacks(execute=True):
        result = action_submit(
            table_id=table.pk, user=people[1], action=_first_legal(table, 1)
        )
    assert [group for group, _ in sent] == [realtime.audience_group(table.pk, 0)]
    message = sent[0][1]
    assert message["user"] == people[0].pk
    assert message["frame"]["seat"] == 0
    assert message["frame"]["seq"] == result["seq"]


def test_a_frame_build_that_crashes_is_logged_without_its_message(
    table: Table,
    django_capture_on_commit_callbacks: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The rules crashing while a seat's frame is built: the table is
    announced instead, and the log line names where, not the message, which
    may quote a card of the hand."""
    SeatConnection.objects.create(
        table=table, seat=0, channel_name="ada", seen_at=timezone.now()
    )
    publisher = get_channel_layer().sync_publisher()
    monkeypatch.setattr(publisher, "group_send_many", lambda items: None)

    def crash(**kwargs: Any) -> Any:
        raise KeyError("".join(("Q", "H")))  # the source line names none

    monkeypatch.setattr(frames, "frames_after_move", crash)
    announced: list[Any] = []
    monkeypatch.setattr(
        realtime, "table_changed", lambda *args, **kwargs: announced.append(args)
    )
    with django_capture_on_commit_callbacks(execute=True):
        action_submit(
            table_id=table.pk, user=seat_users(table)[1], action=_first_legal(table, 1)
        )

    assert announced
    assert "Building the frames of table" in caplog.text
    assert "KeyError" in caplog.text
    assert "QH" not in caplog.text


def test_nothing_is_announced_for_a_refused_move(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with (
        django_capture_on_commit_callbacks() as callbacks,
        pytest.raises(rules.NotYourTurn),
    ):
        action_submit(
            table_id=table.pk, user=seat_users(table)[0], action={"type": "pass"}
        )

    assert callbacks == []
