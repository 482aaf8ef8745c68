"""``manage.py rebuild_table_state``: the cached state is exactly the replay."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

import rules
from games import event_store
from games.models import Table
from tests.accounts.factories import UserFactory
from tests.games.factories import TableFactory
from tests.games.tables import bots_play, table_started

pytestmark = pytest.mark.django_db

WHOLE_MATCHES = [
    ("alager", 3, {"end_mode": "fixed_deals", "num_deals": 2}),
    ("alkort", 4, {"target": 2}),
    ("allegra", 3, {"rounds": 1}),
]


def _bots_match(game: str, players: int, options: dict[str, object]) -> Table:
    """A whole match played by bots through the services (the hot path)."""
    table = table_started(
        game=game,
        seating=["basic"] * players,
        creator=UserFactory(),
        options=options,
    )
    bots_play(table)
    assert table.status == "finished"
    return table


def _run(*args: str) -> list[str]:
    out = StringIO()
    call_command("rebuild_table_state", *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.mark.parametrize(("game_name", "players", "options"), WHOLE_MATCHES)
def test_after_a_whole_match_the_replay_equals_the_cache(
    game_name: str, players: int, options: dict[str, object]
) -> None:
    table = _bots_match(game_name, players, options)
    game = rules.get_game(game_name)
    events = event_store.load_events(table)

    assert game.load_state(table.state) == game.replay(events)
    assert table.outcome == game.outcome(game.replay(events))
    assert _run(str(table.pk), "--check") == [
        f"Table {table.pk}: cached state matches {len(events)} events"
    ]


def test_a_wrong_cache_is_reported_by_check_and_replaced_otherwise() -> None:
    table = table_started(seating=["random", "random"], creator=UserFactory())
    opening_state = table.state
    bots_play(table, limit=5)
    Table.objects.filter(pk=table.pk).update(state=opening_state)  # a stale cache

    with pytest.raises(CommandError) as caught:
        _run(str(table.pk), "--check")
    assert str(caught.value) == (
        f"Cached state differs from the events for table(s) {table.pk}."
    )
    assert Table.objects.get(pk=table.pk).state == opening_state

    assert _run(str(table.pk)) == [
        f"Table {table.pk}: cached state replaced from {table.seq} events"
    ]
    game = rules.get_game("alkort")
    fixed = Table.objects.get(pk=table.pk)
    assert game.load_state(fixed.state) == game.replay(event_store.load_events(table))
    assert fixed.seq == table.seq


def test_a_cache_of_an_older_shape_is_replaced_not_a_crash() -> None:
    """A state class that changed shape leaves caches that no longer load:
    they differ from the events, and a rebuild replaces them."""
    table = table_started(seating=["random", "random"], creator=UserFactory())
    state = dict(table.state)
    state["no_such_field"] = state.pop("match")
    Table.objects.filter(pk=table.pk).update(state=state)

    with pytest.raises(CommandError):
        _run(str(table.pk), "--check")
    assert _run(str(table.pk)) == [
        f"Table {table.pk}: cached state replaced from {table.seq} events"
    ]
    game = rules.get_game("alkort")
    fixed = Table.objects.get(pk=table.pk).state
    assert game.load_state(fixed) == game.replay(event_store.load_events(table))


def test_all_checks_every_started_table() -> None:
    table_started(seating=["random", "random"], creator=UserFactory())
    two = table_started(seating=["basic", "basic"], creator=UserFactory())
    TableFactory()  # a lobby table has nothing to rebuild

    assert _run("--all") == ["2 tables: 2 matched their events, 0 replaced."]
    wrong = dict(two.state)
    wrong["turn"] = 1 - wrong["turn"]
    Table.objects.filter(pk=two.pk).update(state=wrong)
    assert _run("--all") == [
        f"Table {two.pk}: cached state replaced from 2 events",
        "2 tables: 1 matched their events, 1 replaced.",
    ]


def test_all_counts_one_table_in_the_singular() -> None:
    table_started(seating=["random", "random"], creator=UserFactory())

    assert _run("--all") == ["1 table: 1 matched its events, 0 replaced."]
    assert _run("--all", "--check") == ["1 table: 1 matched its events, 0 differ."]


def test_ids_or_all_but_not_both() -> None:
    with pytest.raises(CommandError, match=r"Give table ids or --all \(not both\)."):
        _run()
    with pytest.raises(CommandError, match="not both"):
        _run("1", "--all")
    with pytest.raises(CommandError, match="No table 987654: nothing was done."):
        _run("987654")
    with pytest.raises(CommandError, match="No table 99999999999999999999: "):
        _run("99999999999999999999")


def test_a_missing_id_stops_the_command_before_any_table() -> None:
    # It used to replace the tables before the mistyped id, then stop there.
    table = table_started(seating=["random", "random"], creator=UserFactory())
    opening_state = table.state
    bots_play(table, limit=5)
    Table.objects.filter(pk=table.pk).update(state=opening_state)  # a stale cache

    with pytest.raises(CommandError, match="No table 987654, 987655: nothing was done"):
        _run(str(table.pk), "987655", "987654")

    assert Table.objects.get(pk=table.pk).state == opening_state
