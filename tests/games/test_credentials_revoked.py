"""A revoked token, a changed password or a deactivated account closes the
live sockets they opened (accounts.signals, games.realtime), over the real
Redis channel layer: a stolen token stops playing at once, not only on its
next HTTP request."""

from __future__ import annotations

from contextlib import AsyncExitStack
from io import StringIO
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.management.commands import changepassword
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token

from accounts.models import User
from config.asgi import application
from tests.accounts.factories import (
    PASSWORD,
    UserFactory,
    token_for,
    user_change_form_data,
)
from tests.games.tables import table_started
from tests.games.test_consumers import WAIT, Socket, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

NEW_PASSWORD = "a-new-unusual-passphrase-43"


class SessionSocket(Socket):
    """A browser's socket: the session cookie and our own origin."""

    def __init__(self, table_id: int, session: str) -> None:
        self.comm = WebsocketCommunicator(
            application,
            f"/ws/tables/{table_id}/",
            headers=[
                (b"origin", b"http://localhost"),
                (b"cookie", f"sessionid={session}".encode()),
            ],
        )


def browser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def closed_with(socket: Socket) -> Any:
    """The close code the server sent, skipping frames before it."""
    while True:
        message = await socket.comm.receive_output(WAIT)
        if message["type"] == "websocket.close":
            return message.get("code")


def both_close_when(
    table: Any, token: str, session: str, change: Any, others: str | None = None
) -> None:
    """With a program's socket (``token``) and a browser tab's (``session``)
    open at ``table``, ``change()`` (run in a thread) closes both with 4401;
    a socket opened with ``others`` (someone else's token) stays open."""

    async def go() -> None:
        async with AsyncExitStack() as stack:
            program = await stack.enter_async_context(Socket(table.pk, token))
            tab = await stack.enter_async_context(SessionSocket(table.pk, session))
            other = (
                await stack.enter_async_context(Socket(table.pk, others))
                if others is not None
                else None
            )
            for socket in (program, tab, other):
                if socket is not None:
                    await socket.next("state")
            await database_sync_to_async(change)()
            assert await closed_with(program) == 4401
            assert await closed_with(tab) == 4401
            if other is not None:  # someone else's stays open
                await other.send({"type": "ping"})
                assert (await other.next("pong")) == {"type": "pong"}

    run(go)


def test_revoking_the_token_closes_its_sockets_and_not_the_browsers() -> None:
    ada, bo = UserFactory(), UserFactory()
    table = table_started(seating=[ada, bo])
    token = token_for(ada)
    page = browser(ada)
    session = page.cookies["sessionid"].value

    async def go() -> None:
        async with (
            Socket(table.pk, token) as program,
            SessionSocket(table.pk, session) as tab,
        ):
            assert (await program.next("state"))["seat"] is not None
            assert (await tab.next("state"))["seat"] is not None
            answer = await database_sync_to_async(page.delete)("/api/accounts/token/")
            assert answer.status_code == 204
            assert await closed_with(program) == 4401
            await tab.send({"type": "ping"})
            assert (await tab.next("pong")) == {"type": "pong"}

    run(go)


def test_changing_the_password_closes_every_socket_of_the_person() -> None:
    ada, bo = UserFactory(), UserFactory()
    table = table_started(seating=[ada, bo])
    token = token_for(ada)
    elsewhere = browser(ada)
    session = elsewhere.cookies["sessionid"].value
    here = browser(ada)

    def change() -> None:
        answer = here.post(
            "/api/accounts/password/",
            {"old_password": PASSWORD, "new_password": NEW_PASSWORD},
            content_type="application/json",
        )
        assert answer.status_code == 204

    both_close_when(table, token, session, change, others=token_for(bo))
    # The other browser's session ended with the password; this one's stands.
    assert elsewhere.get("/api/accounts/me/").status_code in (401, 403)
    assert here.get("/api/accounts/me/").json()["username"] == ada.username


def test_a_password_set_in_the_admin_closes_every_socket_of_the_person() -> None:
    """The admin's password page ends what the API's password change ends."""
    ada, bo = UserFactory(), UserFactory()
    table = table_started(seating=[ada, bo])
    token = token_for(ada)
    session = browser(ada).cookies["sessionid"].value
    superuser = browser(UserFactory(is_staff=True, is_superuser=True))

    def change() -> None:
        answer = superuser.post(
            f"/admin/accounts/user/{ada.pk}/password/",
            {
                "password1": NEW_PASSWORD,
                "password2": NEW_PASSWORD,
                "usable_password": "true",
            },
        )
        assert answer.status_code == 302

    both_close_when(table, token, session, change, others=token_for(bo))


