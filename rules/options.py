"""Match options: one bounded definition per option, and the validation of a whole set.

Each game lists its options as :class:`Option` values (``rules/<game>/options.py``);
``Game.options_schema()`` shows them, bounds included, and
``Game.validate_options`` fills the defaults and refuses anything else with an
InvalidOptions naming the option and the bound. ``rules.core`` re-exports them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import InvalidOptions

#: The largest options object a match accepts, as compact JSON (bytes). Every
#: option is bounded on its own; this cap refuses an oversized request before
#: any option is looked at.
MAX_OPTIONS_BYTES = 4096


@dataclass(frozen=True, slots=True)
class Option:
    """One match option: its name, kind, default and allowed values.

    Every option is bounded, so that no request can make a match huge or
    endless: an ``int`` has ``minimum`` and ``maximum`` (or ``choices``), a
    ``choice`` its ``choices``, and an ``int_list`` a ``max_length`` with
    ``minimum`` and ``maximum`` bounding each value. ``__post_init__`` refuses
    an unbounded definition, so a new option cannot forget its bounds.
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

    def __post_init__(self) -> None:
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
            if not isinstance(value, list):
                raise InvalidOptions(
                    f"Option {self.name!r} must be a list of whole numbers"
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
            value = list(value)
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
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise InvalidOptions(
            f"Unknown option {unknown[0]!r}; this game knows: {', '.join(sorted(known))}"
        )
    return {
        o.name: o.check(options[o.name]) if o.name in options else o.default
        for o in schema
    }
