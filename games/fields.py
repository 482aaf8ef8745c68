"""Model fields of the games app."""

from __future__ import annotations

from typing import Any

from django.db import models

from games.state_codec import json_text


class JSONTextField(models.JSONField):
    """A JSON value kept as its text: a ``text`` column on PostgreSQL, where
    ``JSONField`` makes a ``jsonb`` one (elsewhere the two are the same).

    For a value that is written whole on every move and read whole, never
    queried inside (the table's cached state): PostgreSQL then stores the
    text as it comes, instead of parsing it into ``jsonb`` on each write and
    printing it back on each read, and the row stays small enough to be kept
    uncompressed (a state's ``jsonb`` is 1.5 to 2.3 times its text, which put
    the row over the 2 KB at which PostgreSQL compresses it). Measured on
    eight clients: 0.05 ms less of PostgreSQL's CPU a move
    (docs/performance.md).

    Reads and writes go through Python as for ``JSONField`` (``None`` is SQL
    ``NULL``; the text is written by ``games.state_codec.json_text``, which
    keeps integers of any size). There are no lookups inside the value (a
    key transform raises ``FieldError``); ``icontains`` and the like compare
    the text.
    """

    def db_type(self, connection: Any) -> str | None:
        if connection.vendor == "postgresql":
            return "text"
        return super().db_type(connection)

    def get_db_prep_value(
        self, value: Any, connection: Any, prepared: bool = False
    ) -> Any:
        if connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        if hasattr(value, "as_sql"):  # an expression, compiled by the ORM
            return value
        return json_text(value)

    def get_transform(self, name: str) -> Any:
        # Only the registered transforms: no key transforms into the text.
        return models.Field.get_transform(self, name)
