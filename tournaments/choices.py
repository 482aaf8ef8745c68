"""The choices of a tournament's fields, apart from the models so that the
set-up's validation (``tournaments.validation``), which the model's ``clean``
calls, needs nothing of the models."""

from django.db import models


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    REGISTRATION = "registration", "Registration open"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class TournamentFormat(models.TextChoices):
    SWISS = "swiss", "Swiss"
    ROUND_ROBIN = "round_robin", "Round robin (2-player tables)"


class FillPolicy(models.TextChoices):
    BOTS = "bots", "Make the last table up with bots"
    BYES = "byes", "Give byes to the players left over"
