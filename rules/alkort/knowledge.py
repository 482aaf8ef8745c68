"""What one seat knows about the hidden cards of a deal, and sampling worlds
consistent with it.

Both the no-leak test hook (:func:`rules.alkort.hidden.resample_unseen`) and
the bots' determinisation read a seat's knowledge from the *redacted* events
of the current deal only, so they cannot use more than the seat saw. The rules
(docs/rules/alkort.md B4, B5, B7, B11) let a seat know:

- its own hand, every card played, and an exchanger's whole shown hand;
- as the exchanger, the stock it took and its discards; otherwise that the
  exchanger kept exactly one of the shown cards (which one becomes known when
  the exchanger plays a shown card);
- its partner's revealed card (4 players): the partner holds it and holds no
  card of a higher ranked class nor of the same class in an earlier suit;
  ``NONE`` means no ranked card at all;
- a forced seven lead (default seven rule: a player who has won no trick leads
  a 7) means that player's hand held only sevens.

Nothing else about the hidden cards follows from the rules: a pass may be
voluntary, and any card may follow to a trick.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.alkort import events as ev
from rules.alkort.tables import (
    DECK,
    HAND_SIZE,
    SEVENS,
    STOCK_SIZE,
    reveal_forbidden,
    sort_hand,
)
from rules.core import Event


@dataclass
class Knowledge:
    """A seat's knowledge of one deal (``seat`` None: a spectator)."""

    players: int
    seat: int | None
    seven_rule: str
    deal: int = 0
    dealer: int = 0
    forehand: int = 0
    dealt: tuple[str, ...] = ()
    hand: list[str] = field(default_factory=list)
    played: list[list[str]] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    exchanger: int | None = None
    shown: tuple[str, ...] = ()
    keep: str | None = None
    taken: tuple[str, ...] = ()
    received: str | None = None
    has_reveal: bool = False
    sevens_only: set[int] = field(default_factory=set)
    has_won: list[bool] = field(default_factory=list)

    @property
    def partner(self) -> int | None:
        """The seat's partner (4 players), or None."""
        if self.seat is None or self.players != 4:
            return None
        return (self.seat + 2) % 4

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds now."""
        return HAND_SIZE - len(self.played[seat])

    def allowed(self, seat: int) -> frozenset[str] | None:
        """Cards ``seat`` may hold now, or None when anything unseen will do."""
        allowed: frozenset[str] | None = None
        if seat in self.sevens_only:
            allowed = SEVENS
        if self.has_reveal and seat == self.partner:
            ok = frozenset(DECK) - reveal_forbidden(self.received)
            allowed = ok if allowed is None else allowed & ok
        return allowed


def deal_events(history: Sequence[Event]) -> list[Event]:
    """The events of the last deal in ``history`` (from its ``cards_dealt``)."""
    for i in range(len(history) - 1, -1, -1):
        if history[i].type == ev.CARDS_DEALT:
            return list(history[i:])
    return []


def knowledge_from(
    events: Sequence[Event], seat: int | None, players: int, seven_rule: str
) -> Knowledge:
    """Read one deal's redacted events (starting with its ``cards_dealt``)."""
    k = Knowledge(players=players, seat=seat, seven_rule=seven_rule)
    k.played = [[] for _ in range(players)]
    k.has_won = [False] * players
    in_trick = 0
    for event in events:
        p = event.payload
        kind = event.type
        if kind == ev.CARD_PLAYED:
            who, card = p["seat"], p["card"]
            if (
                in_trick == 0
                and card[0] == "7"
                and seven_rule == "led"
                and not k.has_won[who]
            ):
                k.sevens_only.add(who)
            in_trick += 1
            k.played[who].append(card)
            k.seen.add(card)
            if who == seat:
                k.hand.remove(card)
            elif who == k.exchanger and k.keep is None and card in k.shown:
                k.keep = card
        elif kind == ev.TRICK_WON:
            k.has_won[p["seat"]] = True
            in_trick = 0
        elif kind == ev.CARDS_DEALT:
            k.deal, k.dealer, k.forehand = p["deal"], p["dealer"], p["forehand"]
            if seat is not None:
                k.dealt = sort_hand(p["hands"][seat])
                k.hand = list(k.dealt)
                k.seen.update(k.dealt)
        elif kind == ev.STOCK_EXCHANGED:
            k.exchanger = p["seat"]
            k.shown = sort_hand(p["shown"])
            k.seen.update(k.shown)
            if p["seat"] == seat:
                k.keep = p["keep"]
                k.taken = tuple(p["taken"])
                k.hand = list(sort_hand([p["keep"], *p["taken"]]))
                k.seen.update(k.taken)
        elif kind == ev.PARTNERS_REVEALED:
            for r in p["reveals"]:
                if r["seat"] == k.partner and r["partner"] == seat and "card" in r:
                    k.has_reveal = True
                    k.received = r["card"]
                    if r["card"] is not None:
                        k.seen.add(r["card"])
    return k


