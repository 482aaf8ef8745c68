from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Tables, seats, the event store, the table services and live play."""

    name = "games"
    verbose_name = "Games"
