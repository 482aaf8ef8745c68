"""The user model, custom from the first migration so it can grow freely."""

from django.contrib.auth.models import AbstractUser
from django.db import models


class BotLevel(models.TextChoices):
    """How strongly a bot account plays (the policy it runs)."""

    RANDOM = "random", "Random"
    BASIC = "basic", "Basic"
    STRONG = "strong", "Strong"


class User(AbstractUser):
    """A player: a person, or a bot seated by the server.

    Bot accounts have ``is_bot`` set, a ``bot_level`` naming their policy and an
    unusable password: nobody logs in as a bot, the server plays for it.
    """

    is_bot = models.BooleanField(
        default=False, help_text="Played by the server, not by a person."
    )
    # NULL, not "": a person has no level at all, which the constraint checks.
    bot_level = models.CharField(  # noqa: DJ001
        max_length=16,
        choices=BotLevel.choices,
        null=True,
        blank=True,
        help_text="The policy a bot plays with; empty for people.",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(is_bot=True) | models.Q(bot_level__isnull=True),
                name="accounts_user_bot_level_only_for_bots",
            ),
        ]

    def __str__(self) -> str:
        return self.username
