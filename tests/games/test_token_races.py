"""A move racing the revocation of its token, on the real PostgreSQL and
Redis: once ``DELETE /api/accounts/token/`` has returned, no move made with
that token lands, over HTTP or on a socket opened with it.

The table is held by another transaction (a move in progress) while the
token's move waits for it; the revocation runs meanwhile. Each side runs in a
thread (and connection) of its own (``tests.races``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import authentication
from accounts.models import User
from games.models import GameEvent, Table
from games.services.locking import table_lock
from tests.accounts.factories import token_for
from tests.games.tables import two_people_to_move
from tests.games.test_consumers import WAIT, Socket, run
from tests.races import Holder, holding, in_background, wait_for_lock_waiters

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def _revoker(user: User, table: Table) -> Any:
    """Revoke ``user``'s token from their browser; the table's seq read as
    soon as the revocation has returned."""
    browser = Client()
    browser.force_login(user)

    def revoke() -> int:
        answer = browser.delete("/api/accounts/token/")
        assert answer.status_code == 204
        return Table.objects.get(pk=table.pk).seq

    return revoke


@pytest.mark.parametrize("seen", [True, False], ids=["key seen", "key new"])
def test_no_http_move_lands_after_its_token_was_revoked(seen: bool) -> None:
    """``seen``: the process has seen the key authenticate (the move carries
    its check); otherwise the key is looked up by a query of its own first."""
    table, mover, move = two_people_to_move()
    key = token_for(mover)
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert program.get(f"/api/tables/{table.pk}/").status_code == 200
    if not seen:
        authentication._forget(key)
    url = f"/api/tables/{table.pk}/actions/"

    with holding(lambda: table_lock(table.pk)):
        moving = in_background(lambda: program.post(url, move, format="json"))
        wait_for_lock_waiters(1)  # the move waits for the table
        revoking = in_background(_revoker(mover, table))
        # With the token's row held by the move, the revocation waits too.
        wait_for_lock_waiters(2, unless=revoking.done)
    seq_when_revoked = revoking.wait().get()
    answer = moving.wait().get()

    assert Table.objects.get(pk=table.pk).seq == seq_when_revoked
    assert answer.status_code == 200  # it got in line before the revocation
    assert not Token.objects.filter(key=key).exists()


def test_a_password_change_waits_for_a_token_move_in_line() -> None:
    """The person changes their password (which deletes the token) while a
    move made with it waits for its table: the change waits for the move,
    which lands before it returns. The change locked the person's row FOR
    UPDATE, which the move's commit needs shared for its events' actor: the
    two deadlocked and the move answered 500."""
    table, mover, move = two_people_to_move()
    mover.set_password("the old one")
    mover.save(update_fields=["password"])
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {token_for(mover)}")
    browser = Client()
    browser.force_login(mover)
    url = f"/api/tables/{table.pk}/actions/"

    def change() -> int:
        answer = browser.post(
            "/api/accounts/password/",
            {"old_password": "the old one", "new_password": "a-new-Passw0rd-xyz"},
            content_type="application/json",
        )
        assert answer.status_code == 204, answer.content
        return Table.objects.get(pk=table.pk).seq

    with holding(lambda: table_lock(table.pk)):
        moving = in_background(lambda: program.post(url, move, format="json"))
        wait_for_lock_waiters(1)  # the move waits for the table
        changing = in_background(change)
        wait_for_lock_waiters(2, unless=changing.done)  # the change, for the move
    seq_when_changed = changing.wait().get()
    answer = moving.wait().get()

    assert answer.status_code == 200, answer.content
    assert Table.objects.get(pk=table.pk).seq == seq_when_changed == table.seq + 1
    assert not Token.objects.filter(user=mover).exists()


def test_no_socket_move_lands_after_its_token_was_revoked() -> None:
    """A socket opened with ``?token=`` sends a move while the table is held;
    the token is revoked while the move waits. The move lands before the
    revocation returns (the revocation waits for it), never after."""
    table, mover, move = two_people_to_move()
    key = token_for(mover)
    holder = Holder(lambda: table_lock(table.pk), None)
    revoke = _revoker(mover, table)

    def waiters(count: int, unless: Any = None) -> None:
        in_background(lambda: wait_for_lock_waiters(count, unless=unless)).wait().get()

    async def go() -> None:
        async with Socket(table.pk, key) as program:
            await program.next("state")
            await asyncio.to_thread(holder.start)
            try:
                await program.send({"type": "act", **move})
                await asyncio.to_thread(waiters, 1)  # the move waits for the table
                revoking = in_background(revoke)
                await asyncio.to_thread(waiters, 2, revoking.done)
            finally:
                await asyncio.to_thread(holder.release)
            revoked.append(await asyncio.to_thread(lambda: revoking.wait().get()))
            # The socket handles one message at a time: its close (the
            # revocation's) comes once its move has been answered.
            while True:
                message = await program.comm.receive_output(WAIT)
                if message["type"] == "websocket.close":
                    assert message["code"] == 4401
                    break

    revoked: list[int] = []
    run(go)
    assert Table.objects.get(pk=table.pk).seq == revoked[0] == table.seq + 1


def test_a_socket_whose_token_is_gone_cannot_move() -> None:
    """The token deleted before the socket heard of it (its close still on
    the way): the move is refused with the API's 401 body, nothing is
    written, and the socket closes with 4401."""
    table, mover, move = two_people_to_move()
    key = token_for(mover)

    async def go() -> None:
        async with Socket(table.pk, key) as program:
            await program.next("state")
            # Deleted without the signal that closes the socket: the close
            # has not reached it yet.
            await asyncio.to_thread(
                lambda: (
                    in_background(
                        lambda: Token.objects.filter(key=key)._raw_delete("default")
                    )
                    .wait()
                    .get()
                )
            )
            await program.send({"type": "act", "command_id": "c1", **move})
            assert await program.next("error") == {
                "type": "error",
                "code": "authentication_failed",
                "message": "Invalid token.",
                "command_id": "c1",
            }
            closing = await program.comm.receive_output(WAIT)
            assert closing == {"type": "websocket.close", "code": 4401}

    run(go)
    assert Table.objects.get(pk=table.pk).seq == table.seq
    assert GameEvent.objects.filter(table=table).count() == table.seq
