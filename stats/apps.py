from django.apps import AppConfig


class StatsConfig(AppConfig):
    """Per-player and per-game statistics, ratings and their history."""

    name = "stats"
    verbose_name = "Statistics"
