"""Table life cycle services: create, join, add a bot, leave, start."""

from collections.abc import Callable
from typing import Any

import pytest

import rules
from games import event_store
from games.errors import BadRequest, Conflict, Forbidden, TableError
from games.models import Seat, Table, TableStatus
from games.services import (
    table_add_bot,
    table_create,
    table_join,
    table_leave,
    table_start,
)
from rules import dealing
from tests.accounts.factories import BotFactory, UserFactory
from tests.games.tables import SEED, raises_table_error, table_started

pytestmark = pytest.mark.django_db


def _seats(table: Table) -> list[tuple[int, str, str | None]]:
    return [
        (s.index, s.user.username, s.bot_level)
        for s in Seat.objects.filter(table=table).select_related("user")
    ]


# --- table_create -----------------------------------------------------------


def test_create_seats_the_creator_and_completes_the_options() -> None:
    ada = UserFactory(username="ada")

    table = table_create(user=ada, game="alkort", players=4, options={"target": 3})

    assert (table.game, table.players, table.status, table.seq) == (
        "alkort",
        4,
        "lobby",
        0,
    )
    assert table.options == {
        **rules.get_game("alkort").default_options(),
        "target": 3,
    }
    assert _seats(table) == [(0, "ada", None)]
    assert (table.state, table.seed, table.seed_sha256) == (None, "", "")


def test_create_to_watch_takes_no_seat() -> None:
    table = table_create(user=UserFactory(), game="allegra", players=3, watch=True)

    assert _seats(table) == []


def test_create_refuses_an_unknown_game() -> None:
    with raises_table_error(
        BadRequest,
        "unknown_game",
        "Unknown game 'poker'; Cardroom offers: alager, alkort, allegra.",
    ):
        table_create(user=UserFactory(), game="poker", players=2)
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (3, {}, "Alkort is played by 2 players or by 4 in partnerships, not 3"),
        (2, {"target": 0}, "Option 'target' must be at least 1"),
        (2, [], "Options must be a JSON object"),
        (
            2,
            {"colour": "red"},
            "Unknown option 'colour'; this game knows: first_dealer, lead_rule, "
            "partner_reveal, play_out_all_tricks, seven_rule, target",
        ),
        ("2", {}, "The number of players must be a whole number"),
    ],
)
def test_create_lets_the_rules_judge_players_and_options(
    players: Any, options: Any, message: str
) -> None:
    with pytest.raises(rules.InvalidOptions) as caught:
        table_create(
            user=UserFactory(), game="alkort", players=players, options=options
        )

    assert (caught.value.code, str(caught.value)) == ("invalid_options", message)
    assert not Table.objects.exists()


def test_bots_do_not_open_tables() -> None:
    with raises_table_error(
        Forbidden, "bot_account", "Bot accounts are seated by the server."
    ):
        table_create(user=BotFactory(), game="alkort", players=2)


# --- table_join ---------------------------------------------------------------


@pytest.fixture
def lobby() -> Table:
    """A four-seat Alkort lobby; its creator ("ada") sits at seat 0."""
    return table_create(user=UserFactory(username="ada"), game="alkort", players=4)


def test_join_takes_the_lowest_free_seat_or_the_one_asked_for(lobby: Table) -> None:
    table_join(table_id=lobby.pk, user=UserFactory(username="bo"), seat=2)
    table_join(table_id=lobby.pk, user=UserFactory(username="cy"))

    assert _seats(lobby) == [(0, "ada", None), (1, "cy", None), (2, "bo", None)]


def test_join_refuses_a_taken_seat(lobby: Table) -> None:
    with raises_table_error(
        Conflict, "seat_taken", f"Seat 0 of table {lobby.pk} is taken."
    ):
        table_join(table_id=lobby.pk, user=UserFactory(), seat=0)


def test_join_refuses_a_seat_that_does_not_exist(lobby: Table) -> None:
    with raises_table_error(
        BadRequest,
        "invalid_seat",
        f"Table {lobby.pk} has seats 0 to 3; there is no seat 4.",
    ):
        table_join(table_id=lobby.pk, user=UserFactory(), seat=4)


