"""Fast JSON for the hot path: the cached state, events and answers of a move.

``state_dump`` gives exactly what ``game.dump_state`` gives (``rules.codec.dump``:
dataclasses as objects, tuples as lists, sets sorted by ``repr``, dicts as
``[key, value]`` pairs), about five times faster: each state class's field
names are looked up once and kept, instead of asking ``dataclasses`` on every
value of every move. A test holds the two equal over whole matches of every
game (``tests/games/test_state_codec.py``); ``game.load_state`` reads either.

``json_text`` encodes with ``orjson`` (ten times ``json.dumps``), falling back
to ``json.dumps`` for what orjson refuses (an integer beyond 64 bits in a
player's action), so the output is always the JSON the column stores.
``json_value`` reads a column back exactly as Django would.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import orjson

_SCALARS = frozenset({str, int, float, bool, type(None)})
_Dumper = Callable[[Any], Any]
_dumpers: dict[type, _Dumper] = {}


def state_dump(value: Any) -> Any:
    """The JSON-safe form of a state: equal to ``rules.codec.dump(value)``."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    dumper = _dumpers.get(kind)
    if dumper is None:
        dumper = _dumpers[kind] = _dumper_for(kind)
    return dumper(value)


def _dumper_for(kind: type) -> _Dumper:
    if dataclasses.is_dataclass(kind):
        names = tuple(f.name for f in dataclasses.fields(kind))
        return lambda value: {n: state_dump(getattr(value, n)) for n in names}
    if issubclass(kind, tuple | list):
        return lambda value: [state_dump(v) for v in value]
    if issubclass(kind, frozenset | set):
        return lambda value: sorted((state_dump(v) for v in value), key=repr)
    if issubclass(kind, dict):
        return lambda value: [[state_dump(k), state_dump(v)] for k, v in value.items()]
    return lambda value: value  # as rules.codec.dump: left to the JSON encoder


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
