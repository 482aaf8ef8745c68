"""axe-core in the browser tests: run the real checker on a page as it is.

``tests/e2e/vendor/axe.min.js`` is axe-core, kept in the repository (see the
README there), injected into the page under test: nothing is fetched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
#: WCAG 2.0 and 2.1, levels A and AA: what the client promises (docs/web.md).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

#: A phone's width and a desktop's.
WIDTHS = [(1440, 900), (390, 844)]
FOUR_COLOUR = "() => document.documentElement.classList.contains('four-colour')"

RUN = """async (tags) => {
  const result = await axe.run(document, {
    runOnly: { type: 'tag', values: tags },
    resultTypes: ['violations'],
  });
  return result.violations.map((v) => ({
    id: v.id,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
  }));
}"""


def violations(page: Any, where: str) -> list[str]:
    """What axe finds wrong on ``page`` now, one line per element: the rule,
    the element, and axe's summary of what to fix."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated by the browser's tooling, not as a <script> tag: the
        # pages' Content-Security-Policy refuses inline scripts (and eval).
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = []
    for rule in page.evaluate(RUN, TAGS):
        for node in rule["nodes"]:
            summary = " ".join((node["summary"] or "").split())
            found.append(
                f"[{where}] {rule['id']} at {node['target']}: {rule['help']}. {summary}"
            )
    return found


@dataclass
class Audit:
    """Every violation of a test's pages, gathered so one run names them all."""

    found: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)

    def check(self, page: Any, where: str) -> None:
        """Run axe on ``page`` as it is now; ``where`` names it in the report,
        with the width and the deck it was checked at."""
        width = page.viewport_size["width"]
        deck = "4-colour" if page.evaluate(FOUR_COLOUR) else "2-colour"
        label = f"{where} @{width}px {deck}"
        self.checked.append(label)
        self.found.extend(violations(page, label))

    def check_widths(self, page: Any, where: str, *, decks: bool = False) -> None:
        """Check ``page`` at each width and, where it shows cards (``decks``),
        with the two-colour and the four-colour deck; it ends as it began, at
        desktop width with the two-colour deck."""
        for width, height in WIDTHS:
            page.set_viewport_size({"width": width, "height": height})
            for four in (False, True) if decks else (False,):
                if decks:
                    page.locator("#four-colour").set_checked(four)
                self.check(page, where)
        if decks:
            page.locator("#four-colour").set_checked(False)
        page.set_viewport_size({"width": WIDTHS[0][0], "height": WIDTHS[0][1]})

    def assert_clean(self) -> None:
        assert not self.found, (
            f"axe found {len(self.found)} violation(s):\n" + "\n".join(self.found)
        )
