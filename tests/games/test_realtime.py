"""``games.realtime``: the one place that talks to the channel layer."""

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import realtime


def test_each_table_has_its_group() -> None:
    assert realtime.table_group(42) == "table-42"


def test_table_changed_reaches_the_tables_group() -> None:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("table-7", channel)
    try:
        realtime.table_changed(7, 12)
        message = async_to_sync(layer.receive)(channel)
    finally:
        async_to_sync(layer.group_discard)("table-7", channel)

    assert message == {"type": "table.changed", "seq": 12}


def test_a_broken_channel_layer_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Broken:
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            raise ConnectionError("redis is down")

    monkeypatch.setattr(realtime, "get_channel_layer", lambda: Broken())

    realtime.table_changed(7, 12)

    assert "Could not notify table 7 of seq 12" in caplog.text
