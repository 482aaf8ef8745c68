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
"""

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


class PeopleTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, except for bot accounts."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if "\x00" in key:  # no token holds one, and PostgreSQL refuses it
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        pg = db.pg_connection()
        if pg is not None:  # prepared once per connection, sent without a cursor
            [rows] = db.send(pg, [_TOKEN], {"key": key})
        else:
            with connection.cursor() as cursor:
                cursor.execute(_TOKEN.sql, {"key": key})
                rows = cursor.fetchall()
        if not rows:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        row = rows[0]
        split = len(_USER_ATTNAMES)
        user = User.from_db(connection.alias, _USER_ATTNAMES, row[:split])
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if user.is_bot:
            raise exceptions.AuthenticationFailed(BOT_API_MESSAGE, code="bot_account")
        token = Token.from_db(connection.alias, _TOKEN_ATTNAMES, row[split:])
        token.user = user
        return user, token
