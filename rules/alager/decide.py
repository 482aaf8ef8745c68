"""Checking Alager actions and answering with events; who acts and what they may do.

``decide`` computes every consequence of an action (a refresh, the end of the
deal, the scoring, the next deal and its shuffle) and records it as events;
``evolve`` only applies them, so a replay needs no RNG and no rule checks.
The rules are docs/rules/alager.md; section numbers (§) and D-numbers in
comments refer to the rules text it is written from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.alager import events as ev
from rules.alager.evolve import evolve
from rules.alager.hands import special_kind
from rules.alager.options import deck_for
from rules.alager.scoring import outcome, score_deal
from rules.alager.state import AlagerState, replace_state
from rules.cards import Card, is_card, parse_card
from rules.core import (
    Action,
    Event,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    match_ended,
    require_keys,
    require_type,
)

ACTION_TYPES = ("draw", "swap", "swap_all", "pass", "konec")

_PLAYING = ("normal", "final")
#: The keys of each action type in its canonical form (``konec`` may be added to
#: an exchange when ``konec_after_exchange`` is on).
_KEYS: dict[str, frozenset[str]] = {
    "draw": frozenset({"type", "discard"}),
    "swap": frozenset({"type", "give", "take"}),
    "swap_all": frozenset({"type"}),
    "pass": frozenset({"type"}),
    "konec": frozenset({"type"}),
}


def _next_in(order: tuple[int, ...], seat: int) -> int:
    return order[(order.index(seat) + 1) % len(order)]


# ---------------------------------------------------------------- reading


def to_act(state: AlagerState) -> tuple[int, ...]:
    """The seat to act, or ``()`` between deals and when the match is over."""
    if state.phase in _PLAYING and state.current is not None:
        return (state.current,)
    return ()


def konec_allowed(state: AlagerState) -> bool:
    """May the seat to act knock now (D-12 and ``konec_min_round``)?"""
    return state.phase == "normal" and state.turns_taken >= (
        state.rules.konec_min_round - 1
    ) * len(state.order)


def legal_actions(state: AlagerState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now, in canonical form."""
    if state.phase not in _PLAYING or seat != state.current:
        return []
    hand = state.hands[seat]
    exchanges: list[Action] = [{"type": "draw", "discard": c} for c in hand]
    exchanges += [
        {"type": "swap", "give": h, "take": t} for h in hand for t in state.table
    ]
    exchanges.append({"type": "swap_all"})
    knock = konec_allowed(state)
    out = list(exchanges)
    if knock and state.rules.konec_after_exchange:
        out += [{**a, "konec": True} for a in exchanges]
    out.append({"type": "pass"})
    if knock:
        out.append({"type": "konec"})
    return out


# ---------------------------------------------------------------- deciding


def decide(state: AlagerState, seat: int, action: Mapping[str, Any]) -> list[Event]:
    """The events ``action`` by ``seat`` causes; raises IllegalAction."""
    if state.phase not in _PLAYING:
        raise GameOver("The match is over")
    if seat != state.current:
        raise NotYourTurn(f"It is not your turn: seat {state.current} is to act")
    kind = action.get("type") if type(action) is dict else None
    keys = _KEYS.get(kind) if type(kind) is str else None
    if keys is not None and action.keys() == keys:
        knock = False  # the canonical form, as legal_actions lists it
    else:
        kind, knock = _check_action(state, action)
    if kind == "swap":
        return _decide_swap(state, seat, action, knock)
    if kind == "draw":
        return _decide_draw(state, seat, action, knock)
    if kind == "swap_all":
        hand = state.hands[seat]
        event = Event(
            ev.HAND_SWAPPED,
            1,
            {"seat": seat, "gave": list(hand), "took": list(state.table)},
        )
        return _after_exchange(state, seat, state.table, [event], knock)
    if kind == "pass":
        return _decide_pass(state, seat)
    if state.phase != "normal":
        raise IllegalAction(
            "Konec has been called: this is your last turn, not a knock"
        )
    if not konec_allowed(state):
        raise IllegalAction(_konec_too_early(state))
    event = Event(ev.KONEC_CALLED, 1, _konec_payload(state, seat, False))
    return _after_turn(state, seat, [event], knocked=True)


