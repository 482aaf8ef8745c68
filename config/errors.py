"""One error shape for every response: ``{"code": ..., "message": ...}``.

Clients branch on ``code`` (a stable snake_case string) and show ``message``
(plain English); validation errors add ``errors`` with the per-field details.
Two layers produce the shape:

* ``api_exception_handler`` for DRF views (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``),
  the one place where application errors become HTTP: an
  ``ApplicationError`` (``games.errors``, ``accounts.errors``, ...) answers its
  own ``status``, ``code`` and ``message``; a rules error (``rules.RulesError``,
  e.g. an illegal move or bad options) 400 with the rules' code and message;
  Django's ``ValidationError`` 400; validation, authentication, permissions,
  404, 405, unparsable bodies and throttling keep DRF's status; a body too large
  or too deeply nested 413 / 400; a database wait that ran out (a lock held
  past ``DB_LOCK_TIMEOUT``, no pooled connection within ``DB_POOL_TIMEOUT``:
  ``config.db.waited_out``) or a database connection lost under the request
  (its backend terminated, the server restarted: ``connection_lost``) 503
  ``busy`` with ``Retry-After``; any other
  exception is logged in full (without its message in a view that reads a
  match's state, ``reads_match_state``: it may quote a hidden card) and
  answered with a bare 500 that says nothing about its cause. Views never catch
  application errors themselves: they call services and let them rise.
* plain Django views for errors raised outside DRF: ``handler400/403/404/500``
  in ``config.urls`` (used when DEBUG is off), the CSRF failure view, and
  ``api_not_found``, the catch-all under ``/api/`` that keeps unknown API paths
  JSON even with DEBUG on.
"""

import logging
from typing import Any

import psycopg
from django.core.exceptions import DisallowedHost
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError
from django.http import Http404, HttpRequest, JsonResponse
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.fields import get_error_detail
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

import rules
from config import db
from config.exceptions import ApplicationError
from config.limits import BODY_LIMIT_ERRORS, body_limit_error
from config.logs import traceback_without_values

logger = logging.getLogger("cardroom.api")

