"""Every bad request gets its status, a stable code and a plain message.

Nothing is half-written: each refused request leaves tables, seats and events
as they were. Never a 500.
"""

from collections.abc import Callable
from typing import Any

import pytest

import rules
from games.models import GameEvent, Seat, Table
from games.services import table_create
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.games.tables import play_to_end, seat_users, table_started

pytestmark = pytest.mark.django_db


def _snapshot() -> tuple[Any, ...]:
    return (
        list(Table.objects.order_by("pk").values_list("pk", "status", "seq", "state")),
        list(Seat.objects.order_by("pk").values_list("pk", "index", "user_id")),
        GameEvent.objects.count(),
    )


@pytest.fixture
def playing() -> Table:
    """Two-player Alkort (seed ``SEED``): seat 1 acts first; its hand has 7C."""
    return table_started(seating=[UserFactory(), UserFactory()])


def _check(response: Any, status: int, code: str, message: str) -> None:
    assert response.status_code == status, response.content
    body = response.json()
    assert (body["code"], body["message"]) == (code, message)


def _refused(
    who: Player,
    method: str,
    path: str,
    data: Any,
    status: int,
    code: str,
    message: str,
) -> None:
    before = _snapshot()
    if method == "get":
        response = who.get(path, **(data or {}))
    else:
        response = who.post(path, data)
    _check(response, status, code, message)
    assert _snapshot() == before, "a refused request changed something"


# --- 400: malformed or invalid input -----------------------------------------


