"""Reads on accounts."""

from django.db.models import Q

from accounts.models import User, username_fold


def user_find(*, username: str) -> User | None:
    """The account a person means by ``username``, whatever its letters' case.

    Usernames are unique without case (``User.username_folded``), so "ADA",
    "ada" and "Ada" all name the one account "Ada". Two accounts that differ
    only in case can still exist from before that rule (migration 0002 kept
    both); then the one spelled exactly as asked wins, and a spelling that is
    neither finds the older one (the one whose folded name is unmarked).
    Every page, API and login that names a player goes through here; None
    when nobody has the name.
    """
    if "\x00" in username:  # no name holds one, and PostgreSQL refuses it
        return None
    matches = list(
        User.objects.filter(
            Q(username=username) | Q(username_folded=username_fold(username))
        )[:2]
    )
    for user in matches:
        if user.username == username:
            return user
    return matches[0] if matches else None