def _check_action(state: AlagerState, action: object) -> tuple[str, bool]:
    """The slow path of ``decide``: every shape check, with a clear message.

    Returns the action's type and whether it carries a valid konec flag.
    """
    kind = require_type(action, ACTION_TYPES)
    assert isinstance(action, Mapping)
    required = sorted(_KEYS[kind] - {"type"})
    if kind in ("pass", "konec"):
        require_keys(action, required)
        return kind, False
    require_keys(action, required, ("konec",))
    flag = action.get("konec", False)
    if not isinstance(flag, bool):
        raise MalformedAction("'konec' must be true or false")
    if flag:
        if not state.rules.konec_after_exchange:
            raise IllegalAction(
                "Konec cannot be added to an exchange in this match "
                "(konec_after_exchange is off): knock instead of exchanging"
            )
        if state.phase != "normal":
            raise IllegalAction("Konec has already been called in this deal")
        if not konec_allowed(state):
            raise IllegalAction(_konec_too_early(state))
    return kind, flag


def _konec_too_early(state: AlagerState) -> str:
    r = state.rules.konec_min_round
    return f"Konec may be called only from round {r} of the deal on"


def _card(action: Mapping[str, Any], key: str) -> Card:
    value = action[key]
    return value if is_card(value) else parse_card(value)


def _decide_draw(
    state: AlagerState, seat: int, action: Mapping[str, Any], knock: bool
) -> list[Event]:
    card = _card(action, "discard")
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction(f"{card} is not in your hand")
    slot = hand.index(card)
    face_down = state.rules.a1_discard_to == "stock_bottom"
    events = [
        Event(
            ev.CARD_DISCARDED,
            1,
            {"seat": seat, "card": card, "slot": slot, "face_down": face_down},
        )
    ]
    stock = state.stock
    if face_down:
        stock = stock + (card,)
    elif not stock:  # D-10: the pile, this discard included, goes under the stock
        replenish, stock = _replenish(state, state.discard + (card,))
        events.append(replenish)
    drawn = stock[0]
    events.append(Event(ev.CARD_DRAWN, 1, {"seat": seat, "card": drawn, "slot": slot}))
    new_hand = hand[:slot] + (drawn,) + hand[slot + 1 :]
    return _after_exchange(state, seat, new_hand, events, knock)


def _decide_swap(
    state: AlagerState, seat: int, action: Mapping[str, Any], knock: bool
) -> list[Event]:
    give = _card(action, "give")
    take = _card(action, "take")
    hand = state.hands[seat]
    if give not in hand:
        raise IllegalAction(f"{give} is not in your hand")
    if take not in state.table:
        on_table = " ".join(state.table)
        raise IllegalAction(f"{take} is not on the table (the table is {on_table})")
    slot = state.table.index(take)
    hand_slot = hand.index(give)
    event = Event(
        ev.CARD_SWAPPED, 1, {"seat": seat, "give": give, "take": take, "slot": slot}
    )
    new_hand = hand[:hand_slot] + (take,) + hand[hand_slot + 1 :]
    return _after_exchange(state, seat, new_hand, [event], knock)


def _decide_pass(state: AlagerState, seat: int) -> list[Event]:
    if state.phase != "normal":
        event = Event(ev.PASSED, 1, {"seat": seat, "pass_streak": 0})
        return _after_turn(state, seat, [event], knocked=False)
    streak = state.pass_streak + 1
    events = [Event(ev.PASSED, 1, {"seat": seat, "pass_streak": streak})]
    if streak == len(state.order):  # §8: everyone passed in a row
        stock = state.stock
        if len(stock) < 3:
            replenish, stock = _replenish(state, state.discard)
            events.append(replenish)
        stock = stock + state.table
        events.append(
            Event(
                ev.TABLE_REFRESHED,
                1,
                {
                    "removed": list(state.table),
                    "table": list(stock[:3]),
                    "next": _next_in(state.order, seat),
                },
            )
        )
    return _after_turn(state, seat, events, knocked=False)


def _replenish(
    state: AlagerState, pile: tuple[Card, ...]
) -> tuple[Event, tuple[Card, ...]]:
    """D-10: the discard pile goes under the stock (shuffled with the option).

    A shuffled pile is the match's next reshuffle (key ``"r<m>"``, never a
    deal's: ``rules/dealing.py``). Returns the event and the stock it leaves;
    ``evolve`` advances the chance.
    """
    payload: dict[str, Any] = {"recycled": list(pile)}
    if state.rules.replenish_shuffle:
        order, k, _ = state.chance.reshuffle(pile)
        payload = {
            "recycled": sorted(pile),
            "reshuffle": True,
            "shuffle": k,
            "deck": order,
            "shuffled_from": list(pile),
        }
        pile = tuple(order)
    return Event(ev.STOCK_REPLENISHED, 1, payload), state.stock + pile


