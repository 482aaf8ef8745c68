"""Frozen records shared by every game: a fast copy, and options to and from JSON.

Every game keeps its state in frozen, slotted dataclasses and builds one new
record per event, so the cost of a copy is most of the engine's speed.
:func:`replacer` gives the one fast copy every game uses. :class:`OptionsRecord`
is the base of each game's ``Rules`` (the validated options as a record), so
that options travel to and from JSON the same way in all three games.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Point(OptionsRecord):
...     x: int
...     ys: tuple[int, ...] | None
>>> move = replacer(Point)
>>> move(Point(1, (2,)), x=5)
Point(x=5, ys=(2,))
>>> Point.from_options({"x": 1, "ys": [2, 3]}).to_options()
{'x': 1, 'ys': [2, 3]}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")
O = TypeVar("O", bound="OptionsRecord")  # noqa: E741


def replacer(cls: type[T]) -> Callable[..., T]:
    """A fast ``dataclasses.replace`` for one frozen, slotted dataclass.

    ``copy = replacer(State)`` then ``copy(state, phase="over")``: the same
    result as ``dataclasses.replace``, which goes through the frozen
    ``__init__`` (one ``object.__setattr__`` per field, several times slower
    for a twenty-field state). The copy is one straight-line function built
    once per class from the class's own field names; only keyword arguments
    naming fields are accepted, as with ``replace``.
    """
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_M": object()}
    env.update({f"_s_{n}": getattr(cls, n).__set__ for n in names})
    params = ", ".join(f"{n}=_M" for n in names)
    body = "".join(f"    _s_{n}(o, s.{n} if {n} is _M else {n})\n" for n in names)
    source = f"def copy(s, *, {params}):\n    o = _new(_cls)\n{body}    return o\n"
    exec(source, env)  # noqa: S102 - built from the class's own field names
    copy: Callable[..., T] = env["copy"]
    copy.__doc__ = f"A copy of a {cls.__name__} with the given fields changed."
    return copy


class OptionsRecord:
    """Base of a game's ``Rules``: validated options as a frozen record.

    Fields are the option names. In JSON (``match_started.options``, views)
    a tuple field is a list; in the record it is a tuple, so the record stays
    hashable and immutable.
    """

    __slots__ = ()

    @classmethod
    def from_options(cls: type[O], options: Mapping[str, Any]) -> O:
        """The record of a complete, validated options dict."""
        values = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            value = options[f.name]
            values[f.name] = tuple(value) if isinstance(value, list) else value
        return cls(**values)

    def to_options(self) -> dict[str, Any]:
        """The JSON-safe options dict (as stored in ``match_started``)."""
        out = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out
