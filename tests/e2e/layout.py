"""Layout checks measured in the browser, shared by the e2e tests."""

from __future__ import annotations

from typing import Any

#: The board's and the turn bar's labels: the centre of Alkort's felt, the
#: turn bar, the hint, pile and seat figures, Allegra's knock line and grid
#: headers, tags and the move buttons.
BOARD_LABELS = (
    ".felt-centre, .turn-bar, #action-hint, .pile-label, .opp-points, .side-score,"
    " .knock-info, .grid-name, .grid-foot, .tag, .hand-value, .info, .watching,"
    " #board button, .actions button, .result-line"
)

#: The turn bar's height, line height and padding (its lines, measured).
TURN_BAR = """() => {
  const bar = document.getElementById('turn-bar');
  const style = getComputedStyle(bar);
  return { height: bar.getBoundingClientRect().height, text: bar.innerText,
    line: parseFloat(style.lineHeight),
    padding: parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) };
}"""

# Each word (a run of non-space characters) in the elements' text whose
# pieces lie on more than one line: a word broken mid-way.
BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const node of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (const match of text.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()]
          .filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        if (lines.size > 1) broken.push(`${node.className || node.tagName}: ${match[0]}`);
      }
    }
  }
  return [...new Set(broken)];
}"""


def broken_words(page: Any, selector: str = BOARD_LABELS) -> list[str]:
    """The words of ``selector``'s text that break across lines."""
    return list(page.evaluate(BROKEN_WORDS, selector))


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))
