"""Checking actions and answering with events; the legal actions of a seat.

Actions (docs/rules-api-alkort.md): ``{"type": "exchange", "keep": "7C"}`` and
``{"type": "pass"}`` in the exchange phase, ``{"type": "play", "card": "KD"}``
during play. A card play that completes a trick also produces the trick's
result, and the end of a deal its score and then the next deal or the end of
the match, so that the state after every action is one where a seat must act.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.alkort import events as ev
from rules.alkort.scoring import deal_over, score
from rules.alkort.state import Match, State, side_of
from rules.alkort.tables import (
    DECK,
    HAND_SIZE,
    ORDER,
    STOCK_SIZE,
    high_cards,
    is_eligible,
    reveal_card,
)
from rules.alkort.tricks import challenge
from rules.cards import parse_card
from rules.core import (
    Action,
    Event,
    IllegalAction,
    MalformedAction,
    UnknownAction,
    check_turn,
    match_ended,
    outcome_from_scores,
    require_keys,
    require_type,
)

ACTION_TYPES = ("exchange", "pass", "play")


def to_act(state: State) -> tuple[int, ...]:
    """The seat to act, or ``()`` when the match is over."""
    return (state.turn,) if state.turn >= 0 else ()


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action ``seat`` may take now, in canonical form (``[]`` off turn)."""
    if seat != state.turn:
        return []
    hand = state.hands[seat]
    if state.phase == "exchange":
        actions: list[Action] = [{"type": "pass"}]
        if is_eligible(hand):
            actions.extend({"type": "exchange", "keep": c} for c in hand)
        return actions
    return [{"type": "play", "card": c} for c in playable(state, seat)]


def playable(state: State, seat: int) -> tuple[str, ...]:
    """The cards ``seat`` may play now (it must be its turn in play)."""
    hand = state.hands[seat]
    if (
        state.trick
        or state.match.rules.seven_rule != "led"
        or state.tally.seat_tricks[seat]
    ):
        return hand
    others = tuple(c for c in hand if c[0] != "7")
    return others or hand


def decide(state: State, seat: int, action: Mapping[str, Any]) -> list[Event]:
    """The events ``action`` by ``seat`` causes; raises IllegalAction."""
    if seat != state.turn or state.turn < 0:
        check_turn(to_act(state), seat)
    if type(action) is dict and len(action) == 2 and action.get("type") == "play":
        # The hot path: a well-formed card play in canonical notation.
        card = action.get("card")
        if type(card) is str and card in ORDER and state.phase == "play":
            return play(state, seat, card)
    kind = require_type(action, ACTION_TYPES)
    if kind == "play":
        require_keys(action, ("card",))
        if state.phase != "play":
            raise UnknownAction(
                "Cards are played after the stock exchange: exchange or pass first"
            )
        card = action["card"]
        if not (isinstance(card, str) and card in ORDER):
            card = _card(card)
        return play(state, seat, card)
    if state.phase != "exchange":
        raise UnknownAction("The stock exchange is over: play a card")
    if kind == "pass":
        require_keys(action, ())
        return _finish_exchange(state, Event(ev.EXCHANGE_PASSED, 1, {"seat": seat}))
    require_keys(action, ("keep",))
    return _exchange(state, seat, _card(action["keep"]))


def _card(text: object) -> str:
    card = parse_card(text)
    if card not in ORDER:
        raise MalformedAction(
            f"{card} is not an Alkort card: the pack has no fives or tens"
        )
    return card


def _exchange(state: State, seat: int, keep: str) -> list[Event]:
    hand = state.hands[seat]
    if not is_eligible(hand):
        strong = ", ".join(high_cards(hand))
        raise IllegalAction(
            "You may exchange only a hand that cannot beat a led low eight; "
            f"yours holds {strong}"
        )
    if keep not in hand:
        raise IllegalAction(f"{keep} is not in your hand")
    stock = state.deal.stock
    payload = {
        "seat": seat,
        "shown": list(hand),
        "keep": keep,
        "discards": [c for c in hand if c != keep],
        "taken": list(stock),
    }
    return _finish_exchange(state, Event(ev.STOCK_EXCHANGED, 1, payload))


def _finish_exchange(state: State, event: Event) -> list[Event]:
    """The exchange event, then the partner reveal when the phase ends with it."""
    p = event.payload
    if event.type == ev.EXCHANGE_PASSED and p["seat"] != state.deal.dealer:
        return [event]
    if state.match.players != 4 or not state.match.rules.partner_reveal:
        return [event]
    hands = list(state.hands)
    if event.type == ev.STOCK_EXCHANGED:
        hands[p["seat"]] = (p["keep"], *p["taken"])
    return [event, partners_revealed(hands)]


