"""Who wins a trick: the card powers of docs/rules/alkort.md B6 and the algorithm of B8.

A card's power depends on the card, on whether it was led, and on whether the
player of a seven has won a trick this deal. Powers are small integers:
:data:`SUPREME`, the ranked strengths 1..10, :data:`RUBBISH` (0) and
:data:`DEAD` (-1), so comparing two of them is one integer test plus the rubbish
captures.

>>> trick_winner(["KC", "3D", "2S", "QH"], [False] * 4)
2
>>> trick_winner(["7H", "KD", "2H", "4C"], [True, False, False, False])
0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules.alkort.tables import CAPTURES, DEAD, RUBBISH, STRENGTH, SUPREME

if TYPE_CHECKING:
    from rules.alkort.state import State


def power(card: str, led: bool, player_has_won: bool, seven_rule: str) -> int:
    """B6 (and V2 when ``seven_rule == "player_has_trick"``)."""
    if card[0] == "7":
        if player_has_won and (led or seven_rule == "player_has_trick"):
            return SUPREME
        return DEAD
    return STRENGTH[card]


def beats(card: str, card_power: int, winner: str, winner_power: int) -> bool:
    """B8 ``beats``: does the challenger strictly beat the current winner?"""
    if winner_power == SUPREME:
        return False
    if card_power == SUPREME:
        return True
    if card_power == DEAD:
        return False
    if card_power > RUBBISH:
        return winner_power <= RUBBISH or card_power > winner_power
    # The challenger is rubbish.
    if winner_power > RUBBISH:
        return False
    if winner_power == DEAD:
        return True
    captured = CAPTURES.get(card[0])
    return captured is not None and winner in captured


def trick_winner(
    cards: Sequence[str], has_won: Sequence[bool], seven_rule: str = "led"
) -> int:
    """Position of the winning card; ``has_won[i]`` is for the player of card i."""
    best = 0
    best_power = power(cards[0], True, has_won[0], seven_rule)
    for i in range(1, len(cards)):
        p = power(cards[i], False, has_won[i], seven_rule)
        if beats(cards[i], p, cards[best], best_power):
            best, best_power = i, p
    return best


def challenge(state: State, seat: int, card: str) -> int:
    """Position in the trick of its winner once ``seat`` adds ``card`` to it.

    The state keeps the position of the card winning the trick so far
    (``best``), so one comparison settles it.
    """
    trick = state.trick
    if not trick:
        return 0
    match = state.match
    best = state.best
    seat_tricks = state.tally.seat_tricks
    rule = match.rules.seven_rule
    wcard = trick[best]
    if wcard[0] == "7":
        wseat = (state.leader + best) % match.players
        wpow = power(wcard, best == 0, seat_tricks[wseat] > 0, rule)
    else:
        wpow = STRENGTH[wcard]
    if card[0] == "7":
        cpow = power(card, False, seat_tricks[seat] > 0, rule)
    else:
        cpow = STRENGTH[card]
    return len(trick) if beats(card, cpow, wcard, wpow) else best
