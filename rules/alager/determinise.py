"""Full Alager states a seat cannot tell from the real one, for searching bots.

:func:`read_knowledge` reads only what a bot is given — the seat's view and the
history redacted for that seat — and tracks what the seat knows of the deal in
play (docs/rules/alager.md, "What each player sees"): the cards other seats
took from the table and still hold, and each opponent's latest telling turn.
:func:`sample_world` deals the unseen cards into a complete state consistent
with it. The chance inside the returned state is made up (a given standard
deck), so later deals in it are as unknown as the cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.alager import events as ev
from rules.alager.options import deck_for
from rules.alager.state import AlagerState, Rules
from rules.cards import Card
from rules.core import Event
from rules.dealing import Chance


@dataclass(frozen=True)
class LastTurn:
    """An opponent's latest turn in this deal, with the table it saw."""

    kind: str  # "pass" | "konec" | "swap"
    table: tuple[Card, ...]
    may_knock: bool
    give: Card | None = None
    take: Card | None = None


@dataclass(frozen=True)
class Knowledge:
    """What a seat knows of the deal in play, from its view and redacted history."""

    rules: Rules
    seat: int
    known: dict[int, frozenset[Card]]  # cards known to be in each other hand
    unseen: tuple[Card, ...]  # every card whose place the seat does not know
    last: dict[int, LastTurn]  # each opponent's latest telling turn


_TURN_EVENTS = (
    ev.CARD_DRAWN,
    ev.CARD_SWAPPED,
    ev.HAND_SWAPPED,
    ev.PASSED,
    ev.KONEC_CALLED,
)


def read_knowledge(
    view: dict[str, Any], history: Sequence[Event], seat: int
) -> Knowledge:
    """Replay the deal in play from the seat's side (§13).

    Tracks the cards other seats took from the table and still hold, and the
    latest turn of each: a pass, a knock or a swap says something about the
    cards they hold, which :func:`sample_world` can use.
    """
    rules = Rules.from_options(view["options"])
    known: dict[int, set[Card]] = {s: set() for s in view["order"] if s != seat}
    last: dict[int, LastTurn] = {}
    start = 0
    for i, event in enumerate(history):
        if event.type == ev.DEAL_STARTED:
            start = i
    table: tuple[Card, ...] = ()
    turns, final = 0, False
    knock_from = (rules.konec_min_round - 1) * len(view["order"])
    for event in history[start:]:
        p = event.payload
        t = event.type
        actor = p.get("seat")
        before = table
        if t == ev.DEAL_STARTED:
            table = tuple(p["table"])
        elif t == ev.CARD_SWAPPED:
            table = (*table[: p["slot"]], p["give"], *table[p["slot"] + 1 :])
        elif t == ev.HAND_SWAPPED:
            table = tuple(p["gave"])
        elif t == ev.TABLE_REFRESHED:
            table = tuple(p["table"])
        if actor in known and actor != seat:
            may_knock = not final and turns >= knock_from
            if t == ev.CARD_SWAPPED:
                known[actor].discard(p["give"])
                known[actor].add(p["take"])
                last[actor] = LastTurn("swap", before, may_knock, p["give"], p["take"])
            elif t == ev.HAND_SWAPPED:
                known[actor] = set(p["took"])
                last.pop(actor, None)
            elif t == ev.CARD_DISCARDED:
                last.pop(actor, None)
                if p["card"] is None:  # face down: which card left is unknown
                    known[actor].clear()
                else:
                    known[actor].discard(p["card"])
            elif t == ev.PASSED:
                last[actor] = LastTurn("pass", before, may_knock)
            elif t == ev.KONEC_CALLED:
                if p["after_exchange"]:
                    last.pop(actor, None)
                else:
                    last[actor] = LastTurn("konec", before, may_knock)
        if t == ev.KONEC_CALLED:
            final = True
        if t in _TURN_EVENTS and not final and not p.get("after_exchange"):
            turns += 1
    placed = {*view["hand"], *view["table"], *view["discard_pile"]}
    for cards in known.values():
        placed |= cards
    unseen = tuple(c for c in deck_for(rules.deck) if c not in placed)
    return Knowledge(
        rules, seat, {s: frozenset(c) for s, c in known.items()}, unseen, last
    )


#: ``consistent(hand, last_turn, knowledge, active_players)``: could an
#: opponent holding ``hand`` have made ``last_turn``?
Consistent = Callable[[tuple[Card, ...], LastTurn, Knowledge, int], bool]


def sample_world(
    view: dict[str, Any],
    know: Knowledge,
    rng: random.Random,
    consistent: Consistent | None = None,
    tries: int = 12,
) -> AlagerState:
    """A full state consistent with everything the seat has seen.

    With ``consistent``, each opponent's unknown cards are drawn again (up to
    ``tries`` times) until ``consistent(hand, last_turn, know, n)`` accepts
    them: a bot passes its own model of how opponents play (``strong`` asks
    whether ``basic`` would have made that pass, knock or swap), since uniform
    hands would make opponents look weaker than players who have been
    improving their hands for a while.
    """
    pool = list(know.unseen)
    rng.shuffle(pool)
    n = len(view["order"])
    hands: list[tuple[Card, ...]] = [()] * view["players"]
    for s in view["order"]:
        if s == know.seat:
            hands[s] = tuple(view["hand"])
            continue
        known = tuple(know.known[s])
        missing = 3 - len(known)
        turn = know.last.get(s)
        pick = list(range(missing))
        if consistent is not None and turn is not None and missing:
            for _ in range(tries):
                pick = rng.sample(range(len(pool)), missing)
                if consistent((*known, *(pool[i] for i in pick)), turn, know, n):
                    break
        hands[s] = (*known, *(pool[i] for i in pick))
        for i in sorted(pick, reverse=True):
            pool.pop(i)
    stock = tuple(pool[: view["stock_count"]])
    players = view["players"]
    eliminated = set(view["eliminated"])
    # A rollout stops when the deal ends, but the engine deals the next one at
    # once: a given deck spares it the shuffle.
    standard = tuple(deck_for(know.rules.deck))
    return AlagerState(
        players=players,
        rules=know.rules,
        chance=Chance(seed="rollout", decks=(standard,)),
        penalties=tuple(view["penalties"]),
        eliminated_in=tuple(
            view["deal"] if s in eliminated else None for s in range(players)
        ),
        deal=view["deal"],
        dealer=view["dealer"],
        order=tuple(view["order"]),
        hands=tuple(hands),
        table=tuple(view["table"]),
        stock=stock,
        discard=tuple(view["discard_pile"]),
        phase=view["phase"],
        current=view["current"],
        pass_streak=view["pass_streak"],
        knocker=view["knocker"],
        final_queue=tuple(view["final_queue"]),
        turns_taken=view["turns_taken"],
        max_turns=view["max_turns_per_deal"],
        last_deal=None,
    )
