"""Replay frames of a finished match: the view after every event, per viewpoint.

Only finished tables are replayed: by then every card and the seed are public
(docs/web.md), so folding the stored events here and showing any seat's view —
or every card at once — reveals nothing the rules still hide.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import rules
from games import event_store
from games.errors import Conflict
from games.models import Table, TableStatus


def _open_view(game: Any, state: Any) -> dict[str, Any]:
    """The spectator's view with every seat's hidden cards turned face up."""
    if game.name == "allegra" and not isinstance(state, type):
        # Allegra keeps face-down cells as a bit mask; clearing it shows them,
        # and ``face_down`` still says which ones nobody could see then.
        hidden = game.view(state, None)["grids"]
        view: dict[str, Any] = game.view(dataclasses.replace(state, down=0), None)
        view["face_down"] = [
            f"{seat}-{row}-{col}"
            for seat, grid in enumerate(hidden)
            for row, cells in enumerate(grid)
            for col, cell in enumerate(cells)
            if cell == "down"
        ]
    else:
        view = game.view(state, None)
    players = view.get("players") or 0
    hands = [game.view(state, seat).get("hand") for seat in range(players)]
    if any(hand is not None for hand in hands):
        view["hands"] = hands
    return view


def replay_frames(*, table: Table, seat: int | None) -> list[dict[str, Any]]:
    """One frame per stored event: ``{"seq", "event", "view"}``.

    ``seat`` None shows every card; a seat number shows what that seat saw.
    ``Conflict`` while the match is still being played.
    """
    if table.status != TableStatus.FINISHED:
        raise Conflict(
            "not_finished",
            f"Table {table.pk} can be replayed once its match has ended.",
        )
    game = rules.get_game(table.game)
    frames: list[dict[str, Any]] = []
    state: Any = None
    for item in event_store.load(table):
        state = (
            game.replay([item.event])
            if state is None
            else game.evolve(state, item.event)
        )
        try:
            view = _open_view(game, state) if seat is None else game.view(state, seat)
        except (AttributeError, IndexError, KeyError, TypeError):
            continue  # the opening event alone has no deal to look at yet
        frames.append({"seq": item.seq, "event": item.to_json(), "view": view})
    return frames