@pytest.mark.parametrize("path", ["/api/tables/", "/api/tables/{id}/actions/"])
def test_malformed_json(
    player: Callable[..., Player], playing: Table, path: str
) -> None:
    who = player(seat_users(playing)[1])

    response = who.client.post(
        path.format(id=playing.pk), '{"action": {', content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert response.json()["message"].startswith("JSON parse error - ")


@pytest.mark.parametrize(
    ("data", "status", "code", "message"),
    [
        (
            {"game": "poker", "players": 2},
            400,
            "unknown_game",
            "Unknown game 'poker'; Cardroom offers: alager, alkort, allegra.",
        ),
        (
            {"game": "alkort", "players": 3},
            400,
            "invalid_options",
            "Alkort is played by 2 players or by 4 in partnerships, not 3",
        ),
        (
            {"game": "alkort", "players": 2, "options": {"target": "ten"}},
            400,
            "invalid_options",
            "Option 'target' must be a whole number",
        ),
        (
            {"game": "allegra", "players": 2, "options": {"decks": 2}},
            400,
            "invalid_options",
            "Unknown option 'decks'; this game knows: deck, deck_composition, "
            "double_only_positive, first_player, game_tie_break, knock_min_players, "
            "long_run_rule, max_turns_per_round, next_round_start, "
            "remove_triples_on_final_reveal, rounds, tie_counts_as_lowest, "
            "trigger_mode, triple_cards_to",
        ),
        (
            {"game": "alkort", "players": "two"},
            400,
            "invalid",
            "players: A valid integer is required.",
        ),
        ({"players": 2}, 400, "invalid", "game: This field is required."),
        ([1, 2], 400, "invalid", "Invalid data. Expected a dictionary, but got list."),
    ],
)
def test_create_refuses_bad_input(
    player: Callable[..., Player], data: Any, status: int, code: str, message: str
) -> None:
    _refused(player(), "post", "/api/tables/", data, status, code, message)


@pytest.mark.parametrize(
    ("data", "code", "message"),
    [
        ({}, "invalid", "action: This field is required."),
        (
            {"action": "pass"},
            "malformed_action",
            "An action must be a JSON object with a 'type'",
        ),
        (
            {"action": {"type": "fold"}},
            "unknown_action",
            "Unknown action type 'fold'; this game knows: exchange, pass, play",
        ),
        (
            {"action": {"type": "pass", "x": 1}},
            "malformed_action",
            "A 'pass' action does not take 'x'",
        ),
        (
            {"action": {"type": "exchange", "keep": "XX"}},
            "malformed_action",
            "'XX' is not a card: write rank then suit, e.g. 'QH' or 'TC' "
            "(ranks 2 3 4 5 6 7 8 9 T J Q K A, suits C D H S)",
        ),
        (
            {"action": {"type": "exchange", "keep": "7C"}},
            "illegal_action",
            "You may exchange only a hand that cannot beat a led low eight; "
            "yours holds 9D, 6S, 8S",
        ),
        (
            {"action": {"type": "play", "card": "AS"}},
            "unknown_action",
            "Cards are played after the stock exchange: exchange or pass first",
        ),
        (
            {"action": {"type": "pass"}, "expected_seq": -1},
            "invalid",
            "expected_seq: Ensure this value is greater than or equal to 0.",
        ),
        (
            {"action": {"type": "pass"}, "command_id": "x" * 65},
            "invalid",
            "command_id: Ensure this field has no more than 64 characters.",
        ),
        (
            {"action": {"type": "pass"}, "command_id": "a\x00b"},
            "invalid",
            "command_id: Null characters are not allowed.",
        ),
        (
            {"action": {"type": "pass"}, "command_id": 17},
            "invalid",
            "command_id: Not a valid string.",
        ),
        (
            # A lone UTF-16 half: no database encoding can store it.
            {"action": {"type": "pass"}, "command_id": "\ud800"},
            "invalid",
            "command_id: Surrogate characters are not allowed: U+D800.",
        ),
    ],
)
def test_actions_refuse_bad_and_illegal_moves(
    player: Callable[..., Player], playing: Table, data: Any, code: str, message: str
) -> None:
    who = player(seat_users(playing)[1])

    _refused(
        who, "post", f"/api/tables/{playing.pk}/actions/", data, 400, code, message
    )


def test_not_your_turn(player: Callable[..., Player], playing: Table) -> None:
    _refused(
        player(seat_users(playing)[0]),
        "post",
        f"/api/tables/{playing.pk}/actions/",
        {"action": {"type": "pass"}},
        400,
        "not_your_turn",
        "It is not your turn: seat 1 is to act",
    )


@pytest.mark.parametrize(
    ("path", "data", "message"),
    [
        ("join/", {"seat": 9}, "Table {id} has seats 0 to 1; there is no seat 9."),
        ("bots/", {"seat": -1}, "Table {id} has seats 0 to 1; there is no seat -1."),
    ],
)
def test_seats_that_do_not_exist(
    player: Callable[..., Player], path: str, data: Any, message: str
) -> None:
    creator = UserFactory()
    table = table_create(user=creator, game="alkort", players=2)
    who = player(creator) if path == "bots/" else player()

    _refused(
        who,
        "post",
        f"/api/tables/{table.pk}/{path}",
        data,
        400,
        "invalid_seat",
        message.format(id=table.pk),
    )


def test_an_unknown_bot_level(player: Callable[..., Player]) -> None:
    creator = player()
    table_id = creator.post("/api/tables/", {"game": "alkort", "players": 2}).json()[
        "id"
    ]

    _refused(
        creator,
        "post",
        f"/api/tables/{table_id}/bots/",
        {"level": "genius"},
        400,
        "invalid_bot_level",
        "Unknown bot level 'genius'; levels: random, basic, strong.",
    )


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"status": "sleeping"}, 'status: "sleeping" is not a valid choice.'),
        ({"game": "poker"}, 'game: "poker" is not a valid choice.'),
        ({"mine": "perhaps"}, "mine: Must be a valid boolean."),
    ],
)
def test_bad_list_filters(
    player: Callable[..., Player], params: dict[str, str], message: str
) -> None:
    _refused(player(), "get", "/api/tables/", params, 400, "invalid", message)


def test_a_bad_after(player: Callable[..., Player], playing: Table) -> None:
    _refused(
        player(),
        "get",
        f"/api/tables/{playing.pk}/events/",
        {"after": "-3"},
        400,
        "invalid",
        "after: Ensure this value is greater than or equal to 0.",
    )


# --- 401: writes need an account ----------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["", "{id}/join/", "{id}/leave/", "{id}/bots/", "{id}/start/", "{id}/actions/"],
)
def test_writes_need_authentication(
    player: Callable[..., Player], playing: Table, path: str
) -> None:
    _refused(
        player(anonymous=True),
        "post",
        f"/api/tables/{path.format(id=playing.pk)}",
        {"action": {"type": "pass"}, "game": "alkort", "players": 2},
        401,
        "not_authenticated",
        "Authentication credentials were not provided.",
    )


def test_a_bad_token_is_refused(playing: Table) -> None:
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    response = client.get(f"/api/tables/{playing.pk}/")

    _check(response, 401, "authentication_failed", "Invalid token.")


# --- 403: not yours -----------------------------------------------------------


