"""The embedded default (``make run``: SQLite, no Redis): bots play on their own.

A daphne process on the local settings, as ``make run`` serves: bot turns run
on the scheduler thread inside the server process, never in the request that
made them due. Starting a table of only bots answers at once with just the
deal, and a spectator's socket then receives the bots' moves one at a time,
``BOT_MOVE_DELAY`` apart, until the match ends.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from tests.games.live.conftest import Api, Ws, daphne, event_seqs, person
from tests.helpers import clean_env, embedded_migrated

pytestmark = pytest.mark.timeout(180)

DELAY = 0.15


def test_a_bot_table_starts_at_once_and_is_watched_move_by_move(
    tmp_path: Path,
) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path / "var"),
        BOT_MOVE_DELAY=str(DELAY),
    )
    embedded_migrated(env)
    server, base = daphne(env, tmp_path / "daphne.log")
    try:
        owner = person(base, "organiser")
        table = owner.post(
            "/api/tables/",
            {"game": "alkort", "players": 2, "options": {"target": 1}, "watch": True},
        )
        path = f"/api/tables/{table['id']}"
        for seat in (0, 1):
            owner.post(f"{path}/bots/", {"seat": seat, "level": "random"})

        began = time.monotonic()
        started = owner.post(f"{path}/start/")
        took = time.monotonic() - began

        arrivals: list[tuple[float, dict[str, Any]]] = []

        async def watch() -> None:
            async with Ws(base, table["id"]) as spectator:
                while True:
                    frame = await spectator.next("state", timeout=30)
                    arrivals.append((time.monotonic(), frame))
                    if frame["status"] == "finished":
                        return

        asyncio.run(watch())
        final = Api(base).get(f"{path}/")
    finally:
        server.stop()

    assert took < 1.0, f"start took {took:.2f} s"
    assert (started["status"], started["seq"]) == ("playing", 2)  # only the deal
    assert final["status"] == "finished"
    frames = [frame for _, frame in arrivals]
    seqs = event_seqs(frames)
    assert seqs == list(range(frames[0]["seq"] + 1, final["seq"] + 1))
    moves = frames[1:]
    assert len(moves) > 10
    # One move per frame: every frame's events come from one seat.
    assert all(len({e["seat"] for e in f["events"]}) == 1 for f in moves)
    gaps = [b - a for (a, _), (b, _) in zip(arrivals[1:], arrivals[2:], strict=False)]
    assert sorted(gaps)[len(gaps) // 2] >= DELAY * 0.8, gaps
