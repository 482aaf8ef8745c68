"""How a casual Allegra player weighs a move: the heuristic behind ``basic``.

A :class:`Table` is what one seat knows: every face-up card, where the
face-down cards and holes are, and the value a face-down card is worth on
average. It can be read from a view (the ``basic`` bot) or from a full state
(the search's rollouts, which must not peek at face-down values either).

The player lowers their area sum, chases triples (a completed triple is worth
the cards it removes from the area; an open pair — two equal face-up cards with
a face-down third — is worth a little), avoids ending the round when not the
lowest (the trigger's score would double), knocks only for a card that
completes a triple, and gives a drawn card when the card it can take back is
worth more than keeping the drawn one.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

from rules.allegra.geometry import Geometry, geometry
from rules.core import Action

PAIR = 1.0  # an open pair: a triple may follow
DRAW = 1.5  # what drawing blind is worth, against a sure gain from the discard
FLIP = 0.6  # discarding the drawn card and flipping: information and progress
GIVE_COST = 1.0  # a gift helps a rival: give only for a clear gain
HELP = 0.5  # how much a rival's gain counts against a gift
KNOCK_MIN = 3.0  # knock when the card completes a triple worth this much

Cell = dict[str, int]


@functools.cache
def windows(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each cell, the other two cells of every line of three through it."""
    geo = geometry(n)
    out: list[list[tuple[int, int]]] = [[] for _ in range(geo.size)]
    for row in geo.rows:
        for s in range(3):
            a, b, c = row[s : s + 3]
            out[a].append((b, c))
            out[b].append((a, c))
            out[c].append((a, b))
    for a, b, c in geo.cols:
        out[a].append((b, c))
        out[b].append((a, c))
        out[c].append((a, b))
    return tuple(tuple(w) for w in out)


def _index(cell: Cell) -> int:
    return 12 * cell["seat"] + 4 * cell["row"] + cell["col"]


class Table:
    """One seat's knowledge of the table, and the value of placing cards in it."""

    __slots__ = ("geo", "n", "cards", "down", "mean", "windows", "trigger")

    def __init__(
        self,
        n: int,
        cards: Sequence[int | None],
        down: int,
        mean: float,
        trigger: int | None,
    ) -> None:
        self.geo: Geometry = geometry(n)
        self.n = n
        self.cards = cards  # face-down values are never read
        self.down = down
        self.mean = mean
        self.windows = windows(n)
        self.trigger = trigger

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Table:
        """The table as a seat's view shows it (face-down cards unknown)."""
        cards: list[int | None] = []
        down = 0
        seen = 0
        total = 0
        for grid in view["grids"]:
            for row in grid:
                for v in row:
                    if v == "down":
                        down |= 1 << len(cards)
                        cards.append(0)
                    else:
                        cards.append(v)
                        if v is not None:
                            seen += 1
                            total += v
        mean = _unseen_mean(view, seen, total)
        return cls(view["players"], cards, down, mean, view["trigger"])

    def value(self, i: int) -> float:
        """The expected value of cell ``i`` (the deck's mean for a face-down card)."""
        if self.down >> i & 1:
            return self.mean
        v = self.cards[i]
        return 0.0 if v is None else float(v)

    def estimate(self, p: int) -> float:
        """Area sum of ``p``, a face-down card counted at the mean."""
        return sum(self.value(i) for i in self.geo.area[p])

    def place(self, p: int, i: int, x: int) -> tuple[float, bool]:
        """What putting ``x`` face up at ``i`` is worth to ``p``; and does a triple form?"""
        cards, down = self.cards, self.down
        old_up = not down >> i & 1
        old = cards[i] if old_up else None
        gain = (self.mean if old is None else old) - x
        removed: set[int] = set()
        pairs = 0
        for a, b in self.windows[i]:
            ca, cb = cards[a], cards[b]
            if ca is None or cb is None:
                continue
            ua, ub = not down >> a & 1, not down >> b & 1
            if ua and ub:
                if ca == x and cb == x:
                    removed.add(a)
                    removed.add(b)
            elif ua:
                if ca == x:
                    pairs += 1
                elif ca == old:
                    pairs -= 1
            elif ub:
                if cb == x:
                    pairs += 1
                elif cb == old:
                    pairs -= 1
        if removed:
            area = self.geo.area_set[p]
            gain += (x if i in area else 0) + sum(
                cards[j] or 0 for j in removed if j in area
            )
            return gain, True
        return gain + PAIR * pairs, False

    def finishing(self, p: int, i: int) -> float:
        """Adjustment when turning cell ``i`` face up would finish ``p``'s area."""
        if self.trigger is not None or not self.down >> i & 1:
            return 0.0
        if self.down & self.geo.area_mask[p] != 1 << i:
            return 0.0
        mine = self.estimate(p) - self.mean
        others = [self.estimate(q) for q in range(self.n) if q != p]
        if mine <= min(others) - 2:
            return 2.0
        return -max(mine, 0.0)

    def flip_value(self, p: int, f: int) -> float:
        """How good flipping cell ``f`` is for seat ``p`` (a heuristic score; higher is better)."""
        if self.trigger is not None:
            return 0.0
        v = FLIP + self.finishing(p, f)
        if f // 12 == p and f % 4 != 3:
            v += 0.1  # prefer cards that count for nobody else
        cards, down = self.cards, self.down
        for a, b in self.windows[f]:
            if (
                not down >> a & 1
                and not down >> b & 1
                and cards[a] is not None
                and cards[a] == cards[b]
            ):
                v += 0.3  # the flip may complete a triple
        return v


