"""``manage.py prepare``: what the service needs before it serves, in one go.

``scripts/prepare.sh`` (so ``make run`` and ``make up``) runs it: ``migrate``,
``ensure_demo_accounts`` (``--bots-only`` with DEBUG off: docs/security.md),
``stats_reconcile`` (what processes of the previous release left uncounted or
unqueued: docs/stats.md), then ``collectstatic``. One process instead of one per step: each started
Python and Django anew, most of a restart's wait when nothing had changed.

``migrate`` always runs: with nothing to apply it takes a few hundredths of a
second here, no more than ``migrate --check`` would to decide. ``collectstatic``
is skipped when the static sources are the ones the last run collected: the
same files (path, size, modification time) on the same storage, and every one
of them still in ``STATIC_ROOT``. A stamp in ``CARDROOM_VAR_DIR`` (``STAMP_NAME``;
not in ``STATIC_ROOT``, all of which WhiteNoise serves) records that
fingerprint after a collection that succeeded, so an added, changed or removed
file, or a different ``STATIC_ROOT`` or storage, collects again.

A step that fails stops the rest, with the failing command's message.
"""

import hashlib
import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

#: The stamp a successful collection leaves in VAR_DIR (CARDROOM_VAR_DIR).
STAMP_NAME = "collectstatic.stamp"

#: collectstatic's default ignore patterns.
IGNORE_PATTERNS = ["CVS", ".*", "*~"]


def _static_sources() -> dict[str, str]:
    """Each static file collectstatic would copy: its path in STATIC_ROOT and
    its source file (the first finder's, as collectstatic takes)."""
    sources: dict[str, str] = {}
    for finder in finders.get_finders():
        for path, storage in finder.list(IGNORE_PATTERNS):
            prefix = getattr(storage, "prefix", None)
            destination = os.path.join(prefix, path) if prefix else path
            sources.setdefault(destination, storage.path(path))
    return sources


def static_fingerprint() -> str:
    """A digest of the static sources (path, size, modification time) and of
    where they go (STATIC_ROOT, the storage)."""
    digest = hashlib.sha256()
    digest.update(f"{settings.STATIC_ROOT}\0{settings.STORAGES}\0".encode())
    for destination, source in sorted(_static_sources().items()):
        stat = os.stat(source)
        digest.update(
            f"{destination}\0{source}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode()
        )
    return digest.hexdigest()


def static_root_complete() -> bool:
    """Whether STATIC_ROOT still holds every collected file and, with a
    manifest storage (production's), its name map of the hashed copies
    (staticfiles.json), without which the pages could not name them."""
    manifest = getattr(staticfiles_storage, "manifest_name", None)
    if manifest is not None and not staticfiles_storage.exists(manifest):
        return False
    return all(staticfiles_storage.exists(name) for name in _static_sources())


class Command(BaseCommand):
    help = (
        "Migrate, ensure the demo accounts (the house bots only with DEBUG "
        "off), reconcile the statistics, and collect the static files unless they are unchanged since "
        "the last run."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force-collectstatic",
            action="store_true",
            help="Collect the static files even when they look unchanged.",
        )

    def handle(
        self, *args: Any, force_collectstatic: bool = False, **options: Any
    ) -> None:
        call_command("migrate", interactive=False, verbosity=options["verbosity"])
        call_command("ensure_demo_accounts", bots_only=not settings.DEBUG)
        # Tables the previous release's processes finished or counted after
        # the migrations, before this start (docs/stats.md); quiet unless it
        # repairs something. About 30 ms with 20,000 counted tables.
        call_command("stats_reconcile", verbosity=0, stdout=self.stdout)
        stamp = Path(settings.VAR_DIR) / STAMP_NAME
        # Taken before collecting: a file edited meanwhile differs from it next
        # time, and is collected then.
        fingerprint = static_fingerprint()
        if (
            not force_collectstatic
            and stamp.is_file()
            and stamp.read_text().strip() == fingerprint
            and static_root_complete()
        ):
            self.stdout.write(
                "Static files unchanged since the last collectstatic: skipped"
            )
            return
        stamp.unlink(missing_ok=True)
        call_command("collectstatic", interactive=False, verbosity=0)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(fingerprint + "\n")
        self.stdout.write("Static files collected")
