"""``games.event_store``: append after an expected seq, load, upcast."""

from typing import Any

import pytest
from django.db import transaction

import rules
from games import event_store
from games.errors import ConcurrencyConflict
from games.models import GameEvent, Table
from tests.games.factories import TableFactory

pytestmark = pytest.mark.django_db

PLAYED = rules.Event("alkort.card_played", 1, {"seat": 0, "card": "KD"})
TAKEN = rules.Event("alkort.trick_taken", 1, {"seat": 1})


def _append(table: Table, expected: int, events: list[rules.Event]) -> int:
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        seq = event_store.append(table=locked, expected_seq=expected, events=events)
        locked.seq = seq
        locked.save(update_fields=["seq"])
    return seq


def test_append_numbers_events_on_from_the_expected_seq() -> None:
    table = TableFactory()

    assert _append(table, 0, [PLAYED, TAKEN]) == 2
    assert _append(table, 2, [PLAYED]) == 3

    rows = GameEvent.objects.filter(table=table).order_by("seq")
    assert [(r.seq, r.type, r.version) for r in rows] == [
        (1, "alkort.card_played", 1),
        (2, "alkort.trick_taken", 1),
        (3, "alkort.card_played", 1),
    ]


def test_append_records_the_actor_and_seat() -> None:
    table = TableFactory()
    with transaction.atomic():
        event_store.append(
            table=table,
            expected_seq=0,
            events=[PLAYED],
            actor_id=table.created_by.pk,
            seat=1,
        )

    row = GameEvent.objects.get(table=table)
    assert (row.actor_id, row.seat) == (table.created_by.pk, 1)


def test_append_after_a_stale_seq_is_a_conflict() -> None:
    table = TableFactory()
    _append(table, 0, [PLAYED, TAKEN])

    with pytest.raises(ConcurrencyConflict) as caught:
        _append(table, 1, [PLAYED])

    assert (caught.value.code, caught.value.status) == ("conflict", 409)
    assert caught.value.message == (
        f"Table {table.pk} is at seq 2, not 1: another move was stored first."
    )
    assert GameEvent.objects.filter(table=table).count() == 2


def test_a_writer_without_the_lock_loses_on_the_unique_key() -> None:
    table = TableFactory()
    stale = Table.objects.get(pk=table.pk)  # read before the other append
    _append(table, 0, [PLAYED])

    with pytest.raises(ConcurrencyConflict) as caught, transaction.atomic():
        event_store.append(table=stale, expected_seq=0, events=[TAKEN])

    assert caught.value.message == (
        f"Table {table.pk} already has an event after seq 0: "
        "another move was stored first."
    )
    assert [e.type for e in event_store.load_events(table)] == ["alkort.card_played"]


@pytest.mark.django_db(transaction=True)
def test_append_needs_a_transaction() -> None:
    """Outside a transaction the seq check and the insert could interleave."""
    with pytest.raises(RuntimeError, match="must run inside transaction.atomic"):
        event_store.append(table=TableFactory(), expected_seq=0, events=[PLAYED])


def test_append_refuses_another_games_events() -> None:
    table = TableFactory(game="alkort")

    with pytest.raises(ValueError, match="allegra.drawn is not an event of alkort"):
        _append(table, 0, [rules.Event("allegra.drawn", 1, {})])
    assert not GameEvent.objects.filter(table=table).exists()


def test_load_returns_events_after_a_seq_in_order() -> None:
    table = TableFactory()
    _append(table, 0, [PLAYED, TAKEN, PLAYED])

    stored = event_store.load(table, after=1)

    assert [(s.seq, s.event) for s in stored] == [(2, TAKEN), (3, PLAYED)]
    assert stored[0].to_json() == {
        "seq": 2,
        "type": "alkort.trick_taken",
        "version": 1,
        "payload": {"seat": 1},
        "seat": None,
    }
    assert event_store.load_events(table.pk) == [PLAYED, TAKEN, PLAYED]
    assert event_store.load_events(table, after=1, until=2) == [TAKEN]


def test_upcasters_upgrade_old_versions_on_load() -> None:
    """A v0 card_played stored ``"c"``; v1 calls it ``"card"``."""
    table = TableFactory()
    GameEvent.objects.create(
        table=table, seq=1, type="alkort.card_played", version=0, payload={"c": "KD"}
    )

    def v0_to_v1(payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return 1, {"seat": 0, "card": payload["c"]}

    with event_store.upcasters_added({("alkort.card_played", 0): v0_to_v1}):
        loaded = event_store.load_events(table)
    unchanged = event_store.load_events(table)

    assert loaded == [PLAYED]
    assert unchanged == [rules.Event("alkort.card_played", 0, {"c": "KD"})]
    assert GameEvent.objects.get(table=table).payload == {"c": "KD"}  # as stored


def test_upcasters_chain_and_must_move_forward() -> None:
    steps = {
        ("alkort.x", 1): lambda p: (2, {**p, "two": True}),
        ("alkort.x", 2): lambda p: (3, {**p, "three": True}),
        ("alkort.y", 1): lambda p: (1, p),
    }

    with event_store.upcasters_added(steps):
        assert event_store.upcast("alkort.x", 1, {}) == rules.Event(
            "alkort.x", 3, {"two": True, "three": True}
        )
        with pytest.raises(ValueError, match="alkort.y v1 went back to v1"):
            event_store.upcast("alkort.y", 1, {})
    assert ("alkort.x", 1) not in event_store.UPCASTERS


def test_an_upcaster_is_registered_once() -> None:
    with (
        event_store.upcasters_added({("alkort.z", 1): lambda p: (2, p)}),
        pytest.raises(ValueError, match="An upcaster for alkort.z v1 exists"),
    ):
        event_store.upcaster("alkort.z", 1)(lambda p: (2, p))
