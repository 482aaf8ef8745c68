"""The base of every application error: a refusal with a status, code and message.

Services raise subclasses of ``ApplicationError`` (``games.errors``,
``accounts.errors``, ...) and never build HTTP responses: the global DRF
exception handler, ``config.errors.api_exception_handler``, turns any of them
into ``status`` and ``{"code", "message"}``, and the WebSocket consumer can send
the same code and message in an ``error`` frame. Nothing here imports a
framework, so any layer may raise these.
"""


class ApplicationError(Exception):
    """A request the application cannot honour, and why.

    ``status`` is the HTTP status it answers with (400 unless a subclass says
    otherwise), ``code`` a stable snake_case string clients branch on,
    ``message`` plain English for people.
    """

    status = 400

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
