"""Signals other apps listen to (seams, so ``accounts`` imports none of them).

``credentials_revoked`` is sent on commit when something that authenticated a
person's open connections stops being valid, with ``user_id`` and
``sessions``:

* the person's API token was deleted (revoked through the API or the admin):
  ``sessions=False``, since their browser sessions stand;
* their password changed, or the account was deactivated: ``sessions=True``,
  since Django ends every session opened before.

The games app closes the person's live sockets that the change concerns
(``games.realtime.credentials_revoked``, docs/live-protocol.md). Receivers
must be quick (publish, do not compute).
"""

from django.dispatch import Signal

credentials_revoked = Signal()