@dataclass
class Layout:
    """Where every card of a deal lies now, in one sampled world."""

    hands: list[list[str]]
    stock: list[str]
    dead: list[str]
    keep: str | None
    taken: list[str]
    discards: list[str]


def sample(k: Knowledge, rng: random.Random) -> Layout:
    """One world consistent with ``k``: every unseen card placed somewhere.

    Seats with a constraint draw first, the most constrained first; the
    constraints are nested (sevens only ⊂ a partner's allowed set ⊂ anything),
    so a draw in that order never gets stuck.
    """
    players = k.players
    pool = [c for c in DECK if c not in k.seen]
    rng.shuffle(pool)
    e = k.exchanger
    keep = k.keep
    if e is not None and keep is None:
        allowed_e = k.allowed(e)
        if k.has_reveal and e == k.partner and k.received in k.shown:
            keep = k.received
        else:
            candidates = [c for c in k.shown if allowed_e is None or c in allowed_e]
            keep = rng.choice(candidates)
    hands: list[list[str]] = [[] for _ in range(players)]
    need = [0] * players
    for p in range(players):
        if p == k.seat:
            hands[p] = list(k.hand)
            continue
        known: list[str] = []
        if (
            k.has_reveal
            and p == k.partner
            and k.received is not None
            and k.received not in k.played[p]
        ):
            known.append(k.received)
        if (
            p == e
            and keep is not None
            and keep not in k.played[p]
            and keep not in known
        ):
            known.append(keep)
        hands[p] = known
        need[p] = k.hand_size(p) - len(known)
    constraints = {p: k.allowed(p) for p in range(players) if p != k.seat}
    order = sorted(
        (p for p in constraints if need[p]),
        key=lambda p: _tightness(constraints[p]),
    )
    for p in order:
        allowed = constraints[p]
        n = need[p]
        if allowed is None:
            hands[p].extend(pool[:n])
            del pool[:n]
            continue
        picked = [i for i, c in enumerate(pool) if c in allowed][:n]
        if len(picked) < n:  # pragma: no cover - impossible for a real history
            raise ValueError(f"No world fits what seat {k.seat} knows")
        hands[p].extend(pool[i] for i in picked)
        for i in reversed(picked):
            del pool[i]
    stock: list[str] = []
    if e is None:
        stock, pool = pool[:STOCK_SIZE], pool[STOCK_SIZE:]
    taken: list[str] = []
    discards: list[str] = []
    if e is not None:
        if e == k.seat:
            taken = list(k.taken)
        else:
            taken = [c for c in (*hands[e], *k.played[e]) if c != keep]
        discards = [c for c in k.shown if c != keep]
    return Layout(
        hands=[list(sort_hand(h)) for h in hands],
        stock=stock,
        dead=pool,
        keep=keep,
        taken=taken,
        discards=discards,
    )


def _tightness(allowed: frozenset[str] | None) -> int:
    return len(DECK) + 1 if allowed is None else len(allowed)
