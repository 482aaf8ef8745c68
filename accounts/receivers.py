"""Model signals that revoke credentials (``accounts.signals``), wherever the
change is made: the API, the admin, a shell or a management command."""

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from accounts.models import User
from accounts.signals import credentials_revoked


def credentials_revoked_on_commit(user_id: int, *, sessions: bool) -> None:
    """Send ``credentials_revoked`` once the change is committed (a rolled
    back change revokes nothing)."""
    transaction.on_commit(
        lambda: credentials_revoked.send(
            sender=User, user_id=user_id, sessions=sessions
        )
    )


@receiver(post_delete, sender=Token, dispatch_uid="accounts.token_deleted")
def token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
    credentials_revoked_on_commit(instance.user_id, sessions=False)


@receiver(post_save, sender=User, dispatch_uid="accounts.user_saved")
def user_saved(sender: Any, instance: User, created: bool, **kwargs: Any) -> None:
    if not created and not instance.is_active:
        credentials_revoked_on_commit(instance.pk, sessions=True)
