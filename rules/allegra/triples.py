"""Triple removal (docs/rules/allegra.md §8).

A line triple is three adjacent, occupied, face-up, equal cards: a whole
physical column, or three consecutive cells of an area row (which may include
the left neighbour's column 3). Holes and face-down cards break a line.

Because no face-up triple exists at the start of a turn, a new one must contain
a cell that changed during the turn, so only the lines through the changed cells
are examined. With ``long_run_rule = "union"`` every run of 3-5 is removed whole
(and crossing triples together); with ``"leftmost3"`` only the leftmost three
cells of each run in an area row, while columns are always taken whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.allegra.geometry import Geometry


def find_triples(
    geo: Geometry,
    cards: Sequence[int | None],
    down: int,
    changed: Iterable[int],
    *,
    leftmost3: bool = False,
) -> list[int]:
    """The cells to remove, sorted by (seat, row, col) (that is, by index)."""
    rows: set[int] = set()
    cols: set[int] = set()
    for i in changed:
        rows.update(geo.rows_of[i])
        cols.add(geo.col_of[i])
    found: set[int] = set()
    for k in cols:
        a, b, c = geo.cols[k]
        v = cards[a]
        if (
            v is not None
            and cards[b] == v
            and cards[c] == v
            and not down >> a & 1
            and not down >> b & 1
            and not down >> c & 1
        ):
            found.update((a, b, c))
    for k in rows:
        row = geo.rows[k]
        values = [None if down >> i & 1 else cards[i] for i in row]
        j = 0
        while j < 3:
            v = values[j]
            end = j + 1
            if v is not None:
                while end < 5 and values[end] == v:
                    end += 1
                if end - j >= 3:
                    found.update(row[j : j + 3] if leftmost3 else row[j:end])
            j = end
    return sorted(found)