def _after_exchange(
    state: AlagerState,
    seat: int,
    new_hand: tuple[Card, ...],
    events: list[Event],
    knock: bool,
) -> list[Event]:
    kind = special_kind(new_hand, hori_enabled=state.rules.hori_enabled)
    if kind is not None:  # D-7: announced at once; a konec flag is void
        return events + _end_deal(_fold(state, events), "special", ((seat, kind),))
    if knock:
        events.append(Event(ev.KONEC_CALLED, 1, _konec_payload(state, seat, True)))
    return _after_turn(state, seat, events, knocked=knock)


def _konec_payload(
    state: AlagerState, seat: int, after_exchange: bool
) -> dict[str, Any]:
    order = state.order
    i = order.index(seat)
    queue = list(order[i + 1 :] + order[:i])
    return {"seat": seat, "final_queue": queue, "after_exchange": after_exchange}


def _after_turn(
    state: AlagerState, seat: int, events: list[Event], *, knocked: bool
) -> list[Event]:
    """The end of a turn: the final round may be complete, or the turn limit reached.

    After a final turn that leaves seats still owed one, the queue that remains
    is recorded (§9, §13); the last final turn ends the deal.
    """
    if state.phase == "final":
        if len(state.final_queue) <= 1:
            return events + _end_deal(_fold(state, events), "konec", ())
        queue = list(state.final_queue[1:])
        events.append(Event(ev.FINAL_QUEUE_ADVANCED, 1, {"queue": queue}))
    elif not knocked and state.turns_taken + 1 >= state.max_turns:
        return events + _end_deal(_fold(state, events), "forced", ())
    return events


def _fold(state: AlagerState, events: Sequence[Event]) -> AlagerState:
    for event in events:
        state = evolve(state, event)
    return state


# ---------------------------------------------------------------- deals


def _end_deal(
    state: AlagerState, reason: str, specials: tuple[tuple[int, str], ...]
) -> list[Event]:
    """Announcements, scoring (§11), then the next deal or the end of the match."""
    events = [
        Event(ev.SPECIAL_ANNOUNCED, 1, {"seat": s, "kind": k}) for s, k in specials
    ]
    result = score_deal(state, reason, specials)
    events.append(Event(ev.DEAL_ENDED, 1, result.to_json()))
    state = _fold(state, events)
    if result.next_dealer is None:
        end = match_ended(
            "alager",
            outcome=outcome(replace_state(state, phase="over")),
            penalties=list(state.penalties),
            seed=state.chance.seed,
        )
        return [*events, end]
    return events + deal_events(state)


def deal_events(state: AlagerState) -> list[Event]:
    """Deal the next deal (§5); a dealt special hand ends it at once (D-7a, D-8).

    Deal ``j`` of the match (``deal - 1``, given decks counted) is the given
    deck or the shuffle with key ``j`` (§5 step 1).
    """
    rules = state.rules
    deck, k, _ = state.chance.next_deal(deck_for(rules.deck))
    if state.last_deal is None:
        dealer = rules.first_dealer
    else:
        dealer = state.last_deal.next_dealer  # type: ignore[assignment]
    n = state.players
    active = [s for s in range(n) if state.eliminated_in[s] is None]
    order = [(dealer + i) % n for i in range(1, n + 1)]
    order = [s for s in order if s in active]
    m = len(order)
    hands: list[list[Card] | None] = [None] * n
    for k_off, s in enumerate(order):
        if rules.deal_pattern == "single":
            hands[s] = [deck[k_off], deck[k_off + m], deck[k_off + 2 * m]]
        else:
            hands[s] = deck[3 * k_off : 3 * k_off + 3]
    event = Event(
        ev.DEAL_STARTED,
        1,
        {
            "deal": state.deal + 1,
            "dealer": dealer,
            "eldest": order[0],
            "order": order,
            "hands": hands,
            "table": deck[3 * m : 3 * m + 3],
            "stock_count": len(deck) - 3 * m - 3,
            "deck": deck,
            "shuffle": k,
        },
    )
    state = evolve(state, event)
    specials = tuple(
        (s, kind)
        for s in order
        if (kind := special_kind(state.hands[s], hori_enabled=rules.hori_enabled))
    )
    if specials:
        return [event, *_end_deal(state, "special", specials)]
    return [event]
