"""The rules pages: each game's rules rendered from the repository's own docs.

``docs/rules/<game>.md`` is the player-facing text; until it exists the page
falls back to ``docs/rules-api-<game>.md`` (the engine's reference), so the
link from every table always leads somewhere useful.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from xml.etree import ElementTree

import markdown
from django.conf import settings
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor
from markdown.treeprocessors import Treeprocessor

DOCS = Path(settings.BASE_DIR) / "docs"


def rules_source(game: str) -> Path | None:
    """The Markdown file the rules page of ``game`` is rendered from, if any."""
    for path in (DOCS / "rules" / f"{game}.md", DOCS / f"rules-api-{game}.md"):
        if path.is_file():
            return path
    return None


class _ScrollBoxes(Treeprocessor):
    """Wide tables scroll sideways in a box of their own on a phone; the box
    takes focus so that a keyboard can scroll it too, and is named by the
    table's column headings."""

    def run(self, root: ElementTree.Element) -> None:
        for parent in list(root.iter()):
            for index, child in enumerate(list(parent)):
                if child.tag == "table":
                    headings = ", ".join(
                        "".join(th.itertext()).strip() for th in child.iter("th")
                    )
                    box = ElementTree.Element(
                        "div",
                        {
                            "class": "table-scroll",
                            "tabindex": "0",
                            "role": "group",
                            "aria-label": f"Table: {headings}" if headings else "Table",
                        },
                    )
                    parent.remove(child)
                    box.append(child)
                    parent.insert(index, box)


class _FocusableCode(Postprocessor):
    """Code blocks scroll sideways too, and take focus for the keyboard (they
    are stored as raw HTML, out of the tree's reach, until the very end)."""

    def run(self, text: str) -> str:
        return text.replace("<pre>", '<pre tabindex="0">')


class _ScrollBoxExtension(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.treeprocessors.register(_ScrollBoxes(md), "scroll_boxes", 5)
        md.postprocessors.register(_FocusableCode(md), "focusable_code", 0)


@lru_cache(maxsize=16)
def _render(path: str, mtime: float) -> str:
    text = Path(path).read_text(encoding="utf-8")
    return markdown.markdown(
        text,
        extensions=[
            "tables",
            "fenced_code",
            "toc",
            "sane_lists",
            _ScrollBoxExtension(),
        ],
    )


def rules_html(game: str) -> str | None:
    """The rules of ``game`` as HTML (cached until the file changes)."""
    path = rules_source(game)
    if path is None:
        return None
    return _render(str(path), path.stat().st_mtime)
