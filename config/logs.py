"""Logging helpers shared by Django's settings and uvicorn's log config.

* ``RedactSecrets``: a filter that blanks secret query parameters
  (``?token=<key>`` and its kin), the password of a URL
  (``postgres://user:<password>@host``), credential headers and WebSocket
  frames' text in a record before any handler prints it. API
  clients put their token on the WebSocket URL (docs/live-protocol.md), and
  uvicorn logs every request's path with its query string; a token is as good
  as a password (docs/security.md), so none may reach a log line.
* ``checked_level``: ``LOG_LEVEL`` in either case, refused if unknown.

uvicorn loads this module from ``config/uvicorn-logging.json`` before Django
is set up: it imports nothing of Django's but its exceptions.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured

#: Query parameters whose value is a secret. Matched case-insensitively, as a
#: whole name (``csrftoken=`` or ``tokens=`` are other parameters), followed by
#: ``=`` or its percent-encoding (a URL inside another URL's query).
SECRET_PARAMETERS = ("token", "access_token", "auth", "password", "api_key")

REDACTED = "[redacted]"

_SECRET = re.compile(
    # Not the tail of a longer name, unless that is an encoded "?" or "&".
    r"(?:(?<![A-Za-z0-9_.~%-])|(?<=%3F)|(?<=%26))"
    rf"((?:{'|'.join(SECRET_PARAMETERS)})(?:=|%3D))"
    r"([^&;#\s\"'<>]*)",  # the value: up to the next parameter, or the URL's end
    re.IGNORECASE,
)


#: A URL's password: what follows the user name up to the ``@`` before the
#: host (``postgres://cardroom:<password>@db``, ``redis://:<password>@cache``).
#: A password holding ``@``, ``/``, ``?`` or ``#`` must be percent-encoded in
#: a URL, so none of them ends it early.
_URL_PASSWORD = re.compile(r"(://[^\s/?#@:\"'<>]*:)[^\s/?#@\"'<>]+@")


def _blank(match: re.Match[str]) -> str:
    # A value already blanked stays as it is, with what follows it (a query
    # value runs on over "," or ")", which may be the message's own text).
    if match[2].startswith(REDACTED):
        return match[0]
    return match[1] + REDACTED


def redact(text: str) -> str:
    """``text`` with every secret parameter's value and every URL's password
    replaced by ``[redacted]``."""
    if "://" in text:
        text = _URL_PASSWORD.sub(rf"\1{REDACTED}@", text)
    return _SECRET.sub(_blank, text)


#: Headers whose value is a credential: a browser's session cookie, a token.
SECRET_HEADERS = ("authorization", "cookie", "proxy-authorization", "set-cookie")

#: The ``websockets`` library's DEBUG lines (uvicorn's WebSocket protocol logs
#: them as ``uvicorn.error``): one per frame sent or received, with its text,
#: and one per handshake header.
_FRAME_LINES = ("< %s", "> %s")
_HEADER_LINES = ("< %s: %s", "> %s: %s")
_DATA_OPCODES = ("TEXT", "BINARY", "CONT")


def _wire_args(msg: Any, args: Any) -> Any:
    """``args`` of a WebSocket wire line with what it must not print left out.

    A data frame's text is a move (which may name the seat's hidden cards) or
    a seat's frame (its hand): only its kind and size are kept. A handshake's
    ``Cookie`` (the session) or ``Authorization`` header shows ``[redacted]``.
    """
    if not isinstance(args, tuple):
        return args
    if msg in _FRAME_LINES and len(args) == 1:
        opcode = getattr(getattr(args[0], "opcode", None), "name", None)
        data = getattr(args[0], "data", None)
        if opcode in _DATA_OPCODES and data is not None:
            return (f"{opcode} [{len(data)} bytes, not shown]",)
    if (
        msg in _HEADER_LINES
        and len(args) == 2
        and str(args[0]).lower() in SECRET_HEADERS
    ):
        return (args[0], REDACTED)
    return args


def _redact_arg(arg: Any) -> Any:
    if isinstance(arg, str):
        return redact(arg)
    if isinstance(arg, bytes):
        text = arg.decode("latin-1")
        cleaned = redact(text)
        return arg if cleaned == text else cleaned.encode("latin-1")
    if arg is None or isinstance(arg, int | float):  # numbers keep %d and %f
        return arg
    # Anything else is printed with %s or %r: its text is what could leak.
    try:
        text = str(arg)
    except Exception:
        return arg
    cleaned = redact(text)
    return arg if cleaned == text else cleaned


#: Formats a record's exception as every handler's formatter of ours would.
_TRACEBACKS = logging.Formatter()


class RedactSecrets(logging.Filter):
    """Replace secret query parameters' values and URLs' passwords with
    ``[redacted]``.

    Each of the record's arguments is cleaned (so a formatter that reads
    ``record.args``, like uvicorn's access formatter, sees clean values too).
    If the message still shows a secret (a template without arguments, or one
    that names the parameter while an argument holds its value:
    ``"?token=%s"``), it is replaced by its cleaned, formatted text.
    An exception's traceback (and a record's ``stack_info``) is cleaned the
    same way: an exception's message may hold a URL with its query (a
    client's, an HTTP library's), and the last line of a traceback prints
    it. The traceback is formatted here as the handler's formatter would
    (``logging.Formatter``'s, which every handler of ours uses) and kept in
    ``record.exc_text``, which formatters print instead of formatting it
    again; the operator still reads all of it but the secret values.
    At DEBUG, the ``websockets`` library's wire lines (``_wire_args``) keep a
    frame's kind and size but not its text, and a handshake's cookie and
    authorization headers show ``[redacted]``.
    Attach it to handlers, so it sees what every logger under them sends
    (``redact_handlers`` for handlers made by code other than our settings).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.args = _wire_args(record.msg, record.args)
        if record.args:
            if isinstance(record.args, Mapping):
                record.args = {k: _redact_arg(v) for k, v in record.args.items()}
            else:
                record.args = tuple(_redact_arg(arg) for arg in record.args)
        try:
            message = record.getMessage()
        except Exception:  # a broken record: the handler reports it as usual
            message = None
        if message is not None:
            cleaned = redact(message)
            if cleaned != message:
                record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = _TRACEBACKS.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def redact_handlers(*loggers: logging.Logger) -> None:
    """Give each handler of ``loggers`` a ``RedactSecrets`` filter, unless it
    has one: for handlers that something other than ``LOGGING`` installs
    (Celery's worker and beat, ``config/celery.py``)."""
    for logger in loggers:
        for handler in logger.handlers:
            if not any(isinstance(f, RedactSecrets) for f in handler.filters):
                handler.addFilter(RedactSecrets())


def traceback_without_values(exc: BaseException) -> str:
    """``exc``'s traceback for a log line, with its type but not its message.

    For an exception raised where the rules hold a match's state: its message
    may quote a value (``KeyError: 'QH'``, ``'7S' is not in list``), a card of
    a hand or of the stock, and no log line may show one. The frames (file,
    line, function, source line) say where it went wrong without any value.
    """
    frames = "".join(traceback.format_tb(exc.__traceback__))
    kind = type(exc).__qualname__
    return (
        f"Traceback (most recent call last):\n{frames}"
        f"{kind} (its message left out: it may name hidden cards)"
    )


#: The levels ``LOG_LEVEL`` may name: those that Django, uvicorn
#: (``scripts/web.sh`` passes it on, lowercased) and Celery all know.
LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")


def checked_level(value: str) -> str:
    """``LOG_LEVEL`` as Django's logging names it: ``info`` is ``INFO``."""
    level = value.strip().upper()
    if level not in LEVELS:
        names = ", ".join(name.lower() for name in LEVELS)
        raise ImproperlyConfigured(
            f"LOG_LEVEL={value!r} is not a log level: use one of {names} "
            "(in either case)."
        )
    return level