def test_join_refuses_a_second_seat(lobby: Table) -> None:
    with raises_table_error(
        Conflict, "already_seated", f"You already sit at seat 0 of table {lobby.pk}."
    ):
        table_join(table_id=lobby.pk, user=lobby.created_by)


def test_join_refuses_a_full_table(lobby: Table) -> None:
    for _ in range(3):
        table_join(table_id=lobby.pk, user=UserFactory())

    with raises_table_error(
        Conflict, "table_full", f"Table {lobby.pk} is full: all 4 seats are taken."
    ):
        table_join(table_id=lobby.pk, user=UserFactory())


def test_join_refuses_a_started_table() -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])

    with raises_table_error(
        Conflict, "already_started", f"Table {table.pk} has already started."
    ):
        table_join(table_id=table.pk, user=UserFactory())


def test_join_a_missing_table_is_not_found() -> None:
    with pytest.raises(TableError) as caught:
        table_join(table_id=987654, user=UserFactory())

    assert (caught.value.status, caught.value.code, caught.value.message) == (
        404,
        "not_found",
        "Table 987654 does not exist.",
    )


# --- table_add_bot ------------------------------------------------------------


def test_the_creator_adds_house_bots_one_account_several_seats(lobby: Table) -> None:
    table_add_bot(table_id=lobby.pk, user=lobby.created_by)
    table_add_bot(table_id=lobby.pk, user=lobby.created_by, seat=3, level="random")
    table_add_bot(table_id=lobby.pk, user=lobby.created_by)

    assert _seats(lobby) == [
        (0, "ada", None),
        (1, "bot-basic", "basic"),
        (2, "bot-basic", "basic"),
        (3, "bot-random", "random"),
    ]


def test_only_the_creator_adds_bots(lobby: Table) -> None:
    with raises_table_error(
        Forbidden, "not_creator", f"Only the creator of table {lobby.pk} can do that."
    ):
        table_add_bot(table_id=lobby.pk, user=UserFactory())


def test_add_bot_refuses_an_unknown_level(lobby: Table) -> None:
    with raises_table_error(
        BadRequest,
        "invalid_bot_level",
        "Unknown bot level 'genius'; levels: random, basic, strong.",
    ):
        table_add_bot(table_id=lobby.pk, user=lobby.created_by, level="genius")


