"""A failure while a table is read logs where it happened, never a card.

Reading a table builds views and redacted events from the match's state, as a
move does; a bug there (``KeyError: 'QH'``, ``'7S' is not in list``) raises
with a message that may quote a card of a hand or of the stock. The move's own
path logs such failures without the message (docs/operations.md, "Logs");
these tests hold the reads to the same rule: the REST table views, the live
socket (its first frame, and frames it reads later) and the admin's event
page. Every logger is at DEBUG while they run.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Permission
from django.db import connections
from django.test import Client

import rules
from config.asgi import application
from games import consumers
from games.models import GameEvent, Table
from tests.accounts.factories import UserFactory, token_for
from tests.games.conftest import Player
from tests.games.leak_payloads import LogBook, every_log_at_debug
from tests.games.tables import seat_users, table_started

GAME = rules.get_game("alkort")


@pytest.fixture
def book() -> Iterator[LogBook]:
    with every_log_at_debug() as book:
        yield book


def in_play() -> tuple[Table, str]:
    """A two-player Alkort table in play, and a card of seat 1's hand."""
    table = table_started(
        game="alkort", seating=[UserFactory(), UserFactory()], options={"target": 1}
    )
    return table, GAME.load_state(table.state).hands[1][0]


def crash(monkeypatch: pytest.MonkeyPatch, method: str, card: str) -> None:
    """Make the rules' ``method`` fail the way a bug would, quoting ``card``."""

    def failing(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise KeyError(card)

    monkeypatch.setattr(type(GAME), method, failing)


def assert_logged_without(book: LogBook, card: str, where: str) -> None:
    text = "\n".join(book.lines)
    assert where in text
    assert "KeyError (its message left out: it may name hidden cards)" in text
    assert card not in text, text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "view"),
    [
        ("view", "", "TableDetailApi"),
        ("redact", "events/", "EventListApi"),
        ("redact", "export/", "TableExportApi"),
        ("legal_actions", "", "TableDetailApi"),
    ],
)
def test_a_failing_rest_read_answers_500_and_logs_no_card(
    player: Callable[..., Player],
    monkeypatch: pytest.MonkeyPatch,
    book: LogBook,
    method: str,
    path: str,
    view: str,
) -> None:
    table, card = in_play()
    seat_one = player(seat_users(table)[1])
    crash(monkeypatch, method, card)
    response = seat_one.get(f"/api/tables/{table.pk}/{path}")
    assert response.status_code == 500
    assert response.json() == {
        "code": "server_error",
        "message": "Internal server error.",
    }
    assert_logged_without(book, card, f"Unhandled exception in {view}")


@pytest.mark.django_db
def test_a_move_whose_answer_fails_logs_no_card(
    player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch, book: LogBook
) -> None:
    table, card = in_play()
    seat_one = player(seat_users(table)[1])
    action = GAME.legal_actions(GAME.load_state(table.state), 1)[0]
    crash(monkeypatch, "view", card)
    response = seat_one.post(f"/api/tables/{table.pk}/actions/", {"action": action})
    assert response.status_code == 500
    assert_logged_without(book, card, "Unhandled exception in ActionSubmitApi")


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
@pytest.mark.parametrize("token", [False, True])
def test_a_socket_whose_frame_fails_closes_and_logs_no_card(
    monkeypatch: pytest.MonkeyPatch, book: LogBook, token: bool
) -> None:
    """Its first frame, as a spectator or as seat 1: closed with 1011 (the
    client reconnects), the failure logged without its message."""
    table, card = in_play()
    query = f"?token={token_for(seat_users(table)[1])}" if token else ""
    crash(monkeypatch, "view", card)

    async def go() -> Any:
        comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/{query}")
        connected, _ = await comm.connect(timeout=10)
        assert connected
        closed = await comm.receive_output(timeout=10)
        await comm.wait(timeout=10)
        # The threads that served the socket (its token's lookup, its
        # database work) keep their connections: let them go, or the test
        # database could not be dropped after the last test.
        await database_sync_to_async(connections.close_all)()
        await consumers._db(connections.close_all)()
        return closed

    assert asyncio.run(go()) == {"type": "websocket.close", "code": 1011}
    assert_logged_without(book, card, f"Live play: the socket of table {table.pk}")


@pytest.mark.django_db
def test_a_failing_event_in_the_admin_is_shown_as_such_and_logs_no_card(
    monkeypatch: pytest.MonkeyPatch, book: LogBook
) -> None:
    table, card = in_play()
    staff_user = UserFactory(is_staff=True)
    staff_user.user_permissions.set(
        Permission.objects.filter(codename="view_gameevent")
    )
    staff = Client()
    staff.force_login(staff_user)
    dealt = GameEvent.objects.get(table=table, seq=2)
    crash(monkeypatch, "redact", card)
    response = staff.get(f"/admin/games/gameevent/{dealt.pk}/change/")
    assert response.status_code == 200
    assert "(could not be shown: the failure is logged)" in response.content.decode()
    # The page's CSRF tokens are random letters and digits, where a card's two
    # characters ("7C") turn up now and then: they are left out of the check.
    page = re.sub(
        r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode()
    )
    assert card not in page
    assert_logged_without(book, card, f"event 2 of table {table.pk}")