def test_a_password_set_with_manage_py_changepassword_ends_the_token_and_sockets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An operator resetting a leaked password from the shell ends what the
    old one opened, as the API and the admin do: a stolen token stopped
    neither at its next request nor on its open socket before."""
    ada = UserFactory()
    table = table_started(seating=[ada, UserFactory()])
    token = token_for(ada)
    session = browser(ada).cookies["sessionid"].value
    monkeypatch.setattr(
        changepassword.getpass, "getpass", lambda prompt="": NEW_PASSWORD
    )

    both_close_when(
        table,
        token,
        session,
        lambda: call_command("changepassword", ada.username, stdout=StringIO()),
    )
    assert not Token.objects.filter(user=ada).exists()
    ada.refresh_from_db()
    assert ada.check_password(NEW_PASSWORD)


def test_changing_ones_password_in_the_admin_closes_ones_sockets() -> None:
    """The admin's "Change password" page ends what the API's ends; the
    browser changing it stays logged in."""
    ada, bo = UserFactory(is_staff=True), UserFactory()
    table = table_started(seating=[ada, bo])
    token = token_for(ada)
    elsewhere = browser(ada)
    session = elsewhere.cookies["sessionid"].value
    here = browser(ada)

    def change() -> None:
        answer = here.post(
            "/admin/password_change/",
            {
                "old_password": PASSWORD,
                "new_password1": NEW_PASSWORD,
                "new_password2": NEW_PASSWORD,
            },
        )
        assert answer.status_code == 302

    both_close_when(table, token, session, change)
    assert elsewhere.get("/api/accounts/me/").status_code in (401, 403)
    assert here.get("/api/accounts/me/").json()["username"] == ada.username


def test_deactivating_an_account_closes_its_sockets() -> None:
    ada, bo = UserFactory(), UserFactory()
    table = table_started(seating=[ada, bo])
    token = token_for(ada)

    async def go() -> None:
        async with Socket(table.pk, token) as program:
            await program.next("state")

            def deactivate() -> None:
                ada.is_active = False
                ada.save()

            await database_sync_to_async(deactivate)()
            assert await closed_with(program) == 4401

    run(go)


def test_making_a_person_a_bot_ends_their_token_sessions_and_sockets() -> None:
    """A superuser turning a person into a house bot: their log-ins are
    refused from then on, and what they had open stops too, or a token or a
    tab would keep playing the seats the server now plays."""
    ada, bo = UserFactory(), UserFactory()
    table = table_started(seating=[ada, bo])
    token = token_for(ada)
    session = browser(ada).cookies["sessionid"].value
    superuser = browser(UserFactory(is_staff=True, is_superuser=True))

    def made_a_bot() -> None:
        data = user_change_form_data(superuser, ada)
        data.update(is_bot="on", bot_level="random")
        answer = superuser.post(f"/admin/accounts/user/{ada.pk}/change/", data)
        assert answer.status_code == 302, answer.content

    both_close_when(table, token, session, made_a_bot)
    ada.refresh_from_db()
    assert ada.is_bot
    assert not Token.objects.filter(user=ada).exists()


def test_logging_out_closes_that_sessions_sockets_only() -> None:
    """Another tab of a browser that logged out stops playing as the person;
    the person's other browser and their program play on."""
    ada, bo = UserFactory(), UserFactory()
    table = table_started(seating=[ada, bo])
    token = token_for(ada)
    leaving, staying = browser(ada), browser(ada)

    async def go() -> None:
        async with (
            SessionSocket(table.pk, leaving.cookies["sessionid"].value) as tab,
            SessionSocket(table.pk, staying.cookies["sessionid"].value) as other,
            Socket(table.pk, token) as program,
        ):
            for socket in (tab, other, program):
                await socket.next("state")
            answer = await database_sync_to_async(leaving.post)("/api/accounts/logout/")
            assert answer.status_code == 204
            assert await closed_with(tab) == 4401
            for socket in (other, program):
                await socket.send({"type": "ping"})
                assert (await socket.next("pong")) == {"type": "pong"}

    run(go)
    assert staying.get("/api/accounts/me/").json()["username"] == ada.username
