"""An oracle of hidden information for the leak tests, independent of redaction.

For a match's full event log it works out, event by event, which cards each
audience (a seat, or a spectator: None) has legitimately seen, from the rules'
own "what each player sees" tables (docs/rules/alager.md §13,
docs/rules/alkort.md B11, docs/rules/allegra.md §6), without calling
``game.redact`` or ``game.view``. The leak tests then search every payload an
audience can fetch for a card it has not seen.

- **Alager and Alkort** deal each card once per deal, so a card is its own
  name (``"QH"``): a payload leaks when a card the audience has not seen in the
  deal in play appears in it. JSON is searched structurally (a string value
  that is a card); free text (error messages, HTML, log lines) for a card
  written as a word.
- **Allegra** deals numbers with ten copies each, so a value tells nothing
  about where a card lies. Its hidden cards are *poisoned* instead: every deck
  position hidden at a point of the match (face-down cells, the undrawn draw
  piles, the knocker's hidden hand card O) gets a distinct value no deck has
  (``POISON - k``), the history is rewritten with them, and a payload leaks
  when one of those values appears in it (O only to the knocker, who sees it).

Nothing here is secret-aware by calling the rules' redaction: a leak in
``redact`` or ``view`` is a leak the oracle finds.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import rules

Audience = int | None

#: A card written as a word in free text: rank then suit, not inside a longer
#: word (``"JS"`` in ``"JSON"`` is no card), optionally quoted.
CARD_WORD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][CDHS])(?![A-Za-z0-9])")

#: Allegra's poison values are ``POISON, POISON - 1, …``: no deck holds them
#: (card values are -99 to 99), and no id, seq or score reaches them.
POISON = -1_000_000
POISON_WORD = re.compile(r"-10\d{5}(?!\d)")


# --------------------------------------------------------------- playing


def random_move(
    game: str, legal: Sequence[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """A random legal action, its kind first: rare kinds (a draw among a
    dozen swaps, a knock, a gift) come up as often as common ones. Alager's
    knock is mostly left out: taken at once, it ends every deal before the
    stock runs low."""
    if game == "alager" and rng.random() > 0.05:
        calm = [a for a in legal if a["type"] != "konec" and not a.get("konec")]
        legal = calm or legal
    kind = rng.choice(sorted({a["type"] for a in legal}))
    return rng.choice([a for a in legal if a["type"] == kind])


def alkort_exchange_seed(players: int, options: dict[str, Any], start: int) -> str:
    """A seed whose first Alkort deal lets someone exchange (1 hand in 200),
    the first from ``start``: the exchanger's hidden cards get exercised."""
    game = rules.get_game("alkort")
    for n in range(start * 1000, start * 1000 + 1000):
        seed = f"leak-exchange-{n}"
        state = game.replay(game.start(players=players, options=options, seed=seed))
        while state.phase == "exchange":
            (seat,) = game.to_act(state)
            if any(a["type"] == "exchange" for a in game.legal_actions(state, seat)):
                return seed
            state, _ = game.apply(state, seat, {"type": "pass"})
    raise AssertionError("no deal in a thousand let anyone exchange")


# --------------------------------------------------------------- searching


def strings_in(value: Any) -> Iterator[str]:
    """Every string value in a JSON-like value (keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def ints_in(value: Any) -> Iterator[int]:
    """Every integer value in a JSON-like value."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from ints_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from ints_in(item)


def cards_in_json(value: Any) -> set[str]:
    """The cards in a JSON-like value: a string that is a card (``"QH"``), or
    a card written as a word inside a string (a message: ``"QH is not in
    your hand"``)."""
    found: set[str] = set()
    for text in strings_in(value):
        found |= cards_in_text(text)
    return found


def cards_in_text(text: str) -> set[str]:
    """The cards written as words in ``text`` (HTML entities decoded)."""
    return set(CARD_WORD.findall(html.unescape(text)))


