"""``make up``/``make run`` prepare in one process (``manage.py prepare``,
``scripts/prepare.sh``): migrate, the accounts, and ``collectstatic`` only when
a static source changed since the last run. Nothing is skipped that a start
needs: a changed or added static file is collected, a pending migration is
applied, and a failing step stops the start with its message."""

import io
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import override_settings

from tests.helpers import REPO, clean_env
from web.management.commands import prepare
from web.management.commands.prepare import STAMP_NAME


def _prepare(source: Path, root: Path) -> str:
    out = io.StringIO()
    with override_settings(
        STATICFILES_DIRS=[source], STATIC_ROOT=root, VAR_DIR=source.parent / "var"
    ):
        call_command("prepare", stdout=out)
    return out.getvalue()


def _later(path: Path, seconds: int) -> None:
    """Date ``path`` ``seconds`` later: collectstatic copies a file only when
    its source is newer than the copy, to the second."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + seconds * 10**9))


@pytest.mark.django_db
def test_static_files_are_collected_once_then_skipped_until_one_changes(
    tmp_path: Path,
) -> None:
    source, root = tmp_path / "source", tmp_path / "root"
    source.mkdir()
    (source / "qa-table.css").write_text("body { color: red; }\n")

    first = _prepare(source, root)
    again = _prepare(source, root)
    (source / "qa-table.css").write_text("body { color: blue; }\n")
    _later(source / "qa-table.css", 10)
    changed = _prepare(source, root)

    assert "Static files collected" in first
    assert (tmp_path / "var" / STAMP_NAME).is_file()
    assert not list(root.glob(f"*{STAMP_NAME}"))  # nothing WhiteNoise would serve
    assert "Static files unchanged since the last collectstatic: skipped" in again
    assert "Static files collected" in changed
    assert (root / "qa-table.css").read_text() == "body { color: blue; }\n"
    assert "skipped" in _prepare(source, root)


@pytest.mark.django_db
def test_an_added_file_or_one_missing_from_static_root_is_collected(
    tmp_path: Path,
) -> None:
    source, root = tmp_path / "source", tmp_path / "root"
    source.mkdir()
    (source / "qa-a.js").write_text("1;\n")
    _prepare(source, root)

    (source / "qa-b.js").write_text("2;\n")
    added = _prepare(source, root)
    (root / "qa-a.js").unlink()  # someone cleaned STATIC_ROOT by hand
    removed = _prepare(source, root)

    assert "Static files collected" in added
    assert (root / "qa-b.js").read_text() == "2;\n"
    assert "Static files collected" in removed
    assert (root / "qa-a.js").read_text() == "1;\n"


@pytest.mark.django_db
def test_another_static_root_is_collected_and_force_collects_anyway(
    tmp_path: Path,
) -> None:
    source = tmp_path / "source"
    source.mkdir()
    (source / "qa.css").write_text("a {}\n")
    _prepare(source, tmp_path / "one")

    elsewhere = _prepare(source, tmp_path / "two")
    out = io.StringIO()
    with override_settings(
        STATICFILES_DIRS=[source],
        STATIC_ROOT=tmp_path / "two",
        VAR_DIR=tmp_path / "var",
    ):
        call_command("prepare", force_collectstatic=True, stdout=out)

    assert "Static files collected" in elsewhere
    assert (tmp_path / "two" / "qa.css").is_file()
    assert "Static files collected" in out.getvalue()


@pytest.mark.django_db
def test_a_file_edited_while_being_collected_is_collected_next_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, root = tmp_path / "source", tmp_path / "root"
    source.mkdir()
    (source / "qa.js").write_text("old;\n")
    real = prepare.call_command

    def edited_after_copying(name: str, *args: Any, **options: Any) -> None:
        real(name, *args, **options)
        if name == "collectstatic":
            (source / "qa.js").write_text("new one;\n")
            _later(source / "qa.js", 10)

    monkeypatch.setattr(prepare, "call_command", edited_after_copying)
    _prepare(source, root)
    monkeypatch.setattr(prepare, "call_command", real)
    next_start = _prepare(source, root)

    assert "Static files collected" in next_start
    assert (root / "qa.js").read_text() == "new one;\n"


MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"
    },
}


@pytest.mark.django_db
def test_a_manifest_lost_from_static_root_is_collected_again(tmp_path: Path) -> None:
    """Production's storage names hashed copies through STATIC_ROOT's
    staticfiles.json: a STATIC_ROOT without it is collected again."""
    source, root = tmp_path / "source", tmp_path / "root"
    source.mkdir()
    (source / "qa.css").write_text("a {}\n")
    with override_settings(STORAGES=MANIFEST):
        _prepare(source, root)
        again = _prepare(source, root)
        (root / "staticfiles.json").unlink()
        lost = _prepare(source, root)

    assert "skipped" in again
    assert "Static files collected" in lost
    assert (root / "staticfiles.json").is_file()


def _prepare_sh(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["scripts/prepare.sh"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.timeout(60)
def test_prepare_sh_applies_a_migration_left_to_apply(tmp_path: Path) -> None:
    """Migrate runs on every start: a release's new migration (here the last
    one, unapplied again) is applied on the next one."""
    env = clean_env(
        CARDROOM_VAR_DIR=str(tmp_path / "var"), STATIC_ROOT=str(tmp_path / "static")
    )
    last = sorted(p.stem for p in (REPO / "games" / "migrations").glob("0*.py"))[-2:]
    # A database as the previous release left it: all but the last migration.
    subprocess.run(
        [".venv/bin/python", "manage.py", "migrate", "games", last[0], "-v", "0"],
        cwd=REPO,
        env=env,
        check=True,
        timeout=60,
    )
    result = _prepare_sh(env)

    assert result.returncode == 0, result.stderr
    assert f"Applying games.{last[1]}... OK" in result.stdout
    assert "Static files collected" in result.stdout


def test_prepare_sh_stops_at_a_failing_step_with_its_message(tmp_path: Path) -> None:
    result = _prepare_sh(
        clean_env(
            DATABASE_URL="postgres://127.0.0.1:1/cardroom_nowhere",
            STATIC_ROOT=str(tmp_path / "static"),
        )
    )

    assert result.returncode == 1
    assert result.stderr.strip() == (
        "DatabaseUnreachable: cannot connect to the database at 127.0.0.1:1 "
        "(cardroom_nowhere): Connection refused"
    )
    assert "Bot account" not in result.stdout  # nothing after the failed step
    assert not (tmp_path / "static").exists()