NOT_FOUND_MESSAGE = "Not found."
SERVER_ERROR_MESSAGE = "Internal server error."


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The error payload every endpoint returns."""
    return {"code": code, "message": message, **extra}


class ApplicationAPIError(exceptions.APIException):
    """An application or rules error carried through DRF with its own status."""

    def __init__(self, status_code: int, code: str, message: str) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code


#: What a request that waited too long for the database is told (503 over
#: REST, an ``error`` frame over a socket): nothing it asked for was done.
BUSY_CODE = "busy"
BUSY_MESSAGE = (
    "The server is busy: a lock or database connection this request needed "
    "was not free in time, and nothing was done. Try again; resending a move "
    "with the same command_id is safe."
)


#: What a request whose database connection went away is told (503 over REST,
#: an ``error`` frame over a socket). Unlike ``BUSY_MESSAGE`` it cannot say
#: that nothing was done: a connection lost during the commit may have
#: committed. A move resent with the same ``command_id`` is played once either
#: way.
LOST_MESSAGE = (
    "The server lost its connection to the database during this request, so "
    "it may not have been carried out. Try again; resending a move with the "
    "same command_id is safe: it is played once."
)

#: SQLSTATEs of a session the server ended or lost: class 08 (connection
#: exception), class 57P (operator intervention: ``pg_terminate_backend``, a
#: restart or crash, a server starting up or shutting down, an idle session
#: ended) and an idle-in-transaction session ended (25P03).
LOST_STATES = ("08", "57P", "25P03")


def connection_lost(exc: BaseException) -> bool:
    """Whether a database error means the request's connection went away:
    the server ended the session (its backend terminated by an operator or by
    ``DB_IDLE_IN_TRANSACTION_TIMEOUT``, a restart) or the socket broke without
    a word (no SQLSTATE). Trying again gets a fresh connection from the pool
    (``config/postgresql``), so it is answered like a wait that ran out.

    ``exc`` is the error as Django raises it; what the driver raised is its
    cause.
    """
    cause = exc.__cause__ or exc
    if not isinstance(cause, psycopg.OperationalError):
        return False
    state = cause.sqlstate
    return state is None or state.startswith(LOST_STATES)


def busy(exc: BaseException, where: str) -> str | None:
    """The message for ``exc`` if it is answered ``BUSY_CODE`` (503, try
    again), else None: a database wait that ran out (``config.db.waited_out``,
    ``BUSY_MESSAGE``) or a lost connection (``connection_lost``,
    ``LOST_MESSAGE``). Logged as the passing condition it is, not a fault: one
    line, and no SQL (whose literals may hold a seat's cards)."""
    if not isinstance(exc, DatabaseError):
        return None
    if db.waited_out(exc):
        message = BUSY_MESSAGE
    elif connection_lost(exc):
        message = LOST_MESSAGE
    else:
        return None
    logger.warning("Busy: %s %s", type(exc.__cause__ or exc).__name__, where)
    return message


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """Render any exception raised in a DRF view as ``{"code", "message"}``."""
    message = busy(exc, f"in {type(context.get('view')).__name__}")
    if message is not None:
        set_rollback()
        return Response(
            error_body(BUSY_CODE, message),
            status=503,
            headers={"Retry-After": "1"},
        )
    if isinstance(exc, BODY_LIMIT_ERRORS):
        # The client's mistake, found when the body was first read: one line.
        status, code, message = body_limit_error(exc)
        logger.warning("Refused a request body: %s", message)
        set_rollback()
        return Response(error_body(code, message), status=status)
    if isinstance(exc, ApplicationError):
        exc = ApplicationAPIError(exc.status, exc.code, exc.message)
    elif isinstance(exc, rules.RulesError):
        exc = ApplicationAPIError(400, exc.code, str(exc))
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(NOT_FOUND_MESSAGE)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(get_error_detail(exc))

    # DRF's own handler adds WWW-Authenticate / Retry-After and rolls back an
    # atomic request; it returns None for exceptions it does not know.
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        view = context.get("view")
        if getattr(view, "reads_match_state", False):
            # It was building a table's view, events or a move's answer from
            # the match's state: the exception's message may quote a hidden
            # card (``KeyError: 'QH'``), so the line says where, not what.
            logger.error(
                "Unhandled exception in %s\n%s",
                type(view).__name__,
                traceback_without_values(exc),
            )
        else:
            logger.error("Unhandled exception in %s", type(view).__name__, exc_info=exc)
        set_rollback()
        return Response(error_body("server_error", SERVER_ERROR_MESSAGE), status=500)
    response.data = _api_error_body(exc)
    return response


def _api_error_body(exc: exceptions.APIException) -> dict[str, Any]:
    """Shape a DRF exception: its first message and that message's code."""
    detail = exc.detail
    field, first = _first_error(detail)
    message = str(first) if first is not None else str(exc.default_detail)
    code = getattr(first, "code", None) or str(exc.default_code)
    if isinstance(exc, exceptions.ValidationError) and isinstance(detail, dict):
        # Several fields may be wrong: one summary code, every detail listed.
        return error_body(
            "invalid", f"{field}: {message}" if field else message, errors=detail
        )
    return error_body(code, message)


def _first_error(detail: Any, path: tuple[str, ...] = ()) -> tuple[str, Any]:
    """The dotted field path and first message found in a DRF error detail."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            sub_path = path if key == "non_field_errors" else (*path, str(key))
            found_path, found = _first_error(value, sub_path)
            if found is not None:
                return found_path, found
        return ".".join(path), None
    if isinstance(detail, list):
        for item in detail:
            found_path, found = _first_error(item, path)
            if found is not None:
                return found_path, found
        return ".".join(path), None
    return ".".join(path), detail


#: The 400 of a Host header that names none of ALLOWED_HOSTS. The header is
#: not repeated: it is the client's, and may be anything.
DISALLOWED_HOST_MESSAGE = (
    "The Host header names no host this server answers to (ALLOWED_HOSTS)."
)


def bad_request(request: HttpRequest, exception: Exception) -> JsonResponse:
    """``handler400``: a malformed request (e.g. a bad Host header).

    A body over Django's limits, found outside DRF (a plain view, the CSRF
    check reading a form), answers 413 or 400 with its own code.
    """
    if isinstance(exception, BODY_LIMIT_ERRORS):
        status, code, message = body_limit_error(exception)
        return JsonResponse(error_body(code, message), status=status)
    if isinstance(exception, DisallowedHost):
        return JsonResponse(
            error_body("bad_request", DISALLOWED_HOST_MESSAGE), status=400
        )
    return JsonResponse(error_body("bad_request", "Bad request."), status=400)


def permission_denied(request: HttpRequest, exception: Exception) -> JsonResponse:
    """``handler403``: Django's PermissionDenied outside DRF."""
    return JsonResponse(
        error_body(
            "permission_denied", "You do not have permission to perform this action."
        ),
        status=403,
    )


def page_not_found(request: HttpRequest, exception: Exception) -> JsonResponse:
    """``handler404``: no URL matched, or a non-DRF view raised Http404."""
    return JsonResponse(error_body("not_found", NOT_FOUND_MESSAGE), status=404)


def server_error(request: HttpRequest) -> JsonResponse:
    """``handler500``: Django already logged the exception; reveal nothing."""
    return JsonResponse(error_body("server_error", SERVER_ERROR_MESSAGE), status=500)


def csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    """``CSRF_FAILURE_VIEW``: a session-authenticated write without its token."""
    message = f"CSRF verification failed. {reason}".strip()
    return JsonResponse(error_body("csrf_failed", message), status=403)


@csrf_exempt
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Catch-all for unknown ``/api/`` paths, whatever the method.

    It also stands in for Django's slash-appending redirect (which cannot see
    past a catch-all, and would drop a POST body anyway): when the path with a
    slash exists, the message names it. CSRF-exempt so that an unknown path
    answers 404 rather than a CSRF 403.
    """
    message = NOT_FOUND_MESSAGE
    if not request.path_info.endswith("/"):
        try:
            match = resolve(request.path_info + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not api_not_found:
            message = f"Not found. Did you mean {request.path}/ ?"
    return JsonResponse(error_body("not_found", message), status=404)


def api_error_body(exc: exceptions.APIException) -> dict[str, Any]:
    """The ``{"code", "message"}`` a DRF exception gets over REST (the
    WebSocket consumer answers with the same)."""
    return _api_error_body(exc)
