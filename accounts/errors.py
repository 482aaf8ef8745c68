"""Errors the account services raise (``config.exceptions.ApplicationError``)."""

from config.exceptions import ApplicationError


class LoginRefused(ApplicationError):
    """Credentials that do not open a session or a token; ``code`` says why.

    Wrong credentials answer 400; a bot account's name answers 403, since the
    account exists but nobody may log in as it.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.status = 403 if code == "bot_account" else 400
