"""A move's API token, checked in the move's own first message.

``POST /api/tables/{id}/actions/`` takes a token this process has seen
authenticate as its person's, and the move's lock carries the token's query
(``accounts.authentication.PendingToken``): the request saves a round trip,
and a token deleted, moved or deactivated since is still a 401 under the lock
with nothing written, whatever else is wrong with the request.
"""

import re
import tempfile
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from psycopg import pq
from rest_framework.authtoken.models import Token
from rest_framework.throttling import BaseThrottle

import rules
from accounts import authentication
from accounts.models import User
from games.apis import ActionSubmitApi
from games.models import GameEvent, Table
from tests.accounts.factories import UserFactory, token_for
from tests.games.conftest import Player
from tests.games.tables import seat_users, table_started

ALKORT = rules.get_game("alkort")


def _pg_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the check rides in the hot path's PostgreSQL message")


def _next_move(table: Table) -> tuple[User, dict[str, Any], int]:
    fresh = Table.objects.get(pk=table.pk)
    state = ALKORT.load_state(fresh.state)
    seat = ALKORT.to_act(state)[0]
    return seat_users(fresh)[seat], ALKORT.legal_actions(state, seat)[0], fresh.seq


def _play(player: Callable[..., Player], table: Table) -> tuple[Player, Any]:
    """The next move over HTTP by whoever is to act: their client and answer."""
    user, action, seq = _next_move(table)
    client = player(user)
    return client, client.post(
        f"/api/tables/{table.pk}/actions/", {"action": action, "expected_seq": seq}
    )


@pytest.fixture
def table() -> Table:
    return table_started(seating=[UserFactory(), UserFactory()])


@pytest.mark.django_db(transaction=True)
def test_a_known_token_rides_in_the_moves_first_message(
    player: Callable[..., Player], table: Table
) -> None:
    """No query of its own: the move still takes two round trips."""
    _pg_only()
    for _ in range(2):  # both people's tokens seen, statements prepared
        _play(player, table)
    user, action, seq = _next_move(table)
    client = player(user)
    pg = connection.connection
    with tempfile.TemporaryFile("w+") as trace:
        pg.pgconn.trace(trace.fileno())
        pg.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            response = client.post(
                f"/api/tables/{table.pk}/actions/",
                {"action": action, "expected_seq": seq},
            )
        finally:
            pg.pgconn.untrace()
        trace.seek(0)
        messages = re.split(r"^(?=[FB]\t\d+\t)", trace.read(), flags=re.M)

    assert response.status_code == 200, response.json()
    trips = [
        m.split("\t", 3)[3].strip()
        for m in messages
        if m.startswith("F\t") and m.split("\t")[2] in ("Query", "Sync")
    ]
    assert len(trips) == 2, trips
    assert "EXECUTE cardroom_token_user_held(" in trips[0]
    assert "EXECUTE cardroom_table_lock(" in trips[0]


def _revoke(how: str, user: User) -> None:
    key = token_for(user)
    if how == "deleted":
        Token.objects.filter(key=key).delete()
    elif how == "deactivated":
        User.objects.filter(pk=user.pk).update(is_active=False)
    elif how == "made_a_bot":
        User.objects.filter(pk=user.pk).update(is_bot=True)
    else:  # the key now names someone else
        Token.objects.filter(key=key).update(user=UserFactory())


REFUSALS = {
    "deleted": ("authentication_failed", "Invalid token."),
    "deactivated": ("authentication_failed", "User inactive or deleted."),
    "made_a_bot": (
        "bot_account",
        "Bot accounts are played by the server and cannot use the API.",
    ),
    "moved": ("authentication_failed", "Invalid token."),
}


@pytest.mark.parametrize("how", sorted(REFUSALS))
def test_a_token_revoked_since_is_refused_with_nothing_written(
    player: Callable[..., Player], table: Table, how: str
) -> None:
    _pg_only()
    _play(player, table)
    user, action, seq = _next_move(table)
    client = player(user)
    first = client.post(
        f"/api/tables/{table.pk}/actions/", {"action": action, "expected_seq": seq}
    )
    assert first.status_code == 200
    key = token_for(user)
    assert key in authentication._KNOWN  # the next move trusts it for now
    events = GameEvent.objects.filter(table=table).count()
    _revoke(how, user)

    user_, action, seq = _next_move(table)
    if user_ != user:  # play the other seat's turn with a fresh client
        player(user_).post(
            f"/api/tables/{table.pk}/actions/",
            {"action": action, "expected_seq": seq},
        )
        _user, action, seq = _next_move(table)
        events = GameEvent.objects.filter(table=table).count()
    response = client.post(
        f"/api/tables/{table.pk}/actions/", {"action": action, "expected_seq": seq}
    )

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    code, message = REFUSALS[how]
    assert response.json() == {"code": code, "message": message}
    assert Table.objects.get(pk=table.pk).seq == seq
    assert GameEvent.objects.filter(table=table).count() == events
    assert key not in authentication._KNOWN


BAD_REQUESTS = {
    "malformed body": lambda table, seq: (table.pk, {"expected_seq": -1}),
    "stale seq": lambda table, seq: (table.pk, {"action": {}, "expected_seq": 0}),
    "no such table": lambda table, seq: (2**31 - 7, {"action": {}}),
    "no table can have that id": lambda table, seq: (2**70, {"action": {}}),
    "not seated": lambda table, seq: (
        table_started(seating=[UserFactory(), UserFactory()]).pk,
        {"action": {}},
    ),
}


@pytest.mark.parametrize("bad", sorted(BAD_REQUESTS))
def test_a_deleted_token_is_401_whatever_else_is_wrong(
    player: Callable[..., Player], table: Table, bad: str
) -> None:
    """A request that fails before its move gets the token checked first:
    nobody learns what else was wrong with a request they may not make."""
    _pg_only()
    client, first = _play(player, table)
    assert first.status_code == 200
    Token.objects.filter(user=client.user).delete()
    table_id, body = BAD_REQUESTS[bad](table, Table.objects.get(pk=table.pk).seq)

    response = client.post(f"/api/tables/{table_id}/actions/", body)

    assert response.status_code == 401, response.json()
    assert response.json() == {
        "code": "authentication_failed",
        "message": "Invalid token.",
    }


class Refused(BaseThrottle):
    def allow_request(self, request: Any, view: Any) -> bool:
        return False

    def wait(self) -> float:
        return 60.0


def test_a_throttled_move_with_a_deleted_token_is_401(
    player: Callable[..., Player], table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    _pg_only()
    client, first = _play(player, table)
    assert first.status_code == 200
    Token.objects.filter(user=client.user).delete()
    monkeypatch.setattr(ActionSubmitApi, "throttle_classes", [Refused])

    response = client.post(f"/api/tables/{table.pk}/actions/", {"action": {}})

    assert response.status_code == 401, response.json()


def test_the_remembered_tokens_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(authentication, "_KNOWN", {})
    monkeypatch.setattr(authentication, "_KNOWN_MAX", 3)
    for key in "abcde":
        authentication._remember(key, (key,))
    authentication._remember("c", ("c",))  # seen again: newest

    assert list(authentication._KNOWN) == ["d", "e", "c"]


def test_a_pending_token_never_shows_its_key() -> None:
    pending = authentication.PendingToken("secret-key-123", 7)

    assert "secret" not in repr(pending)
    assert "7" in repr(pending)