def test_not_your_seat(player: Callable[..., Player], playing: Table) -> None:
    for path in ("actions/", "leave/"):
        _refused(
            player(),
            "post",
            f"/api/tables/{playing.pk}/{path}",
            {"action": {"type": "pass"}},
            403,
            "not_seated",
            f"You have no seat at table {playing.pk}.",
        )


@pytest.mark.parametrize("path", ["bots/", "start/"])
def test_only_the_creator(player: Callable[..., Player], path: str) -> None:
    creator, guest = player(), player()
    table_id = creator.post("/api/tables/", {"game": "alkort", "players": 2}).json()[
        "id"
    ]
    guest.post(f"/api/tables/{table_id}/join/")

    _refused(
        guest,
        "post",
        f"/api/tables/{table_id}/{path}",
        {},
        403,
        "not_creator",
        f"Only the creator of table {table_id} can do that.",
    )


# --- 404 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", ""),
        ("get", "events/"),
        ("get", "export/"),
        ("get", "verify/"),
        ("post", "join/"),
        ("post", "leave/"),
        ("post", "bots/"),
        ("post", "start/"),
        ("post", "actions/"),
    ],
)
def test_a_missing_table(player: Callable[..., Player], method: str, path: str) -> None:
    _refused(
        player(),
        method,
        f"/api/tables/987654/{path}",
        {"action": {"type": "pass"}} if method == "post" else None,
        404,
        "not_found",
        "Table 987654 does not exist.",
    )


def test_a_table_id_beyond_any_integer_is_not_found(
    player: Callable[..., Player],
) -> None:
    response = player().get("/api/tables/99999999999999999999999/")

    _check(response, 404, "not_found", "Table 99999999999999999999999 does not exist.")


# --- 409: not now -------------------------------------------------------------


def test_stale_expected_seq(player: Callable[..., Player], playing: Table) -> None:
    _refused(
        player(seat_users(playing)[1]),
        "post",
        f"/api/tables/{playing.pk}/actions/",
        {"action": {"type": "pass"}, "expected_seq": 1},
        409,
        "stale",
        f"Your view is stale: table {playing.pk} is at seq 2, not 1. "
        "Fetch the table and try again.",
    )


def test_lobby_conflicts(player: Callable[..., Player]) -> None:
    creator = player()
    table_id = creator.post("/api/tables/", {"game": "alkort", "players": 2}).json()[
        "id"
    ]
    base = f"/api/tables/{table_id}"

    _refused(
        creator,
        "post",
        f"{base}/actions/",
        {"action": {"type": "pass"}},
        409,
        "not_started",
        f"Table {table_id} has not started yet.",
    )
    _refused(
        creator,
        "post",
        f"{base}/start/",
        {},
        409,
        "seats_empty",
        f"Table {table_id} cannot start: seat 1 is empty. Join or add bots first.",
    )
    _refused(
        creator,
        "post",
        f"{base}/join/",
        {},
        409,
        "already_seated",
        f"You already sit at seat 0 of table {table_id}.",
    )
    guest = player()
    _refused(
        guest,
        "post",
        f"{base}/join/",
        {"seat": 0},
        409,
        "seat_taken",
        f"Seat 0 of table {table_id} is taken.",
    )
    guest.post(f"{base}/join/")
    _refused(
        player(),
        "post",
        f"{base}/join/",
        {},
        409,
        "table_full",
        f"Table {table_id} is full: all 2 seats are taken.",
    )
    _refused(
        creator,
        "get",
        f"{base}/verify/",
        None,
        409,
        "not_finished",
        f"The seed of table {table_id} is revealed when the match ends; verify it then.",
    )


def test_started_conflicts(player: Callable[..., Player], playing: Table) -> None:
    creator = player(playing.created_by)
    base = f"/api/tables/{playing.pk}"

    for path, data in (("start/", {}), ("join/", {}), ("bots/", {})):
        _refused(
            creator if path != "join/" else player(),
            "post",
            f"{base}/{path}",
            data,
            409,
            "already_started",
            f"Table {playing.pk} has already started.",
        )
    _refused(
        creator,
        "get",
        f"{base}/verify/",
        None,
        409,
        "not_finished",
        f"The seed of table {playing.pk} is revealed when the match ends; "
        "verify it then.",
    )