def cards_quoted_in_html(text: str) -> set[str]:
    """Cards written as a quoted JSON or Python string in an HTML page.

    Only quoted cards count in a page: pages are full of two-letter words
    (``JS``, ``AS``) that are no card of anybody's.
    """
    plain = html.unescape(text)
    return set(re.findall(r"""['"]([2-9TJQKA][CDHS])['"]""", plain))


def poison_in_json(value: Any) -> set[int]:
    """Poison values in a JSON-like value, as numbers or written in a string."""
    found = {n for n in ints_in(value) if n <= POISON}
    for text in strings_in(value):
        found |= poison_in_text(text)
    return found


def poison_in_text(text: str) -> set[int]:
    return {int(s) for s in POISON_WORD.findall(html.unescape(text))}


# --------------------------------------------------------------- knowledge


@dataclass(frozen=True)
class Knowledge:
    """What each audience has seen at each seq of one match (Alager, Alkort).

    ``seen[audience][seq]`` is the set of cards the audience has seen in the
    deal in play at ``seq`` (after the event numbered ``seq``), or None once
    the match has ended and everything is public. ``deck`` is every card the
    match deals: a card outside it is no card of this game.
    """

    game: str
    deck: frozenset[str]
    seen: dict[Audience, list[frozenset[str] | None]]

    def unseen(self, audience: Audience, seq: int, cards: set[str]) -> set[str]:
        """The cards of ``cards`` that ``audience`` had not seen at ``seq``."""
        known = self.seen[audience][seq]
        if known is None:
            return set()
        return (cards & self.deck) - known


def knowledge(game: str, events: Sequence[rules.Event]) -> Knowledge:
    """The oracle's knowledge of a whole (or partial) Alager or Alkort log."""
    players = int(events[0].payload["players"])
    track = {"alager": _alager_seen, "alkort": _alkort_seen}[game]
    audiences: list[Audience] = [None, *range(players)]
    deck: set[str] = set()
    for event in events:
        for key in ("deck", "hands", "stock", "dead", "table"):
            deck |= cards_in_json(event.payload.get(key))
    return Knowledge(game, frozenset(deck), {a: track(events, a) for a in audiences})


def _alkort_seen(
    events: Sequence[rules.Event], who: Audience
) -> list[frozenset[str] | None]:
    """B11: your hand; an exchanger's shown hand (all) and stock (the
    exchanger); your partner's reveal and yours; played cards."""
    seen: set[str] | None = set()
    out: list[frozenset[str] | None] = [frozenset()]
    for event in events:
        t, p = event.type, event.payload
        if seen is not None:
            if t == "alkort.cards_dealt":
                seen = set(p["hands"][who]) if who is not None else set()
            elif t == "alkort.stock_exchanged":
                seen |= set(p["shown"])
                if p["seat"] == who:
                    seen |= set(p["taken"])
            elif t == "alkort.partners_revealed":
                for reveal in p["reveals"]:
                    if who in (reveal["seat"], reveal["partner"]) and reveal["card"]:
                        seen.add(reveal["card"])
            elif t == "alkort.card_played":
                seen.add(p["card"])
            elif t == "alkort.match_ended":
                seen = None
        out.append(None if seen is None else frozenset(seen))
    return out


def _alager_seen(
    events: Sequence[rules.Event], who: Audience
) -> list[frozenset[str] | None]:
    """§13: your hand and the table; face-up discards; your own draws and
    face-down discards; swaps, refreshed tables, recycled piles; every hand
    at the showdown."""
    seen: set[str] | None = set()
    out: list[frozenset[str] | None] = [frozenset()]
    for event in events:
        t, p = event.type, event.payload
        if seen is not None:
            if t == "alager.deal_started":
                seen = set(p["table"])
                if who is not None:
                    seen |= set(p["hands"][who] or ())
            elif t == "alager.card_discarded":
                if not p["face_down"] or p["seat"] == who:
                    seen.add(p["card"])
            elif t == "alager.card_drawn":
                if p["seat"] == who:
                    seen.add(p["card"])
            elif t == "alager.card_swapped":
                seen |= {p["give"], p["take"]}
            elif t == "alager.hand_swapped":
                seen |= set(p["gave"]) | set(p["took"])
            elif t == "alager.table_refreshed":
                seen |= set(p["removed"]) | set(p["table"])
            elif t == "alager.stock_replenished":
                seen |= set(p["recycled"])
            elif t == "alager.deal_ended":
                for hand in p["hands"]:
                    seen |= set(hand or ())
            elif t == "alager.match_ended":
                seen = None
        out.append(None if seen is None else frozenset(seen))
    return out


