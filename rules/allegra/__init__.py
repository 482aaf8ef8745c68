"""Allegra: Golf on 4×3 grids where neighbours share a column.

The rules are ``ALLEGRA.md``; decisions it leaves open are in
``docs/rules-decisions.md#allegra``, actions and events in
``docs/rules-api-allegra.md``. The package is split by concept: the table's
geometry, options, state, triples, knocking, deciding, rounds (end of turn and
scoring), evolving, views and hidden information.
"""

from rules.allegra.game import Allegra

GAME = Allegra()

__all__ = ["GAME", "Allegra"]
