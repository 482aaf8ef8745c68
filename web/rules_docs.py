"""The rules pages: each game's rules rendered from the repository's own docs.

``docs/rules/<game>.md`` is the player-facing text; until it exists the page
falls back to ``docs/rules-api-<game>.md`` (the engine's reference), so the
link from every table always leads somewhere useful.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings

DOCS = Path(settings.BASE_DIR) / "docs"


def rules_source(game: str) -> Path | None:
    """The Markdown file the rules page of ``game`` is rendered from, if any."""
    for path in (DOCS / "rules" / f"{game}.md", DOCS / f"rules-api-{game}.md"):
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=16)
def _render(path: str, mtime: float) -> str:
    text = Path(path).read_text(encoding="utf-8")
    return markdown.markdown(
        text, extensions=["tables", "fenced_code", "toc", "sane_lists"]
    )


def rules_html(game: str) -> str | None:
    """The rules of ``game`` as HTML (cached until the file changes)."""
    path = rules_source(game)
    if path is None:
        return None
    return _render(str(path), path.stat().st_mtime)