def last_deal_end(events: Sequence[rules.Event], seq: int) -> int:
    """The seq of the last ``alager.deal_ended`` at or before ``seq`` (0: none)."""
    for at in range(seq, 0, -1):
        if events[at - 1].type == "alager.deal_ended":
            return at
    return 0


# --------------------------------------------------------------- Allegra


@dataclass(frozen=True)
class Poisoned:
    """An Allegra history whose hidden cards carry poison values.

    ``values``: every poison value placed; ``knocker``: the knocker's seat and
    the poison value of its hidden hand card O (the knocker alone sees it).
    """

    events: list[rules.Event]
    values: frozenset[int]
    knocker: tuple[int, int] | None

    def allowed(self, audience: Audience) -> set[int]:
        if self.knocker is not None and audience == self.knocker[0]:
            return {self.knocker[1]}
        return set()


def allegra_poisoned(events: Sequence[rules.Event]) -> Poisoned:
    """``events`` with every card hidden at their end poisoned (§6).

    Hidden, for everyone: the face-down cells of the round in play (a
    face-down card never moves: cell ``i`` still holds ``deck[i]`` of the
    round's deal), every undrawn card of each round's last draw pile (a deal
    puts ``deck[12n + 1:]`` there, a reshuffle the whole ``deck``; a new pile
    is made only when the last one is empty), and, for all but the knocker,
    the hand card O the knocker picked up from a face-down cell ``k1``.
    """
    game = rules.get_game("allegra")
    out = list(events)
    size = 12 * int(out[0].payload["players"])
    positions: dict[int, set[int]] = {}  # event index -> deck positions
    deal_at = pile_at = -1
    start = drawn = 0
    state: Any = None

    def close_pile() -> None:
        if pile_at >= 0:
            deck = out[pile_at].payload["deck"]
            positions.setdefault(pile_at, set()).update(range(start + drawn, len(deck)))

    for index, event in enumerate(out):
        state = game.evolve(state, event)
        if event.type == "allegra.round_dealt":
            deal_at = pile_at = index
            start, drawn = size + 1, 0
        elif event.type == "allegra.deck_reshuffled":
            pile_at, start, drawn = index, 0, 0
        elif event.type == "allegra.card_drawn":
            drawn += 1
        elif event.type == "allegra.round_scored":
            close_pile()
            pile_at = -1
        elif event.type == "allegra.match_ended":
            return Poisoned(out, frozenset(), None)
    close_pile()
    knocker: tuple[int, int] | None = None
    placed_at = -1
    if pile_at >= 0:  # a round in play: its face-down cells, and O
        dealt = positions.setdefault(deal_at, set())
        dealt.update(i for i in range(size) if state.down >> i & 1)
        k = state.knock
        if k is not None and k.hand is not None and not k.hand_public:
            dealt.add(k.k1)
            placed_at = max(
                i for i, e in enumerate(out) if e.type == "allegra.knocker_placed"
            )
    values: set[int] = set()
    poison_of: dict[tuple[int, int], int] = {}
    for at in sorted(positions):
        deck = list(out[at].payload["deck"])
        for position in sorted(positions[at]):
            value = POISON - len(values)
            deck[position] = value
            values.add(value)
            poison_of[(at, position)] = value
        out[at] = out[at].with_payload(deck=deck)
    if placed_at >= 0:
        k = state.knock
        value = poison_of[(deal_at, k.k1)]
        out[placed_at] = out[placed_at].with_payload(hand=value)
        knocker = (k.knocker, value)
    return Poisoned(out, frozenset(values), knocker)
