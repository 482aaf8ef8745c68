from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Tables, seats, the event store, the table services and live play."""

    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Registers the follow-up jobs with games.scheduler in every process.
        from games import tasks  # noqa: F401
