"""Reads on accounts."""

from accounts.models import User


def user_find(*, username: str) -> User | None:
    """The account a person means by ``username``, whatever its letters' case.

    Usernames are unique without case (``User.username_folded``), so "ADA",
    "ada" and "Ada" all name the one account "Ada". Two accounts that differ
    only in case can still exist from before that rule (migration 0002 kept
    both); then the one spelled exactly as asked wins, and a spelling that is
    neither finds the older one (the one whose folded name is unmarked).
    Every page, API and login that names a player goes through here, and
    Django's own lookups by name (``User.objects.get_by_natural_key``:
    ``createsuperuser``, ``drf_create_token``) find the same account; None
    when nobody has the name.
    """
    try:
        return User.objects.get_by_natural_key(username)
    except User.DoesNotExist:
        return None
