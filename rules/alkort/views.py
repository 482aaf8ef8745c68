"""What one seat may see (ALKORT.md B11): views and redacted events.

A seat sees its own hand, every public announcement (exchange-phase passes, an
exchanger's shown hand, played cards, trick winners, scores), its partner's
revealed card and, as the exchanger, its kept card, discards and the stock it
took. Nobody sees another hand, the stock, the 2-player dead pile or the seed
while the match is in play.
"""

from __future__ import annotations

from typing import Any

from rules.alkort import events as ev
from rules.alkort.state import State, side_of
from rules.alkort.tables import sort_hand
from rules.core import Event, Seat, outcome_from_scores, strip_secrets


def outcome(state: State) -> dict[str, Any] | None:
    match = state.match
    if not match.ended:
        return None
    return outcome_from_scores(
        [match.scores[side_of(s)] for s in range(match.players)],
        lower_is_better=False,
    )


def view(state: State, seat: Seat) -> dict[str, Any]:
    match = state.match
    deal = state.deal
    tally = state.tally
    players = match.players
    mine = seat is not None and 0 <= seat < players
    exchange: dict[str, Any] = {
        "passed": list(deal.passed),
        "exchanger": deal.exchanger,
        "shown": list(sort_hand(deal.shown)) if deal.exchanger is not None else None,
    }
    if mine and deal.exchanger == seat:
        exchange.update(
            kept=deal.kept, taken=list(deal.taken), discards=list(deal.discards)
        )
    reveal: dict[str, Any] | None = None
    if deal.reveals and mine:
        assert seat is not None
        partner = (seat + 2) % players
        reveal = {
            "partner": partner,
            "shown": deal.reveals[seat],
            "received": deal.reveals[partner],
        }
    turn = state.turn
    return {
        "game": "alkort",
        "players": players,
        "options": match.rules.to_options(),
        "seat": seat,
        "phase": state.phase,
        "to_act": [turn] if turn >= 0 else [],
        "outcome": outcome(state),
        "seed_sha256": match.seed_sha256,
        "sides": [[s for s in range(players) if side_of(s) == side] for side in (0, 1)],
        "scores": list(match.scores),
        "seat_scores": [match.scores[side_of(s)] for s in range(players)],
        "target": match.rules.target,
        "results": [
            {
                "deal": r.deal,
                "side": r.side,
                "points": r.points,
                "kind": r.kind,
                "run": r.run,
                "tricks": list(r.tricks),
            }
            for r in match.results
        ],
        "deal": deal.number,
        "dealer": deal.dealer,
        "forehand": deal.forehand,
        "hand": list(state.hands[seat]) if mine and seat is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
        "exchange": exchange,
        "partner_reveal": deal.reveals != () and players == 4,
        "reveal": reveal,
        "leader": state.leader,
        "trick": [
            {"seat": (state.leader + i) % players, "card": c}
            for i, c in enumerate(state.trick)
        ],
        "winning": (state.leader + state.best) % players if state.trick else None,
        "tricks": [
            {"leader": t.leader, "cards": list(t.cards), "winner": t.winner}
            for t in tally.done
        ],
        "tricks_won": {
            "sides": list(tally.side_tricks),
            "seats": list(tally.seat_tricks),
        },
        "has_won": [n > 0 for n in tally.seat_tricks],
    }


def redact(event: Event, seat: Seat) -> Event:
    kind = event.type
    if kind in _PUBLIC:
        return event
    if kind == ev.CARDS_DEALT:
        p = event.payload
        hands = p["hands"]
        payload = {k: v for k, v in p.items() if k not in _DEAL_SECRETS}
        payload["hands"] = [
            list(sort_hand(h)) if i == seat else None for i, h in enumerate(hands)
        ]
        return Event(kind, event.version, payload)
    if kind == ev.STOCK_EXCHANGED:
        p = event.payload
        if seat == p["seat"]:
            return event
        return Event(
            kind,
            event.version,
            {"seat": p["seat"], "shown": list(sort_hand(p["shown"]))},
        )
    if kind == ev.PARTNERS_REVEALED:
        reveals = [
            r
            if seat in (r["seat"], r["partner"])
            else {"seat": r["seat"], "partner": r["partner"]}
            for r in event.payload["reveals"]
        ]
        return Event(kind, event.version, {"reveals": reveals})
    return strip_secrets(event)


_PUBLIC = frozenset(
    {ev.EXCHANGE_PASSED, ev.CARD_PLAYED, ev.TRICK_WON, ev.DEAL_SCORED, ev.MATCH_ENDED}
)
_DEAL_SECRETS = frozenset({"deck", "stock", "dead", "hands"})
