"""Match options: one bounded definition per option, and the validation of a whole set.

Each game lists its options as :class:`Option` values (``rules/<game>/options.py``);
``Game.options_schema()`` shows them, bounds included, and
``Game.validate_options`` fills the defaults and refuses anything else with an
InvalidOptions naming the option and the bound. ``rules.core`` re-exports them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import InvalidOptions

#: The largest options object a match accepts, as compact JSON (bytes). Every
#: option is bounded on its own; this cap refuses an oversized request before
#: any option is looked at.
MAX_OPTIONS_BYTES = 4096

#: A whole number written as a string, in its one canonical spelling ("0",
#: "11", "-1"; not "+1", "01", "-0", " 1" or "1.0"): the keys of the map form
#: of a ``multiset`` option, as JSON objects have string keys.
_WHOLE_NUMBER_TEXT = re.compile(r"0|-?[1-9][0-9]*", re.ASCII)


def _shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` for a message, cut short when it is long."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number too long to show"
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class Option:
    """One match option: its name, kind, default and allowed values.

    Every option is bounded, so that no request can make a match huge or
    endless: an ``int`` has ``minimum`` and ``maximum`` (or ``choices``), a
    ``choice`` its ``choices``, and an ``int_list`` a ``max_length`` with
    ``minimum`` and ``maximum`` bounding each value. ``__post_init__`` refuses
    an unbounded definition, so a new option cannot forget its bounds.

    An ``int_list`` with ``multiset`` set is a bag of values whose order means
    nothing (a deck: every card value as often as it has copies). It is also
    accepted as a map value → count (``{"1": 3, "-1": 2}`` or ``{1: 3, -1: 2}``;
    keys are whole numbers or their decimal text, counts whole numbers ≥ 0),
    and either form is validated to one canonical value: the list sorted
    ascending. ``max_length`` then bounds the number of values (the sum of
    the counts), ``minimum`` and ``maximum`` each value (each key).
    """

    name: str
    default: Any
    description: str
    kind: str = "bool"  # "bool" | "int" | "choice" | "int_list"
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    max_length: int | None = None
    multiset: bool = False

    def __post_init__(self) -> None:
        if self.multiset and self.kind != "int_list":
            raise TypeError(f"Option {self.name!r} ({self.kind}) cannot be a multiset")
        bounded = {
            "bool": True,
            "int": bool(self.choices)
            or (self.minimum is not None and self.maximum is not None),
            "choice": bool(self.choices),
            "int_list": self.max_length is not None
            and self.minimum is not None
            and self.maximum is not None,
        }
        if not bounded.get(self.kind, False):
            raise TypeError(f"Option {self.name!r} ({self.kind}) must be bounded")

    def to_json(self) -> dict[str, Any]:
        """The option's entry in ``Game.options_schema()``, bounds included."""
        data: dict[str, Any] = {
            "type": self.kind,
            "default": self.default,
            "description": self.description,
        }
        if self.choices:
            data["choices"] = list(self.choices)
        if self.kind == "int_list":
            data["max_length"] = self.max_length
            data["items"] = {"type": "int", "min": self.minimum, "max": self.maximum}
        else:
            if self.minimum is not None:
                data["min"] = self.minimum
            if self.maximum is not None:
                data["max"] = self.maximum
        if self.nullable:
            data["nullable"] = True
        return data

    def _check_int(self, value: Any, what: str) -> None:
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(f"{what} must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(f"{what} must be at most {self.maximum}")

    def _count_key(self, key: Any) -> int:
        """One key of a multiset's map form as a whole number, within the bounds."""
        if isinstance(key, str) and _WHOLE_NUMBER_TEXT.fullmatch(key):
            # Twenty digits are past any bound already; cutting a longer text
            # keeps int() cheap and the sign, so the bound check still names it.
            number = int(key[:20])
        elif isinstance(key, int) and not isinstance(key, bool):
            number = key
        else:
            raise InvalidOptions(
                f"Every key of option {self.name!r} must be a whole number or its "
                f'decimal text (such as 11, "11" or "-1"), not {_shown(key)}'
            )
        self._check_int(number, f"Key {_shown(key)} of option {self.name!r}")
        return number

    def _expand_counts(self, counts: Mapping[Any, Any]) -> list[int]:
        """The map form value → count of a multiset as its list of values.

        Every key and count is checked, and the total against ``max_length``,
        before any list is built, so a huge count builds nothing.
        """
        assert self.max_length is not None
        seen: dict[int, Any] = {}
        pairs: list[tuple[int, int]] = []
        for key, count in counts.items():
            number = self._count_key(key)
            if number in seen:
                raise InvalidOptions(
                    f"Option {self.name!r} gives the count of {number} twice "
                    f"(keys {_shown(seen[number])} and {_shown(key)})"
                )
            seen[number] = key
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise InvalidOptions(
                    f"The count of {number} in option {self.name!r} must be a "
                    f"whole number, 0 or more, not {_shown(count)}"
                )
            pairs.append((number, count))
        total = sum(count for _, count in pairs)
        if total > self.max_length:
            raise InvalidOptions(
                f"Option {self.name!r} may hold at most {self.max_length} values; "
                f"its counts add up to {_shown(total)}"
            )
        return [number for number, count in pairs for _ in range(count)]

    def check(self, value: Any) -> Any:
        """Return ``value`` if it suits this option, else raise InvalidOptions."""
        if value is None and self.nullable:
            return None
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidOptions(f"Option {self.name!r} must be true or false")
        elif self.kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidOptions(f"Option {self.name!r} must be a whole number")
            self._check_int(value, f"Option {self.name!r}")
            if self.choices and value not in self.choices:
                allowed = ", ".join(map(str, self.choices))
                raise InvalidOptions(f"Option {self.name!r} must be one of {allowed}")
        elif self.kind == "choice":
            if value not in self.choices or isinstance(value, bool):
                allowed = ", ".join(json.dumps(c) for c in self.choices)
                raise InvalidOptions(f"Option {self.name!r} must be one of {allowed}")
        elif self.kind == "int_list":
            if self.multiset and isinstance(value, Mapping):
                value = self._expand_counts(value)
            elif not isinstance(value, list):
                raise InvalidOptions(
                    f"Option {self.name!r} must be a list of whole numbers"
                    + (" or an object of counts per value" if self.multiset else "")
                )
            assert self.max_length is not None
            if len(value) > self.max_length:
                raise InvalidOptions(
                    f"Option {self.name!r} may hold at most {self.max_length} values"
                )
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise InvalidOptions(
                    f"Option {self.name!r} must be a list of whole numbers"
                )
            for v in value:
                self._check_int(v, f"Every value of option {self.name!r}")
            value = sorted(value) if self.multiset else list(value)
        else:  # pragma: no cover - refused by __post_init__
            raise AssertionError(self.kind)
        return value


def options_size(options: Mapping[str, Any]) -> int:
    """The size of ``options`` as compact JSON, in bytes (a huge value counts as too big)."""
    try:
        text = json.dumps(options, separators=(",", ":"), default=repr)
    except (ValueError, TypeError, RecursionError):
        return MAX_OPTIONS_BYTES + 1
    return len(text.encode())


def options_validate(
    schema: Sequence[Option], options: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Fill defaults and check every value; unknown names are rejected.

    The whole options object is refused first when it is larger than
    :data:`MAX_OPTIONS_BYTES` as JSON, before any value is inspected.
    """
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise InvalidOptions("Options must be a JSON object")
    if options_size(options) > MAX_OPTIONS_BYTES:
        raise InvalidOptions(
            f"The options are too large: at most {MAX_OPTIONS_BYTES} bytes of JSON"
        )
    known = {o.name: o for o in schema}
    # Keys of mixed types (an int beside a string, from Python callers) cannot
    # be sorted among themselves; their text can, so the message stays stable.
    unknown = sorted((k for k in options if k not in known), key=repr)
    if unknown:
        raise InvalidOptions(
            f"Unknown option {_shown(unknown[0])}; this game knows: "
            f"{', '.join(sorted(known))}"
        )
    return {
        o.name: o.check(options[o.name]) if o.name in options else o.default
        for o in schema
    }
