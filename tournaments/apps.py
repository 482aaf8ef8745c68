from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments organised from the Django admin."""

    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.signals import table_finished
        from tournaments.receivers import table_finished_receiver

        table_finished.connect(
            table_finished_receiver, dispatch_uid="tournaments.table_finished"
        )
