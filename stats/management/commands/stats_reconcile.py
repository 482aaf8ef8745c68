"""``manage.py stats_reconcile``: queue the finished tables nothing would
count and repair the progress rows that disagree with the counted tables."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.template.defaultfilters import pluralize

from config.commands import migrations_applied_or_stop
from stats.services import stats_reconcile


class Command(BaseCommand):
    help = (
        "Queue finished tables that are neither counted nor queued for their "
        "count, and repair each game's progress row that disagrees with its "
        "counted tables (run after a deploy; beat runs it daily)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        migrations_applied_or_stop()
        done = stats_reconcile()
        queued, games = done.queued_count, sorted(done.progress)
        if not queued and not games:
            if options["verbosity"] < 1:
                return  # quiet: manage.py prepare on every start
            self.stdout.write(
                "Nothing to reconcile: every finished table is counted or "
                "queued, and every game's progress agrees with its counted tables."
            )
            return
        parts = []
        if queued:
            ids = [t for game in sorted(done.queued) for t in done.queued[game]]
            shown = ", ".join(str(t) for t in ids[:10])
            more = f" and {len(ids) - 10} more" if len(ids) > 10 else ""
            parts.append(
                f"queued {queued} finished table{pluralize(queued)} that "
                f"{pluralize(queued, 'was,were')} neither counted nor queued "
                f"({shown}{more}: the statistics sweep counts "
                f"{pluralize(queued, 'it,them')} from its next run)"
            )
        if games:
            parts.append(
                f"repaired the progress of {len(games)} game{pluralize(games)} "
                f"({', '.join(games)})"
            )
        text = "; ".join(parts)
        self.stdout.write(f"Reconciled: {text}.")
