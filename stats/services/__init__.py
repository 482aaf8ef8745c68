"""Writes of the statistics app: counting tables, ratings, the rebuild, the reconciliation.

Every write holds the writer lock of the table's game (``stats.locks``).
"""

from stats.services.rebuild import stats_rebuild
from stats.services.reconcile import Reconciled, stats_reconcile
from stats.services.record import table_record, table_recount

__all__ = [
    "Reconciled",
    "stats_rebuild",
    "stats_reconcile",
    "table_recount",
    "table_record",
]
