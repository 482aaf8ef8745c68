"""``manage.py stats_rebuild``: every statistic and rating again, from the events."""

from __future__ import annotations

import argparse
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.template.defaultfilters import pluralize
from tqdm import tqdm

from config.commands import migrations_applied_or_stop
from stats.services import stats_rebuild


class Command(BaseCommand):
    help = (
        "Rebuild every statistic and rating from the finished tables' events, "
        "in finish order (the tasks wait meanwhile)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--batch",
            type=_positive,
            default=500,
            help="finished tables read at a time (at least 1; default 500)",
        )
        parser.add_argument(
            "--no-progress", action="store_true", help="no progress bar on stderr"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        migrations_applied_or_stop()
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
            f"Counted {counted} finished table{pluralize(counted)} in "
            f"{time.perf_counter() - started:.1f} s."
        )


def _positive(text: str) -> int:
    """``--batch``: a whole number of at least 1 (argparse reports anything
    else as a usage error, before the rebuild empties any table)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value
