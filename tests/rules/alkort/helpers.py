"""Helpers that force Alkort deals for scenario tests.

``deck_for`` inverts the deal (B3: packets of three from forehand), so a test
states the hands it wants. ``script_deal`` goes further: from the tricks of a
deal — each either the winning seat (cards are then chosen so that seat wins)
or an explicit ``{seat: card}`` — it builds hands whose play gives exactly that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import rules
from rules.alkort.tables import DECK, STRENGTH

GAME = rules.get_game("alkort")

# Cards handed to scripted trick winners, strongest first, and to the others.
WINNERS = ["KD", "2H", "4C", "8S", "9H", "9D", "AC", "AD", "AH", "AS"]
LOSERS = [c for c in DECK if c[0] != "7" and STRENGTH[c] < 3] + ["7C", "7D", "7H", "7S"]


def cards(text: str) -> list[str]:
    """``"AS 7C"`` → ``["AS", "7C"]``: hands written the way people read them."""
    return text.split()


def deck_for(
    players: int, dealer: int, hands: Sequence[Sequence[str]], rest: Sequence[str] = ()
) -> list[str]:
    """The deck that deals ``hands`` (9 cards each), then ``rest`` then the others."""
    forehand = (dealer + 1) % players
    deck: list[str] = []
    for r in range(3):
        for k in range(players):
            deck.extend(hands[(forehand + k) % players][3 * r : 3 * r + 3])
    deck.extend(rest)
    deck.extend(c for c in DECK if c not in deck)
    assert sorted(deck) == sorted(DECK), "hands and rest must be distinct cards"
    return deck


def script_deal(
    players: int, dealer: int, tricks: Sequence[int | Mapping[int, str]]
) -> tuple[list[str], list[list[str]]]:
    """A deck and, per trick, the cards in play order (rotating leads).

    A trick given as a seat number is won by that seat with a strong card while
    the others play weak ones (never a seven from the leader).
    """
    forehand = (dealer + 1) % players
    explicit = {c for t in tricks if not isinstance(t, int) for c in t.values()}
    winners = [c for c in WINNERS if c not in explicit]
    losers = [c for c in LOSERS if c not in explicit]
    hands: list[list[str]] = [[] for _ in range(players)]
    orders: list[list[str]] = []
    for number, trick in enumerate(tricks):
        leader = (forehand + number) % players
        seats = [(leader + i) % players for i in range(players)]
        if isinstance(trick, int):
            cards = {}
            for seat in seats:
                if seat == trick:
                    cards[seat] = winners.pop(0)
                else:
                    pick = next(c for c in losers if seat != leader or c[0] != "7")
                    losers.remove(pick)
                    cards[seat] = pick
        else:
            cards = dict(trick)
        for seat in seats:
            hands[seat].append(cards[seat])
        orders.append([cards[s] for s in seats])
    spare = [c for c in losers + winners if all(c not in h for h in hands)]
    for hand in hands:
        while len(hand) < 9:
            hand.append(spare.pop())
    return deck_for(players, dealer, hands), orders


def pass_all(state):
    """Everyone passes the stock exchange; returns the state and the events."""
    events = []
    while state.phase == "exchange":
        state, new = GAME.apply(state, GAME.to_act(state)[0], {"type": "pass"})
        events.extend(new)
    return state, events


def play_cards(state, cards: Sequence[str]):
    """Each seat to act plays the next card; returns the state and the events."""
    events = []
    for card in cards:
        seat = GAME.to_act(state)[0]
        state, new = GAME.apply(state, seat, {"type": "play", "card": card})
        events.extend(new)
    return state, events


def of_type(events, kind: str) -> list[dict]:
    return [e.payload for e in events if e.type == f"alkort.{kind}"]
