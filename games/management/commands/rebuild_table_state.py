"""``manage.py rebuild_table_state <id>... | --all [--check]``.

Replays each table's events (``game.replay``) and compares the result with the
cached state on the table row; a differing cache is replaced (or, with
``--check``, only reported, and the command fails). The cache is a projection:
this proves it, and repairs it after a rules fix changed how events fold.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.template.defaultfilters import pluralize
from tqdm import tqdm

import rules
from config.commands import migrations_applied_or_stop
from games import event_store
from games.models import Table


class Command(BaseCommand):
    help = "Rebuild tables' cached state from their events and compare."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "table_ids", nargs="*", type=int, metavar="id", help="Tables to rebuild."
        )
        parser.add_argument("--all", action="store_true", help="Every started table.")
        parser.add_argument(
            "--check", action="store_true", help="Report differences, change nothing."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ids: list[int] = options["table_ids"]
        if options["all"] == bool(ids):
            raise CommandError("Give table ids or --all (not both).")
        migrations_applied_or_stop()
        if ids:
            # Every id before any table: a mistyped one stops the command
            # before it has replaced (or checked) the others.
            found = set(Table.objects.filter(pk__in=ids).values_list("pk", flat=True))
            missing = sorted(set(ids) - found)
            if missing:
                raise CommandError(
                    f"No table {', '.join(map(str, missing))}: nothing was done."
                )
        if options["all"]:
            ids = list(
                Table.objects.filter(seq__gt=0)
                .order_by("pk")
                .values_list("pk", flat=True)
            )
        many = options["all"]
        differing = []
        # Every table by --all: a progress bar, a line for each one that
        # differs and a summary, not a line per table.
        with tqdm(ids, unit="table", disable=not many, file=self.stderr._out) as bar:
            for pk in bar:
                if not self._rebuild(pk, check=options["check"], quiet=many):
                    differing.append(pk)
        if many:
            n, bad = len(ids), len(differing)
            done = "replaced"
            if options["check"]:
                done = "differs" if bad == 1 else "differ"
            self.stdout.write(
                f"{n} table{pluralize(n)}: {n - bad} matched "
                f"{'its' if n == 1 else 'their'} events, {bad} {done}."
            )
        if differing and options["check"]:
            raise CommandError(
                f"Cached state differs from the events for table(s) "
                f"{', '.join(map(str, differing))}."
            )

    def _rebuild(self, table_id: int, *, check: bool, quiet: bool = False) -> bool:
        """Whether the cache matched; replaces it unless ``check``."""
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None:
                raise CommandError(f"Table {table_id} does not exist.")
            events = event_store.load_events(table)
            if not events:
                if not quiet:
                    self.stdout.write(
                        f"Table {table_id}: no events, nothing to rebuild"
                    )
                return True
            game = rules.get_game(table.game)
            replayed = game.replay(events)
            cached = _loaded(game, table.state)
            if cached == replayed and len(events) == table.seq:
                if not quiet:
                    self.stdout.write(
                        f"Table {table_id}: cached state matches {len(events)} events"
                    )
                return True
            if check:
                self.stdout.write(
                    f"Table {table_id}: cached state DIFFERS from {len(events)} events"
                )
                return False
            table.state = game.dump_state(replayed)
            table.seq = len(events)
            table.outcome = game.outcome(replayed)
            table.save(update_fields=["state", "seq", "outcome", "updated_at"])
            self.stdout.write(
                f"Table {table_id}: cached state replaced from {len(events)} events"
            )
            return False


def _loaded(game: Any, state: Any) -> Any:
    """The cached state, or None where there is none or it no longer loads
    (a state class changed shape): either way it differs from the events."""
    if state is None:
        return None
    try:
        return game.load_state(state)
    except (TypeError, ValueError, KeyError):
        return None
