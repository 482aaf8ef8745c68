"""The rules pages render the repository's own Markdown docs."""

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from web.rules_docs import rules_html, rules_source

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["alager", "alkort", "allegra"])
def test_every_game_has_a_rules_source_in_docs(game: str) -> None:
    source = rules_source(game)

    assert source is not None
    assert source.parent.name in ("rules", "docs")
    assert source.read_text(encoding="utf-8").strip()


def test_rules_page_is_the_markdown_as_html(client: Client) -> None:
    source = rules_source("alkort")
    assert source is not None
    first_heading = next(
        line[2:].strip()
        for line in source.read_text(encoding="utf-8").splitlines()
        if line.startswith("# ")
    )

    response = client.get("/rules/alkort/")

    assert response.status_code == 200
    assert f">{first_heading}</h1>".encode() in response.content
    assert b"<table>" in response.content  # Markdown tables are rendered


def test_the_player_facing_rules_win_over_the_engine_reference() -> None:
    preferred = Path(settings.BASE_DIR) / "docs" / "rules" / "allegra.md"
    expected = (
        preferred
        if preferred.is_file()
        else Path(settings.BASE_DIR) / "docs" / "rules-api-allegra.md"
    )

    assert rules_source("allegra") == expected
    assert rules_html("chess") is None


def test_wide_tables_and_code_scroll_in_boxes_a_keyboard_can_reach() -> None:
    """On a phone a rules table or code block is wider than the page: it
    scrolls in its own box, which takes focus so the keyboard can scroll it
    (axe's scrollable-region-focusable), and a table's box is named."""
    alkort = rules_html("alkort") or ""
    allegra = rules_html("allegra") or ""

    assert alkort.count("<table>") == alkort.count('<div aria-label="Table: '), (
        "every table sits in a named box"
    )
    assert '<div aria-label="Table: ' in alkort
    box = alkort[alkort.index('<div aria-label="Table: ') :].split(">", 1)[0]
    assert 'class="table-scroll"' in box
    assert 'role="group"' in box
    assert 'tabindex="0"' in box
    assert "<pre>" not in allegra
    assert '<pre tabindex="0">' in allegra
