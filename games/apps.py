from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Tables, seats, the event store, the table services and live play."""

    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Registers the follow-up jobs with games.scheduler in every process.
        from accounts.signals import credentials_revoked
        from games import realtime, tasks  # noqa: F401

        # A revoked token or a changed password closes the sockets it opened.
        credentials_revoked.connect(
            realtime.credentials_revoked, dispatch_uid="games.credentials_revoked"
        )
