"""``manage.py stats_rebuild``: every statistic and rating again, from the events."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from stats.services import stats_rebuild


class Command(BaseCommand):
    help = (
        "Rebuild every statistic and rating from the finished tables' events, "
        "in finish order (the tasks wait meanwhile)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--batch", type=int, default=500, help="tables per read")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        # The bar appears once the number of tables is known: made before,
        # it would first print an empty one ("0table [00:00, ?table/s]").
        bars: list[tqdm[Any]] = []

        def total(n: int) -> None:
            bars.append(
                tqdm(
                    total=n,
                    unit="table",
                    desc="stats_rebuild",
                    disable=options["no_progress"],
                    file=self.stderr._out,
                )
            )

        def progress(k: int) -> None:
            for bar in bars:
                bar.update(k)

        started = time.perf_counter()
        try:
            counted = stats_rebuild(
                batch=options["batch"], total=total, progress=progress
            )
        finally:
            for bar in bars:
                bar.close()
        self.stdout.write(
            f"Counted {counted} finished tables in {time.perf_counter() - started:.1f} s."
        )
