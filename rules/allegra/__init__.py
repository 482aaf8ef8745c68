"""Allegra: Golf on 4×3 grids where neighbours share a column.

The rules are docs/rules/allegra.md; decisions the rules text leaves open are
in docs/rules-decisions.md#allegra, and actions, events and views in
docs/rules-api-allegra.md. ``GAME`` (defined in ``game.py``) is the game
object; ``game.py``'s docstring lists the modules and their jobs.
"""

from rules.allegra.game import GAME, AllegraGame

__all__ = ["GAME", "AllegraGame"]
