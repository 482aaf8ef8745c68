"""The settings' reader of environment variables: django-environ's, strict.

django-environ reads a mistyped boolean (``SECURE_COOKIES=ture``) as false,
without a word, reads a number with a unit by dropping every character that is
not a digit (``HEALTH_CHECK_TIMEOUT=500ms`` is 500 seconds), and stops on a
mistyped whole number (``DB_POOL_MAX_SIZE=ten``) with a bare ``ValueError``
that does not say which variable it was. Each time a setting could end up
other than the operator wrote. ``Env`` stops
the process instead, with ``ImproperlyConfigured`` naming the variable, its
value and what it should be (docs/operations.md, "Environment variables").
"""

from __future__ import annotations

from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

#: What a boolean may be, in any case and with spaces around: these, or a
#: whole number (0 is false, anything else true), or empty (false).
TRUE = environ.Env.BOOLEAN_TRUE_STRINGS
FALSE = ("false", "off", "no", "n", "")

_KINDS = {bool: "true or false", int: "a whole number", float: "a number"}


class Env(environ.Env):
    """``environ.Env`` that refuses a value it cannot read (the module's doc)."""

    def get_value(
        self,
        var: str,
        cast: Any = None,
        default: Any = environ.Env.NOTSET,
        parse_default: bool = False,
    ) -> Any:
        raw = self.ENVIRON.get(f"{self.prefix}{var}")
        if raw is not None and not _readable(raw, cast):
            raise ImproperlyConfigured(_refused(var, raw, cast))
        try:
            return super().get_value(var, cast, default, parse_default)
        except ValueError as error:
            raise ImproperlyConfigured(_refused(var, raw, cast)) from error

    def rate(self, var: str, default: str) -> str:
        """A DRF throttle rate, ``<requests>/<second|minute|hour|day>``
        (DRF reads only the period's first letter), checked here: DRF would
        parse it at the first throttled request and answer 500 to all of
        them."""
        value: str = self.str(var, default=default)
        number, _, period = value.partition("/")
        if not (number.strip().isdigit() and period[:1] in ("s", "m", "h", "d")):
            raise ImproperlyConfigured(
                f"{var}={value!r} is not a rate: write <requests>/<period>, "
                "the period one of second, minute, hour or day "
                f"(e.g. {default})."
            )
        return value


def _readable(raw: str, cast: Any) -> bool:
    """Whether ``raw`` plainly is what ``cast`` asks for (django-environ
    itself would read more, and differently: the module's doc)."""
    text = raw.strip().lower()
    if cast is bool:
        return text in TRUE or text in FALSE or text.lstrip("-").isdigit()
    if cast is float:
        try:
            float(text)
        except ValueError:
            return False
    return True


def _refused(var: str, raw: str | None, cast: Any) -> str:
    kind = _KINDS.get(cast, "a valid value")
    return f"{var}={raw!r} is not {kind} (docs/operations.md lists each variable)."


def at_least(var: str, value: float, minimum: float, *, above: bool = False) -> Any:
    """``value`` (read from ``var``) if it is at least ``minimum`` (above it,
    with ``above``), else ``ImproperlyConfigured`` naming the variable: a
    number of the wrong sign read fine, and failed only once in use."""
    if value > minimum or (value == minimum and not above):
        return value
    bound = f"above {minimum:g}" if above else f"at least {minimum:g}"
    raise ImproperlyConfigured(
        f"{var}={value:g} is not {bound} (docs/operations.md lists each variable)."
    )