def play(state: State, seat: int, card: str, *, next_deal: bool = True) -> list[Event]:
    """The events of ``seat`` playing ``card`` (its turn in the play phase).

    Searching bots call this directly with ``next_deal=False``: the events then
    stop at the deal's score, without dealing (and shuffling) the next deal.
    """
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction(f"{card} is not in your hand")
    trick = state.trick
    match = state.match
    rules = match.rules
    seat_tricks = state.tally.seat_tricks
    if (
        not trick
        and card[0] == "7"
        and rules.seven_rule == "led"
        and not seat_tricks[seat]
        and any(c[0] != "7" for c in hand)
    ):
        raise IllegalAction(
            "You cannot lead a 7 before you have won a trick yourself; "
            "lead another card"
        )
    played = Event(ev.CARD_PLAYED, 1, {"seat": seat, "card": card})
    players = match.players
    if len(trick) + 1 < players:
        return [played]
    # The card completes the trick.
    leader = state.leader
    wseat = (leader + challenge(state, seat, card)) % players
    tally = state.tally
    number = len(tally.done) + 1
    side = side_of(wseat)
    won = Event(
        ev.TRICK_WON,
        1,
        {
            "trick": number,
            "leader": leader,
            "cards": [*trick, card],
            "seat": wseat,
            "side": side,
        },
    )
    if number < 5:  # nobody can have five tricks yet
        return [played, won]
    sides = [side_of(t.winner) for t in tally.done]
    sides.append(side)
    if not deal_over(sides, play_out=rules.play_out_all_tricks):
        return [played, won]
    return [played, won, *_end_of_deal(state, sides, next_deal)]


def _end_of_deal(state: State, sides: list[int], next_deal: bool) -> list[Event]:
    match = state.match
    side, points, kind, run = score(sides)
    scores = list(match.scores)
    scores[side] += points
    b = sum(sides)
    scored = Event(
        ev.DEAL_SCORED,
        1,
        {
            "deal": state.deal.number,
            "side": side,
            "points": points,
            "kind": kind,
            "run": run,
            "tricks": [len(sides) - b, b],
            "scores": scores,
        },
    )
    if not next_deal:
        return [scored]
    if scores[side] >= match.rules.target:
        players = match.players
        outcome = outcome_from_scores(
            [scores[side_of(s)] for s in range(players)], lower_is_better=False
        )
        ended = match_ended("alkort", outcome=outcome, seed=match.chance.seed)
        return [scored, ended]
    dealer = (state.deal.dealer + 1) % match.players
    return [scored, cards_dealt(match, state.deal.number + 1, dealer)]


# ---------------------------------------------------------------- deals


def deal_from(deck: Sequence[str], players: int, forehand: int) -> list[list[str]]:
    """B3: three rounds of three cards each, from forehand clockwise."""
    hands: list[list[str]] = [[] for _ in range(players)]
    pos = 0
    for _round in range(3):
        for k in range(players):
            hands[(forehand + k) % players].extend(deck[pos : pos + 3])
            pos += 3
    return hands


def cards_dealt(match: Match, number: int, dealer: int) -> Event:
    """The deal event for deal ``number`` (1-based), with the next deck.

    B2: the deck is given, or the match's shuffle with key ``number - 1``.
    """
    deck, k, _ = match.chance.next_deal(DECK)
    players = match.players
    forehand = (dealer + 1) % players
    dealt = HAND_SIZE * players
    payload: dict[str, Any] = {
        "deal": number,
        "dealer": dealer,
        "forehand": forehand,
        "hands": deal_from(deck, players, forehand),
        "stock": list(deck[dealt : dealt + STOCK_SIZE]),
        "dead": list(deck[dealt + STOCK_SIZE :]),
        "deck": list(deck),
        "shuffle": k,
    }
    return Event(ev.CARDS_DEALT, 1, payload)


def partners_revealed(hands: Sequence[Sequence[str]]) -> Event:
    """B5: every player shows their partner one card (null for ``NONE``)."""
    players = len(hands)
    return Event(
        ev.PARTNERS_REVEALED,
        1,
        {
            "reveals": [
                {"seat": s, "partner": (s + 2) % players, "card": reveal_card(hands[s])}
                for s in range(players)
            ]
        },
    )
