"""Signals other apps listen to (seams, so ``accounts`` imports none of them).

``credentials_revoked`` is sent on commit when something that authenticated a
person's open connections stops being valid, with ``user_id`` and
``sessions``:

* the person's API token was deleted (revoked through the API or the admin):
  ``sessions=False``, since their browser sessions stand;
* their password changed, or the account was deactivated: ``sessions=True``,
  since Django ends every session opened before;
* they logged out of one browser session: ``sessions=False`` and
  ``session``, the digest of that session's key (``session_digest``: the key
  itself, a credential, is never published), since only that session ended.

The games app closes the person's live sockets that the change concerns
(``games.realtime.credentials_revoked``, docs/live-protocol.md). Receivers
must be quick (publish, do not compute).
"""

import hashlib

from django.dispatch import Signal

credentials_revoked = Signal()


def session_digest(session_key: str) -> str:
    """What names a browser session in a ``credentials_revoked`` message."""
    return hashlib.sha256(session_key.encode()).hexdigest()
