from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Users, human and bot; ``accounts.User`` is ``AUTH_USER_MODEL``."""

    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Revoking a token, deactivating an account: accounts.signals.
        from accounts import receivers  # noqa: F401