def _unseen_mean(view: dict[str, Any], seen: int, total: int) -> float:
    """The average card not in sight (grids, piles, the drawn and exchanged cards)."""
    from rules.allegra.options import Rules, standard_deck_for

    deck = standard_deck_for(Rules.from_options(view["options"]))
    extra = [*view["discard_pile"], *view["out_of_play"]]
    if view["drawn"] is not None:
        extra.append(view["drawn"])
    knock = view["knock"]
    if knock:
        extra.extend(v for v in (knock["hand"], knock["taken"]) if v is not None)
    left = len(deck) - seen - len(extra)
    if left <= 0:
        return sum(deck) / len(deck)
    return float(sum(deck) - total - sum(extra)) / left


# ---------------------------------------------------------------- choosing


def score_actions(
    table: Table,
    seat: int,
    phase: str,
    legal: Sequence[Action],
    *,
    top: int | None,
    drawn: int | None,
    active: int,
    knockers: Sequence[int] = (),
    k1: int | None = None,
    taken: int | None = None,
) -> list[float]:
    """A score per legal action (higher is better) for the phases that need one."""
    if phase == "turn_start":
        out = []
        for a in legal:
            if a["type"] == "take_discard":
                assert top is not None
                i = _index(a["cell"])
                g, _ = table.place(seat, i, top)
                out.append(g + table.finishing(seat, i))
            elif a["type"] == "draw":
                out.append(DRAW if table.trigger is None else DRAW - 0.5)
            else:
                out.append(0.0)
        return out
    if phase == "decide_deck_card":
        assert drawn is not None
        out = []
        for a in legal:
            kind = a["type"]
            if kind == "swap":
                i = _index(a["cell"])
                g, _ = table.place(seat, i, drawn)
                out.append(g + table.finishing(seat, i))
            elif kind == "discard":
                flip = a.get("flip")
                out.append(
                    0.0 if flip is None else table.flip_value(seat, _index(flip))
                )
            else:
                out.append(give_value(table, seat, a["to"], drawn))
        return out
    if phase == "knock_window":
        assert drawn is not None
        worth = knock_worth(table, seat, drawn)
        return [worth if a["type"] == "knock" else 0.0 for a in legal]
    if phase == "knocker_place":
        assert drawn is not None
        return [table.place(seat, _index(a["cell"]), drawn)[0] for a in legal]
    if phase == "drawer_take":
        return [take_value(table, seat, _index(a["cell"]), k1) for a in legal]
    if phase == "drawer_place":
        assert taken is not None
        return [table.place(seat, _index(a["cell"]), taken)[0] for a in legal]
    return [0.0] * len(legal)


def give_value(table: Table, seat: int, k: int, drawn: int) -> float:
    """Giving the drawn card to knocker ``k``: the best card to take back, less the help."""
    geo = table.geo
    mine = geo.area_set[seat]
    worst = max(table.value(i) for i in geo.area[seat] if table.cards[i] is not None)
    known = [
        table.cards[j]
        for j in geo.area[k]
        if j not in mine and not table.down >> j & 1 and table.cards[j] is not None
    ]
    if not known:
        return -GIVE_COST
    best_take = worst - min(v for v in known if v is not None)
    help_k = max(
        table.place(k, i, drawn)[0] for i in geo.area[k] if table.cards[i] is not None
    )
    return best_take - GIVE_COST - HELP * max(help_k, 0.0)


def knock_worth(table: Table, seat: int, drawn: int) -> float:
    """Knock only for a card that completes a triple in our area."""
    best = -1.0
    cards, down = table.cards, table.down
    area = table.geo.area[seat]
    if not any(cards[i] == drawn and not down >> i & 1 for i in area):
        return best  # no face-up partner: no triple possible
    for i in area:
        if cards[i] is None:
            continue
        g, triple = table.place(seat, i, drawn)
        if triple and g >= KNOCK_MIN:
            best = max(best, g)
    return best


def take_value(table: Table, seat: int, k2: int, k1: int | None) -> float:
    """Taking the card at ``k2`` from the knocker: where it goes best, and spoiling."""
    geo = table.geo
    t = table.cards[k2]
    face_down = table.down >> k2 & 1
    value = table.mean if face_down or t is None else float(t)
    best = -99.0
    for a1 in geo.area[seat]:
        if a1 in (k1, k2) or table.cards[a1] is None:
            continue
        if face_down or t is None:
            g = table.value(a1) - value
        else:
            g = table.place(seat, a1, t)[0]
        best = max(best, g)
    # Taking a card of a triple the gift just made spoils it.
    if k1 is not None and not face_down:
        x = table.cards[k1]
        for a, b in table.windows[k1]:
            if (
                k2 in (a, b)
                and table.cards[a] == x
                and table.cards[b] == x
                and not (table.down >> a & 1 or table.down >> b & 1)
            ):
                own = geo.area_set[seat]
                best += 2.0 if k2 not in own and k1 not in own else -2.0
                break
    return best


def reveal_choice(
    table: Table, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action:
    """Reveal cards that count for us alone (own columns 0-2) first."""
    own = [a for a in legal if a["cell"]["seat"] == seat and a["cell"]["col"] != 3]
    return dict(rng.choice(own or list(legal)))


def best(legal: Sequence[Action], scores: Sequence[float]) -> Action:
    """The first action with the highest score (ties: the order of ``legal``)."""
    top = max(range(len(legal)), key=scores.__getitem__)
    return dict(legal[top])