def test_add_bot_refuses_a_level_the_game_has_no_policy_for(
    lobby: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots for each game arrive level by level; a missing one is a clear 400."""
    import rules.bots.alkort

    monkeypatch.delitem(rules.bots.alkort.POLICIES, "strong")

    with raises_table_error(
        BadRequest, "invalid_bot_level", "Alkort has no 'strong' bot yet."
    ):
        table_add_bot(table_id=lobby.pk, user=lobby.created_by, level="strong")


# --- table_start --------------------------------------------------------------


def test_start_deals_publishes_the_hash_and_caches_the_state(lobby: Table) -> None:
    for _ in range(3):
        table_join(table_id=lobby.pk, user=UserFactory())

    table_start(table_id=lobby.pk, user=lobby.created_by, seed=SEED)

    table = Table.objects.get(pk=lobby.pk)
    game = rules.get_game("alkort")
    events = event_store.load_events(table)
    assert events == game.start(players=4, options=table.options, seed=SEED)
    assert table.seq == len(events)
    assert (table.status, table.seed) == ("playing", SEED)
    assert table.seed_sha256 == dealing.seed_hash(SEED)
    assert events[0].payload["seed_sha256"] == table.seed_sha256
    assert game.load_state(table.state) == game.replay(events)
    assert table.started_at is not None


def test_start_draws_a_fresh_secret_seed() -> None:
    one = table_create(user=UserFactory(), game="alkort", players=2)
    two = table_create(user=UserFactory(), game="alkort", players=2)
    for table in (one, two):
        table_add_bot(table_id=table.pk, user=table.created_by)
        table_start(table_id=table.pk, user=table.created_by)

    seeds = [Table.objects.get(pk=t.pk).seed for t in (one, two)]
    assert len(seeds[0]) == 64 and seeds[0] != seeds[1]


def test_start_needs_every_seat(lobby: Table) -> None:
    table_join(table_id=lobby.pk, user=UserFactory(), seat=2)

    with raises_table_error(
        Conflict,
        "seats_empty",
        f"Table {lobby.pk} cannot start: seats 1, 3 are empty. Join or add bots first.",
    ):
        table_start(table_id=lobby.pk, user=lobby.created_by)
    assert Table.objects.get(pk=lobby.pk).status == TableStatus.LOBBY


def test_only_the_creator_starts(lobby: Table) -> None:
    other = UserFactory()
    table_join(table_id=lobby.pk, user=other)

    with raises_table_error(
        Forbidden, "not_creator", f"Only the creator of table {lobby.pk} can do that."
    ):
        table_start(table_id=lobby.pk, user=other)


def test_a_table_starts_once() -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])

    with raises_table_error(
        Conflict, "already_started", f"Table {table.pk} has already started."
    ):
        table_start(table_id=table.pk, user=table.created_by)


# --- table_leave --------------------------------------------------------------


def test_leaving_the_lobby_frees_the_seat(lobby: Table) -> None:
    bo = UserFactory(username="bo")
    table_join(table_id=lobby.pk, user=bo)

    table_leave(table_id=lobby.pk, user=bo)

    assert _seats(lobby) == [(0, "ada", None)]
    assert Table.objects.get(pk=lobby.pk).status == TableStatus.LOBBY


def test_the_creator_leaving_an_empty_lobby_aborts_it(lobby: Table) -> None:
    table_add_bot(table_id=lobby.pk, user=lobby.created_by)

    table_leave(table_id=lobby.pk, user=lobby.created_by)

    assert Table.objects.get(pk=lobby.pk).status == TableStatus.ABORTED
    with raises_table_error(
        Conflict, "table_aborted", f"Table {lobby.pk} was aborted."
    ):
        table_join(table_id=lobby.pk, user=UserFactory())


def test_the_creator_leaving_keeps_the_lobby_while_others_wait(lobby: Table) -> None:
    table_join(table_id=lobby.pk, user=UserFactory())

    table_leave(table_id=lobby.pk, user=lobby.created_by)

    assert Table.objects.get(pk=lobby.pk).status == TableStatus.LOBBY


def test_leave_without_a_seat_is_forbidden(lobby: Table) -> None:
    with raises_table_error(
        Forbidden, "not_seated", f"You have no seat at table {lobby.pk}."
    ):
        table_leave(table_id=lobby.pk, user=UserFactory())


def test_leaving_a_match_in_play_hands_the_seat_to_a_basic_bot(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    """Alkort, two players: seat 1 (forehand) is to act; its player leaves."""
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    table = table_started(seating=[ada, bo])
    game = rules.get_game("alkort")
    assert game.to_act(game.load_state(table.state)) == (1,)

    with django_capture_on_commit_callbacks(execute=True):
        table_leave(table_id=table.pk, user=bo)

    table.refresh_from_db()
    seat = Seat.objects.get(table=table, index=1)
    assert (seat.user.username, seat.bot_level, seat.replaced_user) == (
        "bot-basic",
        "basic",
        bo,
    )
    # The bot played seat 1's turn on commit; now only seat 0 (a person) may act.
    state = game.load_state(table.state)
    assert table.seq > 2
    assert game.to_act(state) == (0,)
    stored = event_store.load(table, after=2)
    assert stored[0].seat == 1


def test_a_finished_table_cannot_be_left() -> None:
    ada = UserFactory()
    table = table_started(seating=[ada, "random"], options={"target": 1})
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)

    with raises_table_error(
        Conflict, "table_finished", f"The match at table {table.pk} has ended."
    ):
        table_leave(table_id=table.pk, user=ada)


def test_tables_of_two_or_more_are_rated_unless_created_unrated() -> None:
    ada = UserFactory()
    assert table_create(user=ada, game="alkort", players=2).rated is True
    assert table_create(user=ada, game="alkort", players=2, rated=False).rated is False


def test_a_table_that_starts_with_bots_only_is_never_rated() -> None:
    owner = UserFactory()
    table = table_started(seating=["random", "basic"], creator=owner)
    assert Table.objects.get(pk=table.pk).rated is False
    mixed = table_started(seating=[owner, "basic"])
    assert Table.objects.get(pk=mixed.pk).rated is True
