"""API token authentication that refuses bot accounts.

Every API request with ``Authorization: Token <key>`` runs this lookup, so it
is one plain query for the token's user (``accounts_user`` joined on
``authtoken_token``) built into a ``User`` directly: DRF's
``select_related("user").get(key=...)`` spent about five times as long
composing the query and building the two model instances as the database
spent answering it (docs/performance.md). On PostgreSQL the query is
prepared once per connection and sent without a cursor (``config.db``): a
third less time than through Django's cursor, which had it planned on every
request. The answers are DRF's own.

A move (``POST /api/tables/{id}/actions/``) does not wait for that query: it
takes a key this process has already seen authenticate as naming the same
person, and the move's own first message to the database (the table's lock)
carries the token's query too, checked before anything else in the answer is
used (``PendingToken``): a token deleted or a person deactivated meanwhile is
refused with the same 401, under the lock, before anything is written. A
request that fails before its move gets the token checked on its own first
(``ActionSubmitApi.handle_exception``), so an invalid token is answered 401
whatever else is wrong (docs/event-store.md). Every move made with a token
(a key checked by its own query first, a socket opened with ``?token=``) has
it checked in the move's message again, holding the token's row, so no move
lands after the token's revocation has returned.
"""

import threading
from typing import Any

from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from accounts.models import User
from config import db

BOT_API_MESSAGE = "Bot accounts are played by the server and cannot use the API."

_USER_ATTNAMES = [f.attname for f in User._meta.concrete_fields]
_TOKEN_ATTNAMES = [f.attname for f in Token._meta.concrete_fields]
# The user's columns, then the token's, in the models' own field order.
_TOKEN = db.Statement(
    "cardroom_token_user",
    "SELECT {}, {} FROM {} t JOIN {} u ON u.{} = t.user_id "
    "WHERE t.key = %(key)s".format(
        ", ".join(f'u."{f.column}"' for f in User._meta.concrete_fields),
        ", ".join(f't."{f.column}"' for f in Token._meta.concrete_fields),
        Token._meta.db_table,
        User._meta.db_table,
        User._meta.pk.column,
    ),
    ("key",),
)
#: The same query for a move, holding the token's row (``FOR KEY SHARE``)
#: until the move's transaction ends: deleting the token (a revocation, a
#: password change) waits for a move that got in line with it, and a move
#: that comes after the deletion finds no token. So once the revocation has
#: returned, no move made with the key lands (``PendingToken``).
_TOKEN_HELD = db.Statement(
    "cardroom_token_user_held", _TOKEN.sql + " FOR KEY SHARE OF t", _TOKEN.params
)


#: Keys this process has seen authenticate, with their rows (``_TOKEN``'s),
#: newest last: what a move (``PeopleTokenAuthentication.later``) trusts
#: until its transaction checks it. Bounded; a key not here takes the query
#: first.
_KNOWN: dict[str, tuple[Any, ...]] = {}
_KNOWN_MAX = 10_000
_known_lock = threading.Lock()


def _remember(key: str, row: tuple[Any, ...]) -> None:
    with _known_lock:
        _KNOWN.pop(key, None)
        _KNOWN[key] = row
        if len(_KNOWN) > _KNOWN_MAX:
            del _KNOWN[next(iter(_KNOWN))]


def _forget(key: str) -> None:
    with _known_lock:
        _KNOWN.pop(key, None)


def _token_rows(key: str) -> list[tuple[Any, ...]]:
    """``_TOKEN``'s rows for ``key``: none, or the token's."""
    pg = db.pg_connection()
    if pg is not None:  # prepared once per connection, sent without a cursor
        [rows] = db.send(pg, [_TOKEN], {"key": key})
        return rows
    with connection.cursor() as cursor:
        cursor.execute(_TOKEN.sql, {"key": key})
        return cursor.fetchall()


_ID, _ACTIVE, _BOT = (_USER_ATTNAMES.index(n) for n in ("id", "is_active", "is_bot"))


def _usable_row(key: str, rows: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """The one row of ``_TOKEN``'s ``rows`` for ``key``, remembered; DRF's
    401 when there is none or its user may not use the API."""
    row = rows[0] if rows else None
    if row is None or not row[_ACTIVE] or row[_BOT]:
        _forget(key)
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not row[_ACTIVE]:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        raise exceptions.AuthenticationFailed(BOT_API_MESSAGE, code="bot_account")
    _remember(key, row)
    return row


def _credentials(key: str, rows: list[tuple[Any, ...]]) -> tuple[User, Token]:
    """The user and token of ``_TOKEN``'s ``rows`` for ``key`` (``_usable_row``)."""
    row = _usable_row(key, rows)
    split = len(_USER_ATTNAMES)
    user = User.from_db(connection.alias, _USER_ATTNAMES, row[:split])
    token = Token.from_db(connection.alias, _TOKEN_ATTNAMES, row[split:])
    token.user = user
    return user, token


class PeopleTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, except for bot accounts.

    For a view with ``token_checked_in_move`` (the move's), a key this
    process has seen authenticate is taken as naming the same person for now
    and checked in the move's own transaction (``PendingToken``), saving the
    request a round trip to the database. Only on PostgreSQL, where the move
    can carry the check in its first message; any other key, or database,
    takes the query first.
    """

    later = False

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        view = (getattr(request, "parser_context", None) or {}).get("view")
        self.later = (
            getattr(view, "token_checked_in_move", False)
            and connection.vendor == "postgresql"
        )
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if "\x00" in key:  # no token holds one, and PostgreSQL refuses it
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        row = _KNOWN.get(key) if self.later else None
        if row is None:
            return _credentials(key, _token_rows(key))
        user = User.from_db(
            connection.alias, _USER_ATTNAMES, row[: len(_USER_ATTNAMES)]
        )
        return user, PendingToken(key, user.pk)


class PendingToken:
    """A move's token, checked in the move's own transaction.

    The ``request.auth`` of a move whose token is not checked yet; and what
    every move made with a token brings to be checked again (the API's, a
    socket's ``act``), since a token checked before the move's transaction
    may be revoked before the move lands.

    ``statement`` and ``params`` go into the move's first message to the
    database, ahead of the table's lock, and ``check`` judges their rows
    before anything else in that answer is used
    (``games.services.locking.table_lock_seats``). The statement holds the
    token's row until the move commits (``FOR KEY SHARE``), so a revocation
    waits for the move, or the move finds the token gone: either way nothing
    made with the token lands once ``DELETE /api/accounts/token/`` (or a
    password change) has returned. ``confirm`` checks with a query of its
    own: for a request that fails before its move, and on SQLite, where the
    move's transaction already holds the database's write lock. Either raises
    DRF's 401 unless the key still names the same active person.
    """

    statement = _TOKEN_HELD

    def __init__(self, key: str, user_id: int) -> None:
        self.key = key
        self.user_id = user_id
        self.checked = False

    @property
    def params(self) -> dict[str, Any]:
        return {"key": self.key}

    def check(self, rows: list[tuple[Any, ...]]) -> None:
        self.checked = True
        if _usable_row(self.key, rows)[_ID] != self.user_id:  # now someone else's
            _forget(self.key)
            raise exceptions.AuthenticationFailed(_("Invalid token."))

    def confirm(self) -> None:
        if not self.checked:
            self.check(_token_rows(self.key))

    def __repr__(self) -> str:  # never the key itself, in a log or a trace
        return f"<PendingToken of user {self.user_id}>"
