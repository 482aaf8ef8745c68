"""Writes of the statistics app: counting tables, ratings, the rebuild.

Every write holds the writer lock of the table's game (``stats.locks``).
"""

from stats.services.rebuild import stats_rebuild
from stats.services.record import table_record, table_recount

__all__ = ["stats_rebuild", "table_recount", "table_record"]
