"""Errors the table services raise, each with a stable ``code`` and a message.

They carry no framework (``config.exceptions.ApplicationError``): the global
DRF exception handler (``config.errors``) turns them into ``status`` and
``{"code", "message"}``, and the WebSocket consumer can send the same code and
message in an ``error`` frame. Rules errors (``rules.RulesError``) pass through
unchanged and answer 400 with the rules' own code and message, mapped there too.
"""

from config.exceptions import ApplicationError


class TableError(ApplicationError):
    """Base class: a request the table cannot honour, and why."""

    status = 400


class BadRequest(TableError):
    """Invalid input: unknown game, bad options, a seat that does not exist."""

    status = 400


class Forbidden(TableError):
    """Not yours to do: not your seat, not the table's creator."""

    status = 403


class NotFound(TableError):
    """No such table."""

    status = 404


class TableNotFound(NotFound):
    """No table has this id."""

    def __init__(self, table_id: object) -> None:
        super().__init__("not_found", f"Table {table_id} does not exist.")


class Conflict(TableError):
    """Not now: the table's state forbids it (full, started, stale view)."""

    status = 409


class ConcurrencyConflict(Conflict):
    """Another writer appended at the same ``seq`` first."""

    def __init__(self, message: str) -> None:
        super().__init__("conflict", message)
