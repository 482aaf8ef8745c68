"""Reading the cells of an action strictly, with messages a player understands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.allegra.geometry import Geometry
from rules.allegra.state import AllegraState
from rules.core import IllegalAction


def cell_in(
    state: AllegraState,
    geo: Geometry,
    action: Mapping[str, Any],
    key: str,
    owner: int,
    whose: str = "your",
) -> int:
    """Parse ``action[key]`` and check it is an occupied cell of Area(owner)."""
    i = geo.parse(action[key])
    if i not in geo.area_set[owner]:
        raise IllegalAction(f"Cell {geo.describe(i)} is not in {whose} area")
    if state.cards[i] is None:
        raise IllegalAction(f"Cell {geo.describe(i)} is a hole: there is no card there")
    return i
