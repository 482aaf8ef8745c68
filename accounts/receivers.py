"""Model signals that revoke credentials (``accounts.signals``), wherever the
change is made: the API, the admin, a shell or a management command."""

from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from accounts.models import User
from accounts.signals import credentials_revoked, session_digest


def credentials_revoked_on_commit(
    user_id: int, *, sessions: bool, session: str | None = None
) -> None:
    """Send ``credentials_revoked`` once the change is committed (a rolled
    back change revokes nothing)."""
    transaction.on_commit(
        lambda: credentials_revoked.send(
            sender=User, user_id=user_id, sessions=sessions, session=session
        )
    )


@receiver(user_logged_out, dispatch_uid="accounts.logged_out")
def logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """A log-out ends one browser session: the sockets it opened (another
    tab of the same browser) close too, or they would play on as the person
    who left. Sent before Django flushes the session, while it has its key."""
    key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and key:
        credentials_revoked_on_commit(
            user.pk, sessions=False, session=session_digest(key)
        )


@receiver(post_delete, sender=Token, dispatch_uid="accounts.token_deleted")
def token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
    credentials_revoked_on_commit(instance.user_id, sessions=False)


@receiver(post_save, sender=User, dispatch_uid="accounts.user_saved")
def user_saved(
    sender: Any,
    instance: User,
    created: bool,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    if created or (instance.is_active and not instance.is_bot):
        return
    # A person deactivated, or made a house bot (a superuser's right, in the
    # admin): their log-ins are refused from then on, and what they had open
    # ends with them, or a token or a tab would go on playing seats the
    # server now plays or no one may play.
    if update_fields is None or {"is_active", "is_bot"} & set(update_fields):
        # A deactivated person's API token is deleted, in the deactivation's
        # transaction. A move made with it holds the token's row until it
        # commits (``accounts.authentication.PendingToken``), so the delete
        # waits for a move already in line, and a later move finds no token:
        # once the deactivation has returned no move made with it lands.
        # The person's active flag alone could not say so: a move in line
        # read it before the deactivation committed (docs/event-store.md,
        # "Locks and their order"). Reactivated, they get a new token.
        Token.objects.filter(user_id=instance.pk).delete()
    credentials_revoked_on_commit(instance.pk, sessions=True)
