"""The only code that talks to the channel layer (ARCHITECTURE.md §6).

Services call :func:`table_changed` on commit; it tells every WebSocket
consumer watching the table that it moved to ``seq``. The message carries no
game data at all: each consumer fetches what its own seat may see, so nothing
private ever travels through a shared group.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

#: The ``type`` of the group message; consumers handle it as ``table_changed``.
TABLE_CHANGED = "table.changed"


def table_group(table_id: int) -> str:
    """The channel-layer group of everyone watching table ``table_id``."""
    return f"table-{table_id}"


def table_changed(table_id: int, seq: int) -> None:
    """Tell the table's group that its log now ends at ``seq``.

    Best effort: the move is already committed, so a broken channel layer is
    logged and never fails the caller; clients catch up with ``sync``.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            table_group(table_id), {"type": TABLE_CHANGED, "seq": seq}
        )
    except Exception:
        logger.exception("Could not notify table %s of seq %s", table_id, seq)
