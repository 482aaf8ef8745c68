"""Bounds on what a request body may be: size, number of fields, nesting.

Django already refuses a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` and a form
with more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields, but by raising an
exception wherever the body is first read; JSON nested a thousand levels deep
runs Python out of stack. Each of these is the client's fault, so each answers
a clear 4xx ``{"code", "message"}`` and logs one line without a traceback:

* ``BodyLimitMiddleware`` answers 413 before anything reads a body whose
  declared ``Content-Length`` is over the limit (file uploads excepted, as in
  Django);
* ``BoundedJSONParser`` (the API's JSON parser) and ``json_loads_bounded`` (for
  plain Django views) refuse JSON nested deeper than ``MAX_JSON_DEPTH``;
* ``config.errors`` maps Django's ``RequestDataTooBig`` to 413 and
  ``TooManyFieldsSent`` / ``TooManyFilesSent`` to 400, for DRF views and plain
  views alike, and ``QuietSecurityFilter`` keeps Django's security log of them
  to one line.
"""

import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    DisallowedHost,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from config.middleware import SyncAndAsync

logger = logging.getLogger("cardroom.limits")

# Deeper than any real request (a table's options, an action) will ever be.
MAX_JSON_DEPTH = 32

TOO_LARGE_CODE = "request_too_large"
TOO_MANY_FIELDS_CODE = "too_many_fields"
TOO_DEEP_CODE = "too_deeply_nested"
BODY_LIMIT_ERRORS = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)


def too_large_message() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return f"The request body is larger than the limit of {limit} bytes."


def too_deep_message() -> str:
    return f"The JSON body is nested deeper than {MAX_JSON_DEPTH} levels."


def too_many_fields_message() -> str:
    limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    return f"The request has more than {limit} fields."


def body_limit_error(exc: Exception) -> tuple[int, str, str]:
    """(status, code, message) for one of ``BODY_LIMIT_ERRORS``."""
    if isinstance(exc, RequestDataTooBig):
        return 413, TOO_LARGE_CODE, too_large_message()
    if isinstance(exc, TooManyFilesSent):
        return 400, "too_many_files", "The request has too many files."
    return 400, TOO_MANY_FIELDS_CODE, too_many_fields_message()


class JSONTooDeep(ValueError):
    """A JSON document nested deeper than ``MAX_JSON_DEPTH``."""


def json_depth_check(value: Any, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise ``JSONTooDeep`` if ``value`` nests lists/dicts deeper than ``limit``.

    Iterative, so checking a deep document never recurses itself.
    """
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            raise JSONTooDeep(too_deep_message())
        stack.extend((child, depth + 1) for child in children)


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON value")


def json_loads_bounded(text: str | bytes) -> Any:
    """``json.loads`` that refuses nesting past ``MAX_JSON_DEPTH`` with ``JSONTooDeep``.

    For plain Django views reading a JSON body and the live socket's messages;
    ``ValueError`` (of which ``JSONTooDeep`` is one) means the body is
    unusable. ``NaN`` and ``Infinity``, which Python's ``json`` reads but JSON
    has not, are refused too, as DRF's parser refuses them over REST.
    """
    try:
        value = json.loads(text, parse_constant=_not_json)
    except RecursionError as exc:
        raise JSONTooDeep(too_deep_message()) from exc
    json_depth_check(value)
    return value


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, refusing documents nested deeper than ``MAX_JSON_DEPTH``."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(too_deep_message(), code=TOO_DEEP_CODE) from exc
        try:
            json_depth_check(data)
        except JSONTooDeep as exc:
            raise ParseError(str(exc), code=TOO_DEEP_CODE) from exc
        return data


class BodyLimitMiddleware(SyncAndAsync):
    """Answer 413 to a body declared larger than Django would ever read.

    Multipart bodies are left to Django, which counts files separately
    (``FILE_UPLOAD_MAX_MEMORY_SIZE``) and refuses too many of them itself.

    Sync and async alike (``config.middleware``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self._mode(get_response)

    def _call(self, request: HttpRequest) -> Any:
        refused = self._refusal(request)
        return refused if refused is not None else self.get_response(request)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        refused = self._refusal(request)
        if refused is not None:
            return refused
        response: HttpResponse = await self.get_response(request)
        return response

    def _refusal(self, request: HttpRequest) -> HttpResponse | None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        content_type = request.META.get("CONTENT_TYPE", "")
        if limit is None or content_type.startswith("multipart/"):
            return None
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length <= limit:
            return None
        logger.warning(
            "Refused a %d-byte body on %s %s", length, request.method, request.path
        )
        return JsonResponse(
            {"code": TOO_LARGE_CODE, "message": too_large_message()}, status=413
        )


#: What Django's security loggers report with a traceback, at ERROR, though
#: the client is at fault: a body over the limits, a Host header that names
#: none of ``ALLOWED_HOSTS`` (scanners send them all day).
CLIENT_MISTAKES = (*BODY_LIMIT_ERRORS, DisallowedHost)


class QuietSecurityFilter(logging.Filter):
    """Log a client's mistake (``CLIENT_MISTAKES``) on Django's security
    loggers as one WARNING line, the message, without the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], CLIENT_MISTAKES):
            record.exc_info = None
            record.exc_text = None
            record.levelno = logging.WARNING
            record.levelname = "WARNING"
        return True