def test_finished_conflicts(player: Callable[..., Player]) -> None:
    table = table_started(seating=[UserFactory(), UserFactory()], options={"target": 1})
    play_to_end(table)
    ada = player(seat_users(table)[0])

    for path in ("actions/", "leave/", "join/", "start/", "bots/"):
        _refused(
            ada,
            "post",
            f"/api/tables/{table.pk}/{path}",
            {"action": {"type": "pass"}},
            409,
            "table_finished",
            f"The match at table {table.pk} has ended.",
        )


def test_a_command_id_reused_for_another_action(
    player: Callable[..., Player], playing: Table
) -> None:
    bo = player(seat_users(playing)[1])
    path = f"/api/tables/{playing.pk}/actions/"
    assert (
        bo.post(path, {"action": {"type": "pass"}, "command_id": "k"}).status_code
        == 200
    )

    _refused(
        bo,
        "post",
        path,
        {"action": {"type": "exchange", "keep": "7C"}, "command_id": "k"},
        409,
        "command_reused",
        "Command 'k' was already used for another action.",
    )


@pytest.mark.parametrize("kind", [float, bool])
def test_a_command_id_reused_with_numbers_of_another_json_type(
    player: Callable[..., Player], kind: type
) -> None:
    """``1.0`` and ``true`` are other JSON values than ``1`` (Python's ``==``
    takes them for one another): an Allegra cell written with them is another
    action, refused as such, not answered as a retry of the first."""
    table = table_started(game="allegra", seating=[UserFactory(), UserFactory()])
    game = rules.get_game("allegra")
    seat = game.to_act(game.load_state(table.state))[0]
    who = player(seat_users(table)[seat])
    path = f"/api/tables/{table.pk}/actions/"
    first = who.get(f"/api/tables/{table.pk}/").json()["legal_actions"][0]
    assert first["cell"]["seat"] == 1  # true stands for it as a bool
    assert who.post(path, {"action": first, "command_id": "k"}).status_code == 200
    other = {**first, "cell": {**first["cell"], "seat": kind(1)}}

    _refused(
        who,
        "post",
        path,
        {"action": other, "command_id": "k"},
        409,
        "command_reused",
        "Command 'k' was already used for another action.",
    )


def test_a_command_id_is_taken_exactly_as_sent(
    player: Callable[..., Player], playing: Table
) -> None:
    """ "k " is a new command, not a retry of "k": trimmed, a new move would
    be answered with an old one and silently dropped."""
    bo = player(seat_users(playing)[1])
    path = f"/api/tables/{playing.pk}/actions/"
    assert (
        bo.post(path, {"action": {"type": "pass"}, "command_id": "k"}).status_code
        == 200
    )

    _refused(
        bo,
        "post",
        path,
        {"action": {"type": "pass"}, "command_id": "k "},
        400,
        "not_your_turn",
        "It is not your turn: seat 0 is to act",
    )


@pytest.mark.parametrize("kind", [[], {}, None, 7])
def test_a_type_that_is_not_a_string_is_malformed_in_every_game(
    player: Callable[..., Player], kind: Any
) -> None:
    """A list, object, null or number as ``type`` is refused the same everywhere."""
    for game in ("alager", "alkort", "allegra"):
        table = table_started(game=game, seating=[UserFactory(), UserFactory()])
        to_act = rules.get_game(game).to_act(
            rules.get_game(game).load_state(table.state)
        )[0]
        _refused(
            player(seat_users(table)[to_act]),
            "post",
            f"/api/tables/{table.pk}/actions/",
            {"action": {"type": kind, "discard": "4S"}},
            400,
            "malformed_action",
            "An action needs a 'type' string",
        )


def test_a_rules_crash_on_input_is_a_400_and_logged(
    player: Callable[..., Player],
    playing: Table,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = rules.get_game("alkort")

    def crash(*args: Any) -> None:
        card = "QH" + "-hidden"  # a card of the state, say
        raise KeyError(card)

    monkeypatch.setattr(game, "decide", crash)

    _refused(
        player(seat_users(playing)[1]),
        "post",
        f"/api/tables/{playing.pk}/actions/",
        {"action": {"type": "pass"}},
        400,
        "malformed_action",
        "This action could not be read; check it against legal_actions",
    )
    assert "alkort.decide crashed on a 'pass' action from seat 1" in caplog.text
    # Where it crashed, not the exception's message: it may name hidden cards.
    assert "in crash\n" in caplog.text
    assert "KeyError (its message left out" in caplog.text
    assert "QH-hidden" not in caplog.text
