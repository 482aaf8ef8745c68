"""The table's geometry (docs/rules/allegra.md §2): grids, shared columns and areas.

Every cell of the table has an index ``12 * seat + 4 * row + col``. Seats are
numbered clockwise, so the left-hand neighbour of ``p`` is ``p + 1``; the area
of ``p`` is the left neighbour's column 3 followed by ``p``'s own four columns.
All tables are computed once per player count.

>>> g = geometry(4)
>>> [g.describe(i) for i in g.rows[2 * 3 + 1]]   # Area(2), row 1 (Example 1)
['(3,1,3)', '(2,1,0)', '(2,1,1)', '(2,1,2)', '(2,1,3)']
>>> g.areas_of[idx(0, 0, 3)]                     # P0.c3 is in Area(0) and Area(3)
(0, 3)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from rules.core import MalformedAction

ROWS = 3
COLS = 4
CELLS = ROWS * COLS
_CELL_KEYS = frozenset(("seat", "row", "col"))


def idx(seat: int, row: int, col: int) -> int:
    """The index of cell ``(seat, row, col)``: ``12·seat + 4·row + col``."""
    return CELLS * seat + COLS * row + col


class Geometry:
    """Precomputed cell tables for ``n`` players."""

    __slots__ = (
        "n",
        "size",
        "left",
        "area",
        "area_set",
        "area_mask",
        "rows",
        "cols",
        "rows_of",
        "col_of",
        "areas_of",
        "coords",
        "all_mask",
        "turn_order",
    )

    def __init__(self, n: int) -> None:
        self.n = n
        self.size = CELLS * n
        self.left = tuple((p + 1) % n for p in range(n))
        #: For each seat, its 15 area cells row by row (area columns 0-4).
        self.area = tuple(
            tuple(
                idx(self.left[p], r, 3) if a == 0 else idx(p, r, a - 1)
                for r in range(ROWS)
                for a in range(5)
            )
            for p in range(n)
        )
        self.area_set = tuple(frozenset(a) for a in self.area)
        self.area_mask = tuple(sum(1 << i for i in a) for a in self.area)
        #: Area rows: ``rows[3 * p + r]`` is row ``r`` of Area(p), 5 cells.
        self.rows = tuple(a[5 * r : 5 * r + 5] for a in self.area for r in range(ROWS))
        #: Physical columns: ``cols[4 * p + c]`` is column ``c`` of seat ``p``.
        self.cols = tuple(
            tuple(idx(p, r, c) for r in range(ROWS))
            for p in range(n)
            for c in range(COLS)
        )
        self.rows_of = tuple(
            tuple(k for k, row in enumerate(self.rows) if i in row)
            for i in range(self.size)
        )
        self.col_of = tuple(i // CELLS * COLS + i % COLS for i in range(self.size))
        self.areas_of = tuple(
            tuple(p for p in range(n) if i in self.area_set[p])
            for i in range(self.size)
        )
        self.coords = tuple(
            (i // CELLS, i % CELLS // COLS, i % COLS) for i in range(self.size)
        )
        self.all_mask = (1 << self.size) - 1
        #: ``turn_order[a]``: seats a, left(a), left²(a), … (trigger check order).
        self.turn_order = tuple(tuple((a + k) % n for k in range(n)) for a in range(n))

    def cell(self, i: int) -> dict[str, int]:
        """The JSON form of cell ``i``: ``{"seat", "row", "col"}``."""
        s, r, c = self.coords[i]
        return {"seat": s, "row": r, "col": c}

    def describe(self, i: int) -> str:
        """Cell ``i`` as players read it: ``(seat,row,col)``."""
        s, r, c = self.coords[i]
        return f"({s},{r},{c})"

    def parse(self, value: object) -> int:
        """A cell dict from an action, strictly checked, as an index."""
        if not isinstance(value, Mapping) or set(value) != _CELL_KEYS:
            raise MalformedAction(
                'A cell is an object with exactly "seat", "row" and "col", '
                'e.g. {"seat": 0, "row": 1, "col": 3}'
            )
        seat, row, col = value["seat"], value["row"], value["col"]
        for key, v, top in (
            ("seat", seat, self.n - 1),
            ("row", row, ROWS - 1),
            ("col", col, COLS - 1),
        ):
            if not isinstance(v, int) or isinstance(v, bool):
                raise MalformedAction(f"A cell's {key!r} must be a whole number")
            if not 0 <= v <= top:
                raise MalformedAction(
                    f"A cell's {key!r} must be between 0 and {top}, not {v}"
                )
        return idx(seat, row, col)


@functools.cache
def geometry(n: int) -> Geometry:
    """The (cached) geometry of an ``n``-player table."""
    return Geometry(n)
