"""JSON form of game states (frozen dataclasses), for the table's cached projection.

States are trees of frozen dataclasses, tuples, frozensets, dicts, ``None`` and
scalars. :func:`dump` turns one into plain JSON; :func:`load` rebuilds it from the
dataclass's type hints, so a game needs no serializer of its own. The cache is a
projection: if a state class changes shape, the store rebuilds it from events.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Hand:
...     seat: int
...     cards: tuple[str, ...]
>>> load(Hand, dump(Hand(1, ("QH", "TC"))))
Hand(seat=1, cards=('QH', 'TC'))
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, Union


def dump(value: Any) -> Any:
    """The JSON form of a state (dataclasses become objects, tuples lists)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: dump(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [dump(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted((dump(v) for v in value), key=repr)
    if isinstance(value, dict):
        return [[dump(k), dump(v)] for k, v in value.items()]
    return value


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def load(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from :func:`dump`'s output."""
    if tp is Any:
        return data
    origin = typing.get_origin(tp)
    if origin is Union or origin is types.UnionType:
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return load(arg, data)
            except (TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"{data!r} does not fit {tp}")
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(load(args[0], v) for v in data)
        return tuple(load(a, v) for a, v in zip(args, data, strict=True))
    if origin in (frozenset, set):
        (arg,) = typing.get_args(tp)
        return origin(load(arg, v) for v in data)
    if origin is list:
        (arg,) = typing.get_args(tp)
        return [load(arg, v) for v in data]
    if origin is dict:
        kt, vt = typing.get_args(tp)
        return {load(kt, k): load(vt, v) for k, v in data}
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(data, dict):
            raise TypeError(f"{tp.__name__} expects an object")
        hints = _hints(tp)
        return tp(
            **{
                f.name: load(hints[f.name], data[f.name])
                for f in dataclasses.fields(tp)
                if f.init
            }
        )
    if typing.get_origin(tp) is typing.Literal:
        if data not in typing.get_args(tp):
            raise ValueError(f"{data!r} is not one of {typing.get_args(tp)}")
        return data
    if tp in (int, str, bool, float):
        if tp is int and isinstance(data, bool):
            raise TypeError("bool is not int")
        if not isinstance(data, tp):
            if tp is float and isinstance(data, int):
                return float(data)
            raise TypeError(f"{data!r} is not {tp.__name__}")
        return data
    if tp is type(None):
        if data is not None:
            raise TypeError("expected null")
        return None
    if tp is dict or tp is list:
        return data
    raise TypeError(f"The state codec cannot load {tp!r}")
