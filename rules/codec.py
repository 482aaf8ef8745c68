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
from collections.abc import Callable
from typing import Any, Union


def dump(value: Any) -> Any:
    """The JSON form of a state (dataclasses become objects, tuples lists,
    sets sorted lists, dicts ``[key, value]`` pairs).

    Each type's way of dumping is decided on its first value and kept
    (``_dumper``), so a state is dumped without asking ``dataclasses`` for
    its fields on every value of every move.
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    dumper = _dumpers.get(kind)
    if dumper is None:
        dumper = _dumpers[kind] = _dumper(kind)
    return dumper(value)


_SCALARS = frozenset({str, int, float, bool, type(None)})
_dumpers: dict[type, Callable[[Any], Any]] = {}


def _dumper(kind: type) -> Callable[[Any], Any]:
    if dataclasses.is_dataclass(kind):
        names = tuple(f.name for f in dataclasses.fields(kind))
        return lambda value: {n: dump(getattr(value, n)) for n in names}
    if issubclass(kind, tuple | list):
        return lambda value: [dump(v) for v in value]
    if issubclass(kind, frozenset | set):
        return lambda value: sorted((dump(v) for v in value), key=repr)
    if issubclass(kind, dict):
        return lambda value: [[dump(k), dump(v)] for k, v in value.items()]
    return _same  # a scalar of another kind, left to the JSON encoder


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def load(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from :func:`dump`'s output.

    Refuses data that does not fit ``tp`` (``TypeError``, ``ValueError`` or
    ``KeyError``). The type is read once: each type gets a loader built from
    its hints on first use and kept (``_loader``), so a state is rebuilt
    without asking ``typing`` about every value again.
    """
    return _loader(tp)(data)


_Load = Callable[[Any], Any]


def _loader(tp: Any) -> _Load:
    """The function that loads data of type ``tp``, built once per type."""
    try:
        return _loaders(tp)
    except TypeError:  # an unhashable type: built each time
        return _build(tp)


@functools.cache
def _loaders(tp: Any) -> _Load:
    return _build(tp)


def _same(data: Any) -> Any:
    return data


def _build(tp: Any) -> _Load:  # noqa: C901 (one branch per kind of type)
    if tp is Any:
        return _same
    origin = typing.get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return _union(tp)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _loader(args[0])
            return lambda data: tuple([item(v) for v in data])
        items = [_loader(a) for a in args]
        return lambda data: tuple([f(v) for f, v in zip(items, data, strict=True)])
    if origin in (frozenset, set):
        (arg,) = typing.get_args(tp)
        item = _loader(arg)
        return lambda data: origin([item(v) for v in data])
    if origin is list:
        (arg,) = typing.get_args(tp)
        item = _loader(arg)
        return lambda data: [item(v) for v in data]
    if origin is dict:
        kt, vt = typing.get_args(tp)
        key, value = _loader(kt), _loader(vt)
        return lambda data: {key(k): value(v) for k, v in data}
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass(tp)
    if origin is typing.Literal:
        allowed = typing.get_args(tp)

        def literal(data: Any) -> Any:
            if data not in allowed:
                raise ValueError(f"{data!r} is not one of {allowed}")
            return data

        return literal
    if tp in (int, str, bool, float):
        return _scalar(tp)
    if tp is type(None):

        def none(data: Any) -> None:
            if data is not None:
                raise TypeError("expected null")

        return none
    if tp is dict or tp is list:
        return _same

    def unknown(data: Any) -> Any:
        raise TypeError(f"The state codec cannot load {tp!r}")

    return unknown


def _union(tp: Any) -> _Load:
    args = typing.get_args(tp)
    optional = type(None) in args
    arms = [_loader(arg) for arg in args if arg is not type(None)]

    def union(data: Any) -> Any:
        if data is None and optional:
            return None
        for arm in arms:
            try:
                return arm(data)
            except (TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"{data!r} does not fit {tp}")

    return union


def _dataclass(tp: type) -> _Load:
    # The fields' loaders are built on first use, so a class may refer to
    # itself (or to a class that refers back) through its hints; the list is
    # published whole, so another thread never sees it half built.
    fields: list[tuple[str, _Load]] | None = None

    def dataclass(data: Any) -> Any:
        nonlocal fields
        if not isinstance(data, dict):
            raise TypeError(f"{tp.__name__} expects an object")
        if fields is None:
            hints = _hints(tp)
            fields = [
                (f.name, _loader(hints[f.name]))
                for f in dataclasses.fields(tp)
                if f.init
            ]
        return tp(**{name: load(data[name]) for name, load in fields})

    return dataclass


def _scalar(tp: type) -> _Load:
    def scalar(data: Any) -> Any:
        if type(data) is tp:  # the usual case
            return data
        if tp is int and isinstance(data, bool):
            raise TypeError("bool is not int")
        if not isinstance(data, tp):
            if tp is float and isinstance(data, int):
                return float(data)
            raise TypeError(f"{data!r} is not {tp.__name__}")
        return data

    return scalar
