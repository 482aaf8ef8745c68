"""The knock window's answers and the knock exchange (docs/rules/allegra.md §7.3-§7.4).

Handlers in the shape :func:`rules.allegra.decide.decide` dispatches to: each
checks its action and answers with events. The exchange's last step (the
drawer's ``put``) also fills the knocker's hole and ends the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.allegra import events as ev
from rules.allegra import knock
from rules.allegra.checks import cell_in
from rules.allegra.geometry import Geometry
from rules.allegra.legal import knockers_of
from rules.allegra.rounds import end_of_turn
from rules.allegra.state import AllegraState, knock_of
from rules.core import Event, IllegalAction, MalformedAction, require_keys


def knock_answer(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    """The events of a knock or pass answer in the knock window (§7.3)."""
    return answer(state, seat, action, True)


def answer(
    state: AllegraState, seat: int, action: Mapping[str, Any], knocks: bool
) -> list[Event]:
    """Record one seat's answer; the window closes when the last is in."""
    require_keys(action, ())
    events = [Event(ev.KNOCK_ANSWERED, 1, {"seat": seat, "knock": knocks})]
    kn = knock_of(state)
    if len(kn.pending) == 1:
        knockers = sorted((*kn.knockers, seat) if knocks else kn.knockers)
        events.append(Event(ev.KNOCKS_REVEALED, 1, {"knockers": knockers}))
    return events


def give(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    """The drawer gives the drawn card to a knocker (§7.4, GIVE)."""
    require_keys(action, ("to",))
    to = action["to"]
    if not isinstance(to, int) or isinstance(to, bool):
        raise MalformedAction("'to' must be the seat number of a knocker")
    knockers = knockers_of(state)
    if to not in knockers:
        if not knockers:
            raise IllegalAction("Nobody knocked: there is no one to give the card to")
        raise IllegalAction(
            f"Seat {to} did not knock; you may give the card to seat "
            + ", ".join(map(str, knockers))
        )
    return [Event(ev.CARD_GIVEN, 1, {"seat": seat, "to": to, "card": state.drawn})]


def place(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    """The knocker places the card at ``k1`` and picks up O (KNOCKER_PLACE)."""
    require_keys(action, ("cell",))
    i = cell_in(state, geo, action, "cell", seat)
    if i not in knock.k1_choices(geo, state.cards, state.active, seat):
        raise IllegalAction(
            f"If you place the card at {geo.describe(i)}, seat {state.active} "
            "could not complete the exchange; choose another cell"
        )
    return [
        Event(
            ev.KNOCKER_PLACED,
            1,
            {
                "seat": seat,
                "cell": geo.cell(i),
                "card": state.drawn,
                "hand": state.cards[i],
                "hand_public": not state.down >> i & 1,
            },
        )
    ]


def take(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    """The drawer takes T from the knocker's area (DRAWER_TAKE)."""
    require_keys(action, ("cell",))
    kn = knock_of(state)
    assert kn.knocker is not None and kn.k1 is not None
    i = geo.parse(action["cell"])
    if i == kn.k1:
        raise IllegalAction(
            "You cannot take back the card you gave: it is protected until the "
            "exchange ends"
        )
    i = cell_in(state, geo, action, "cell", kn.knocker, f"seat {kn.knocker}'s")
    if i not in knock.k2_choices(geo, state.cards, seat, kn.knocker, kn.k1):
        raise IllegalAction(
            f"If you take the card at {geo.describe(i)}, no card of your area "
            "would be left to exchange it with"
        )
    return [
        Event(
            ev.CARD_TAKEN,
            1,
            {"seat": seat, "cell": geo.cell(i), "card": state.cards[i]},
        )
    ]


def put(
    state: AllegraState, seat: int, action: Mapping[str, Any], geo: Geometry
) -> list[Event]:
    """The drawer puts T in his area; O fills the hole; the turn ends (DRAWER_PLACE)."""
    require_keys(action, ("cell",))
    kn = knock_of(state)
    k1, k2 = kn.k1, kn.k2
    assert kn.knocker is not None and k1 is not None and k2 is not None
    i = geo.parse(action["cell"])
    if i == k1:
        raise IllegalAction(
            "You cannot put the card on the card you gave: it is protected until "
            "the exchange ends"
        )
    if i == k2:
        raise IllegalAction(
            f"Cell {geo.describe(i)} is the hole you took the card from; "
            f"seat {kn.knocker} fills it"
        )
    i = cell_in(state, geo, action, "cell", seat)
    events = [
        Event(
            ev.CARD_PUT,
            1,
            {
                "seat": seat,
                "cell": geo.cell(i),
                "card": kn.taken,
                "replaced": state.cards[i],
            },
        ),
        Event(
            ev.KNOCK_HOLE_FILLED,
            1,
            {"seat": kn.knocker, "cell": geo.cell(k2), "card": kn.hand},
        ),
    ]
    cards = list(state.cards)
    cards[i] = kn.taken
    cards[k2] = kn.hand
    down = state.down & ~(1 << i)
    return events + end_of_turn(state, cards, down, (k1, k2, i))
