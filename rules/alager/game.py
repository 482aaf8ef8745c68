"""Alager as a decider: actions in, events out, state as a fold of events.

The rules are ../shared/rules/ALAGER.md (the section numbers and D-numbers in
comments refer to it); docs/rules-api-alager.md lists the actions, events and
view. ``decide`` computes every consequence of an action (a refresh, the end of
the deal, the scoring, the next deal and its shuffle) and records it as events;
``evolve`` only applies them, so a replay needs no RNG and no rule checks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules import dealing
from rules.alager import views
from rules.alager.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARD_SWAPPED,
    DEAL_ENDED,
    DEAL_STARTED,
    EVOLVERS,
    HAND_SWAPPED,
    KONEC_CALLED,
    MATCH_STARTED,
    PASSED,
    SPECIAL_ANNOUNCED,
    STOCK_REPLENISHED,
    TABLE_REFRESHED,
    make_event,
)
from rules.alager.hands import special_kind
from rules.alager.options import OPTIONS, max_players, resolve_rules
from rules.alager.scoring import score_deal
from rules.alager.state import AlagerState, Rules, with_
from rules.cards import Card, deck32, deck52, is_card, parse_card
from rules.core import (
    Action,
    Event,
    Game,
    GameOver,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    NotYourTurn,
    Seat,
    match_ended,
    match_started,
    outcome_from_scores,
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


class AlagerGame(Game[AlagerState]):
    """Alager (Alagér, Resto): the Czech three-card exchange game."""

    name = "alager"
    title = "Alager"
    min_players = 2
    max_players = 15
    lower_score_is_better = True
    state_type = AlagerState
    OPTIONS = OPTIONS

    # ------------------------------------------------------------ setup

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return 2, max_players(options["deck"])

    def standard_deck(self, options: Mapping[str, Any]) -> list[Card]:
        return deck32() if options.get("deck", 52) == 32 else deck52()

    def start(
        self,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        deck: Sequence[Any] | None = None,
    ) -> list[Event]:
        opts = self.validate_options(options)
        self.validate_players(players, opts)
        rules = resolve_rules(opts, players)
        seed_text = dealing.seed_or_new(seed)
        decks = self._check_decks(deck, opts)
        first = match_started(
            "alager",
            players=players,
            options=rules.as_options(),
            seed=seed_text,
            decks=decks,
        )
        state = self.evolve(None, first)
        return [first, *self._deal_events(state)]

    def _check_decks(
        self, deck: Sequence[Any] | None, opts: Mapping[str, Any]
    ) -> tuple[tuple[Card, ...], ...]:
        standard = sorted(self.standard_deck(opts))
        out = []
        for d in dealing.normalise_decks(deck):
            try:
                cards = tuple(parse_card(c) for c in d)
            except MalformedAction as exc:
                raise InvalidOptions(f"A given deck holds a bad card: {exc}") from None
            if sorted(cards) != standard:
                raise InvalidOptions(
                    f"A given deck must hold each of the {len(standard)} cards "
                    "of the chosen deck exactly once"
                )
            out.append(cards)
        return tuple(out)

    # ------------------------------------------------------------ reading

    def to_act(self, state: AlagerState) -> tuple[int, ...]:
        if state.phase in _PLAYING and state.current is not None:
            return (state.current,)
        return ()

    def konec_allowed(self, state: AlagerState) -> bool:
        """May the seat to act knock now (D-12 and ``konec_min_round``)?"""
        return state.phase == "normal" and state.turns_taken >= (
            state.rules.konec_min_round - 1
        ) * len(state.order)

    def legal_actions(self, state: AlagerState, seat: int) -> list[Action]:
        if state.phase not in _PLAYING or seat != state.current:
            return []
        hand = state.hands[seat]
        exchanges: list[Action] = [{"type": "draw", "discard": c} for c in hand]
        exchanges += [
            {"type": "swap", "give": h, "take": t} for h in hand for t in state.table
        ]
        exchanges.append({"type": "swap_all"})
        knock = self.konec_allowed(state)
        out = list(exchanges)
        if knock and state.rules.konec_after_exchange:
            out += [{**a, "konec": True} for a in exchanges]
        out.append({"type": "pass"})
        if knock:
            out.append({"type": "konec"})
        return out

    def outcome(self, state: AlagerState) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        scores = list(state.penalties)
        if state.rules.end_mode != "elimination":
            return outcome_from_scores(scores, lower_is_better=True)
        # The survivor first; then later eliminations; within a deal, fewer points.
        never = state.deal + 1
        keys = [
            (-(never if e is None else e), p)
            for e, p in zip(state.eliminated_in, scores, strict=True)
        ]
        places = [1 + sum(1 for o in keys if o < k) for k in keys]
        return outcome_from_scores(scores, lower_is_better=True, places=places)

    # ------------------------------------------------------------ deciding

    def decide(
        self, state: AlagerState, seat: int, action: Mapping[str, Any]
    ) -> list[Event]:
        if state.phase not in _PLAYING:
            raise GameOver("The match is over")
        if seat != state.current:
            raise NotYourTurn(f"It is not your turn: seat {state.current} is to act")
        kind = action.get("type") if type(action) is dict else None
        keys = _KEYS.get(kind) if type(kind) is str else None
        if keys is not None and action.keys() == keys:
            knock = False  # the canonical form, as legal_actions lists it
        else:
            kind, knock = self._check_action(state, action)
        if kind == "swap":
            return self._decide_swap(state, seat, action, knock)
        if kind == "draw":
            return self._decide_draw(state, seat, action, knock)
        if kind == "swap_all":
            hand = state.hands[seat]
            event = make_event(
                HAND_SWAPPED,
                {"seat": seat, "gave": list(hand), "took": list(state.table)},
            )
            return self._after_exchange(state, seat, state.table, [event], knock)
        if kind == "pass":
            return self._decide_pass(state, seat)
        if state.phase != "normal":
            raise IllegalAction(
                "Konec has been called: this is your last turn, not a knock"
            )
        if not self.konec_allowed(state):
            raise IllegalAction(self._konec_too_early(state))
        event = make_event(KONEC_CALLED, self._konec_payload(state, seat, False))
        return self._after_turn(state, seat, [event], knocked=True)

    def _check_action(self, state: AlagerState, action: object) -> tuple[str, bool]:
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
            if not self.konec_allowed(state):
                raise IllegalAction(self._konec_too_early(state))
        return kind, flag

    def _konec_too_early(self, state: AlagerState) -> str:
        r = state.rules.konec_min_round
        return f"Konec may be called only from round {r} of the deal on"

    @staticmethod
    def _card(action: Mapping[str, Any], key: str) -> Card:
        value = action[key]
        return value if is_card(value) else parse_card(value)

    def _decide_draw(
        self, state: AlagerState, seat: int, action: Mapping[str, Any], knock: bool
    ) -> list[Event]:
        card = self._card(action, "discard")
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction(f"{card} is not in your hand")
        slot = hand.index(card)
        face_down = state.rules.a1_discard_to == "stock_bottom"
        events = [
            make_event(
                CARD_DISCARDED,
                {"seat": seat, "card": card, "slot": slot, "face_down": face_down},
            )
        ]
        stock = state.stock
        if face_down:
            stock = stock + (card,)
        elif not stock:  # D-10: the pile, this discard included, goes under the stock
            replenish, stock = self._replenish(state, state.discard + (card,))
            events.append(replenish)
        drawn = stock[0]
        events.append(
            make_event(CARD_DRAWN, {"seat": seat, "card": drawn, "slot": slot})
        )
        new_hand = hand[:slot] + (drawn,) + hand[slot + 1 :]
        return self._after_exchange(state, seat, new_hand, events, knock)

    def _decide_swap(
        self, state: AlagerState, seat: int, action: Mapping[str, Any], knock: bool
    ) -> list[Event]:
        give = self._card(action, "give")
        take = self._card(action, "take")
        hand = state.hands[seat]
        if give not in hand:
            raise IllegalAction(f"{give} is not in your hand")
        if take not in state.table:
            on_table = " ".join(state.table)
            raise IllegalAction(f"{take} is not on the table (the table is {on_table})")
        slot = state.table.index(take)
        hand_slot = hand.index(give)
        event = make_event(
            CARD_SWAPPED, {"seat": seat, "give": give, "take": take, "slot": slot}
        )
        new_hand = hand[:hand_slot] + (take,) + hand[hand_slot + 1 :]
        return self._after_exchange(state, seat, new_hand, [event], knock)

    def _decide_pass(self, state: AlagerState, seat: int) -> list[Event]:
        if state.phase != "normal":
            event = make_event(PASSED, {"seat": seat, "pass_streak": 0})
            return self._after_turn(state, seat, [event], knocked=False)
        streak = state.pass_streak + 1
        events = [make_event(PASSED, {"seat": seat, "pass_streak": streak})]
        if streak == len(state.order):  # §8: everyone passed in a row
            stock = state.stock
            if len(stock) < 3:
                replenish, stock = self._replenish(state, state.discard)
                events.append(replenish)
            stock = stock + state.table
            events.append(
                make_event(
                    TABLE_REFRESHED,
                    {
                        "removed": list(state.table),
                        "table": list(stock[:3]),
                        "next": _next_in(state.order, seat),
                    },
                )
            )
        return self._after_turn(state, seat, events, knocked=False)

    def _replenish(
        self, state: AlagerState, pile: tuple[Card, ...]
    ) -> tuple[Event, tuple[Card, ...]]:
        """D-10: the discard pile goes under the stock (shuffled with the option).

        Returns the event and the stock it leaves; ``evolve`` advances the chance.
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
        return Event(STOCK_REPLENISHED, 1, payload), state.stock + pile

    def _after_exchange(
        self,
        state: AlagerState,
        seat: int,
        new_hand: tuple[Card, ...],
        events: list[Event],
        knock: bool,
    ) -> list[Event]:
        kind = special_kind(new_hand, hori_enabled=state.rules.hori_enabled)
        if kind is not None:  # D-7: announced at once; a konec flag is void
            return events + self._end_deal(
                self._fold(state, events), "special", ((seat, kind),)
            )
        if knock:
            events.append(
                make_event(KONEC_CALLED, self._konec_payload(state, seat, True))
            )
        return self._after_turn(state, seat, events, knocked=knock)

    def _konec_payload(
        self, state: AlagerState, seat: int, after_exchange: bool
    ) -> dict[str, Any]:
        order = state.order
        i = order.index(seat)
        queue = list(order[i + 1 :] + order[:i])
        return {"seat": seat, "final_queue": queue, "after_exchange": after_exchange}

    def _after_turn(
        self, state: AlagerState, seat: int, events: list[Event], *, knocked: bool
    ) -> list[Event]:
        """The end of a turn: the final round may be complete, or the turn limit reached."""
        if state.phase == "final":
            if len(state.final_queue) <= 1:
                return events + self._end_deal(self._fold(state, events), "konec", ())
        elif not knocked and state.turns_taken + 1 >= state.max_turns:
            return events + self._end_deal(self._fold(state, events), "forced", ())
        return events

    def _fold(self, state: AlagerState, events: Sequence[Event]) -> AlagerState:
        for event in events:
            state = self.evolve(state, event)
        return state

    # ------------------------------------------------------------ deals

    def _end_deal(
        self, state: AlagerState, reason: str, specials: tuple[tuple[int, str], ...]
    ) -> list[Event]:
        """Announcements, scoring (§11), then the next deal or the end of the match."""
        events = [
            Event(SPECIAL_ANNOUNCED, 1, {"seat": s, "kind": k}) for s, k in specials
        ]
        result = score_deal(state, reason, specials)
        events.append(Event(DEAL_ENDED, 1, result.to_json()))
        state = self._fold(state, events)
        if result.next_dealer is None:
            outcome = self.outcome(with_(state, phase="over"))
            end = match_ended(
                "alager",
                outcome=outcome,
                penalties=list(state.penalties),
                seed=state.chance.seed,
            )
            return [*events, end]
        return events + self._deal_events(state)

    def _deal_events(self, state: AlagerState) -> list[Event]:
        """Deal the next deal (§5); a dealt special hand ends it at once (D-7a, D-8)."""
        rules = state.rules
        deck, k, _ = state.chance.next_deal(self.standard_deck({"deck": rules.deck}))
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
            DEAL_STARTED,
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
        state = self.evolve(state, event)
        specials = tuple(
            (s, kind)
            for s in order
            if (kind := special_kind(state.hands[s], hori_enabled=rules.hori_enabled))
        )
        if specials:
            return [event, *self._end_deal(state, "special", specials)]
        return [event]

    # ------------------------------------------------------------ the fold

    def evolve(self, state: AlagerState | None, event: Event) -> AlagerState:
        if state is None:
            if event.type != MATCH_STARTED:
                raise InvalidOptions(
                    f"A match starts with {MATCH_STARTED}, not {event.type}"
                )
            return self._started(event.payload)
        apply = EVOLVERS.get(event.type)
        if apply is None:
            raise InvalidOptions(f"Unknown Alager event {event.type!r}")
        return apply(state, event.payload)

    def _started(self, p: dict[str, Any]) -> AlagerState:
        n = p["players"]
        rules = Rules(**p["options"])
        decks = tuple(tuple(d) for d in p.get("decks") or ())
        return AlagerState(
            players=n,
            rules=rules,
            chance=dealing.Chance(seed=p["seed"], decks=decks),
            penalties=(0,) * n,
            eliminated_in=(None,) * n,
            deal=0,
            dealer=rules.first_dealer,
            order=(),
            hands=((),) * n,
            table=(),
            stock=(),
            discard=(),
            phase="setup",
            current=None,
            pass_streak=0,
            knocker=None,
            final_queue=(),
            turns_taken=0,
            max_turns=0,
            last_deal=None,
        )

    # ------------------------------------------------------------ what a seat sees

    def view(self, state: AlagerState, seat: Seat) -> dict[str, Any]:
        return views.seat_view(
            state,
            seat,
            to_act=self.to_act(state),
            outcome=self.outcome(state),
            konec_allowed=self.konec_allowed(state),
        )

    def redact(self, event: Event, seat: Seat) -> Event:
        return views.redact(event, seat)

    # ------------------------------------------------------------ testing hooks

    def inventory(self, state: AlagerState) -> list[Card]:
        if not state.deal:  # before the first deal the whole deck is still unshuffled
            return self.standard_deck({"deck": state.rules.deck})
        cards = [c for h in state.hands for c in h]
        return cards + [*state.table, *state.stock, *state.discard]

    def resample_unseen(
        self, events: Sequence[Event], seat: Seat, rng: random.Random
    ) -> list[Event]:
        return views.resample_unseen(events, seat, rng)


GAME = AlagerGame()
