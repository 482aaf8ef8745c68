from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments organised from the Django admin."""

    name = "tournaments"
    verbose_name = "Tournaments"
