"""Build mid-round Allegra positions from the rules file's grid notation.

``7`` is a face-up card, ``(7)`` a face-down card, ``--`` a hole. A grid is
three lines of four tokens; a column is ``"(4) / 0 / (7)"`` top to bottom.
Cells not given hold a face-down filler card, which can never form a triple.
"""

from __future__ import annotations

import dataclasses

from rules.allegra import GAME
from rules.allegra.geometry import geometry, idx
from rules.allegra.state import AllegraState
from rules.core import Event

FILLER = 0


def token(text: str) -> tuple[int | None, bool]:
    """``(value, face_down)``; a hole is ``(None, False)``."""
    text = text.strip()
    if text == "--":
        return None, False
    if text.startswith("("):
        return int(text.strip("()")), True
    return int(text), False


def position(
    players: int,
    grids: dict[int, str] | None = None,
    columns: dict[int, str] | None = None,
    cells: dict[tuple[int, int, int], str] | None = None,
    *,
    draw: tuple[int, ...] = (5, 5, 5),
    discard: tuple[int, ...] = (1,),
    active: int = 0,
    options: dict | None = None,
    **changes,
) -> AllegraState:
    """A state at the start of ``active``'s turn with the given table."""
    events = GAME.start(players, options=options or {"deck": "published"}, seed=1)
    state = GAME.replay(events)
    geo = geometry(players)
    cards: list[int | None] = [FILLER] * geo.size
    down = geo.all_mask
    spec: dict[int, str] = {}
    for seat, text in (grids or {}).items():
        rows = [line.split() for line in text.strip().splitlines()]
        assert len(rows) == 3 and all(len(r) == 4 for r in rows), text
        for r, row in enumerate(rows):
            for c, tok in enumerate(row):
                spec[idx(seat, r, c)] = tok
    for seat, text in (columns or {}).items():
        for r, tok in enumerate(text.split("/")):
            spec[idx(seat, r, 3)] = tok
    for (s, r, c), tok in (cells or {}).items():
        spec[idx(s, r, c)] = tok
    for i, tok in spec.items():
        value, face_down = token(tok)
        cards[i] = value
        if not face_down:
            down &= ~(1 << i)
    return dataclasses.replace(
        state,
        phase="turn_start",
        active=active,
        start_seat=active,
        turn=5,
        cards=tuple(cards),
        down=down,
        draw=draw,
        discard=discard,
        **changes,
    )


def play(
    state: AllegraState, *moves: tuple[int, dict]
) -> tuple[AllegraState, list[Event]]:
    """Apply ``(seat, action)`` moves; return the state and all new events."""
    out: list[Event] = []
    for seat, action in moves:
        state, events = GAME.apply(state, seat, action)
        out.extend(events)
    return state, out


def cell(seat: int, row: int, col: int) -> dict[str, int]:
    return {"seat": seat, "row": row, "col": col}


def types(events: list[Event]) -> list[str]:
    return [e.type.removeprefix("allegra.") for e in events]


def of_type(events: list[Event], kind: str) -> Event:
    (found,) = [e for e in events if e.type == f"allegra.{kind}"]
    return found


def area_sum(state: AllegraState, seat: int) -> int:
    """Sum of every card in Area(seat), face up or down (holes count 0)."""
    return sum(state.cards[i] or 0 for i in geometry(state.players).area[seat])


def grid_text(state: AllegraState, seat: int) -> list[str]:
    """A seat's grid in the rules' notation, one string per row."""
    out = []
    for r in range(3):
        toks = []
        for c in range(4):
            i = idx(seat, r, c)
            v = state.cards[i]
            toks.append(
                "--" if v is None else f"({v})" if state.down >> i & 1 else str(v)
            )
        out.append(" ".join(toks))
    return out
