"""Fast JSON for the hot path: the cached state, events and answers of a move.

The state itself is put in JSON form by the rules' own codec
(``game.dump_state``, ``rules.codec``), which decides each class's fields once.

``json_text`` encodes with ``orjson`` (ten times ``json.dumps``), falling back
to ``json.dumps`` for what orjson refuses (an integer beyond 64 bits in a
player's action), so the output is always the JSON the column stores.
``json_value`` reads a column back exactly as Django would.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def json_text(value: Any) -> str:
    """``value`` as JSON text (orjson; ``json.dumps`` for what it refuses)."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except TypeError:
        return json.dumps(value)


def json_value(text: str | bytes | Any) -> Any:
    """A JSON column as read by a raw query: text is parsed, values pass.

    ``json.loads``, as Django's JSONField reads it: orjson would turn an
    integer beyond 64 bits into a float, and a retried command carrying one
    would no longer equal the stored one.
    """
    if isinstance(text, str | bytes):
        return json.loads(text)
    return text
