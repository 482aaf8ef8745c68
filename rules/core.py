"""The game contract shared by every Cardroom game, its events and helpers.

The errors live in :mod:`rules.errors` and the options in :mod:`rules.options`;
both are re-exported here, so ``from rules.core import IllegalAction, Option``
keeps working.

A game is a *decider*: its state is a fold of events. Commands (actions) are
checked by :meth:`Game.decide`, which answers with new events or raises
:class:`IllegalAction`; :meth:`Game.evolve` applies an event to a state and never
raises for events ``decide`` produced. Everything a game emits is JSON-safe, so
the same values travel through the event store, the REST API and WebSockets.

Chance is recorded: the opening ``<game>.match_started`` event carries the
secret seed (and any decks given for tests), and every deal or reshuffle event
carries the order it produced. :meth:`Game.redact` strips those secrets for every
seat; the closing ``<game>.match_ended`` event reveals the seed, so that
:meth:`Game.verify` (or anyone) can re-derive every shuffle.

Conventions every game follows, so the event store, the API and verification
work generically (a game lives in ``rules/<game>/`` and exposes ``GAME``):

- Event types are stable strings ``"<game>.<fact_in_past_tense>"``, version 1,
  JSON-safe payloads. The first event is ``"<game>.match_started"`` with payload
  ``{"players", "options" (validated, complete), "seed_sha256", "seed"
  (secret), "decks" (secret: given decks)}``; the last is
  ``"<game>.match_ended"`` with ``{"outcome": {...}, "seed": <seed text>}``.
- Every deal event carries ``"deck"`` (the full order produced, top first;
  secret) and ``"shuffle"`` (the key from :meth:`Chance.next_deal`: the int
  ``j`` for deal ``j`` of the match, counted from 0 with given decks included,
  or null for a given deck). A mid-match reshuffle carries
  ``"reshuffle": true``, ``"shuffle"`` (the key from :meth:`Chance.reshuffle`:
  ``"r0"``, ``"r1"``, … in the order of the match's reshuffles), ``"deck"``
  and ``"shuffled_from"``. The state holds a :class:`rules.dealing.Chance`
  (never shown in a view) advanced in ``evolve`` by ``Chance.after(payload)``.
- ``redact`` always strips :data:`SECRET_KEYS` (:func:`strip_secrets`) plus
  whatever the seat may not see. ``view`` includes at least ``game``,
  ``players``, ``options``, ``seat``, ``phase``, ``to_act``, ``outcome``.
- ``decide`` checks strictly (:func:`require_type`, :func:`require_keys`, cards
  through ``cards.parse_card``); ``legal_actions`` lists the canonical forms of
  docs/rules-api-<game>.md with no extra keys.
- ``inventory``, ``standard_deck`` and ``resample_unseen`` serve the shared
  contract test in ``tests/rules/contract.py`` (``check_playouts``).
- Decisions where a rules file is silent go to ``docs/rules-decisions.md``;
  actions and events are documented in ``docs/rules-api-<game>.md``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from rules.errors import GameOver as GameOver
from rules.errors import IllegalAction as IllegalAction
from rules.errors import InvalidOptions as InvalidOptions
from rules.errors import MalformedAction as MalformedAction
from rules.errors import NotYourTurn as NotYourTurn
from rules.errors import RulesError as RulesError
from rules.errors import UnknownAction as UnknownAction
from rules.options import MAX_OPTIONS_BYTES as MAX_OPTIONS_BYTES
from rules.options import Option as Option
from rules.options import options_size as options_size
from rules.options import options_validate as options_validate

JSON = Any
Action = dict[str, Any]
Seat = int | None


# ---------------------------------------------------------------- events


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """A fact that happened in a match.

    ``type`` is a stable string such as ``"alkort.card_played"`` (never a Python
    import path) and ``version`` its payload schema version, so stored events
    survive refactoring. ``payload`` is a JSON-safe dict and must be treated as
    immutable: nothing in the engine mutates a payload after creating it.

    The constructor sets the slots directly: a frozen dataclass's generated
    ``__init__`` goes through ``object.__setattr__`` and took twice as long,
    and every action of every game builds a few events.
    """

    type: str
    version: int = 1
    payload: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self, type: str, version: int = 1, payload: dict[str, Any] | None = None
    ) -> None:
        _set_event_type(self, type)
        _set_event_version(self, version)
        _set_event_payload(self, {} if payload is None else payload)

    def to_json(self) -> dict[str, Any]:
        """``{"type", "version", "payload"}``, as stored and sent."""
        return {"type": self.type, "version": self.version, "payload": self.payload}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Read an event back from its JSON form."""
        return cls(
            type=str(data["type"]),
            version=int(data.get("version", 1)),
            payload=dict(data.get("payload") or {}),
        )

    def with_payload(self, **changes: Any) -> Event:
        """A copy with some payload keys replaced (a key set to ``...`` is dropped)."""
        payload = {k: v for k, v in self.payload.items() if k not in changes}
        payload.update({k: v for k, v in changes.items() if v is not ...})
        return Event(self.type, self.version, payload)


_set_event_type = vars(Event)["type"].__set__
_set_event_version = vars(Event)["version"].__set__
_set_event_payload = vars(Event)["payload"].__set__


# Payload keys that are secret while the match is in play, whatever the game.
# ``seed`` and ``decks`` live in match_started; ``deck`` and ``shuffled_from``
# in deal/reshuffle events (the full order of the cards).
SECRET_KEYS = ("seed", "decks", "deck", "shuffled_from")


# ---------------------------------------------------------------- outcome


def places_for(scores: Sequence[float], *, lower_is_better: bool) -> list[int]:
    """Sports ranking: tied seats share the best place of their group.

    >>> places_for([3, 1, 3, 0], lower_is_better=True)
    [3, 2, 3, 1]
    >>> places_for([10, 10, 4, 4], lower_is_better=False)
    [1, 1, 3, 3]
    """
    sign = 1 if lower_is_better else -1
    return [1 + sum(1 for o in scores if sign * o < sign * s) for s in scores]


def outcome_from_scores(
    scores: Sequence[Any], *, lower_is_better: bool, places: Sequence[int] | None = None
) -> dict[str, Any]:
    """The outcome dict (docs/rules-api.md, "Outcome"); ``places`` may be given
    when ties break otherwise."""
    pl = (
        list(places)
        if places is not None
        else places_for(scores, lower_is_better=lower_is_better)
    )
    return {
        "scores": list(scores),
        "places": pl,
        "winners": [i for i, p in enumerate(pl) if p == 1],
    }


# ---------------------------------------------------------------- the contract

S = TypeVar("S")


class Game(ABC, Generic[S]):
    """The contract every game implements (docs/rules-api.md).

    Subclasses set the class attributes and implement the abstract methods;
    ``start`` is shared and calls the hooks ``resolve_options``, ``deck_card``
    and ``opening_events``. ``replay``, ``options_schema``,
    ``validate_options``, ``verify`` and the state cache are shared too. See
    docs/rules-api.md for the whole contract.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    lower_score_is_better: ClassVar[bool]
    #: The frozen dataclass holding a match's full state (for the state codec).
    state_type: ClassVar[type]
    #: Options, in the order they are documented.
    OPTIONS: ClassVar[tuple[Option, ...]]

    # -- options and setup

    def options_schema(self) -> dict[str, dict[str, Any]]:
        """Every option with its type, default and allowed values (JSON-safe)."""
        return {o.name: o.to_json() for o in self.OPTIONS}

    def default_options(self) -> dict[str, Any]:
        """Every option at its default."""
        return {o.name: o.default for o in self.OPTIONS}

    def validate_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, every value checked; raises InvalidOptions."""
        return options_validate(self.OPTIONS, options)

    def validate_players(
        self, players: object, options: Mapping[str, Any] | None = None
    ) -> int:
        """The player count, checked against these options; raises InvalidOptions."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise InvalidOptions("The number of players must be a whole number")
        lo, hi = self.player_range(self.validate_options(options))
        if not lo <= players <= hi:
            raise InvalidOptions(
                f"{self.title} is played by {lo} to {hi} players, not {players}"
            )
        return players

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """Allowed player counts for these (validated) options."""
        return self.min_players, self.max_players

    def resolve_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """Hook: check the options against the player count, fill derived defaults.

        ``options`` are validated and complete; the result is what
        ``match_started`` records. The default changes nothing.
        """
        return options

    def deck_card(self, value: object) -> Any:
        """Hook: one card of a deck given to ``start``, in canonical form.

        Raises MalformedAction (with a message) for a value that is not a card
        of this game. The default accepts the value as it is.
        """
        return value

    @abstractmethod
    def opening_events(self, state: S) -> list[Event]:
        """Hook: the events after ``match_started`` (the first deal and its effects).

        ``state`` is the fold of ``match_started`` alone.
        """

    def start(
        self,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        deck: Sequence[Any] | None = None,
    ) -> list[Event]:
        """Opening events: ``<game>.match_started`` then the first deal.

        The same steps for every game: validate the options and the player
        count, let the game resolve what depends on the count
        (:meth:`resolve_options`), take the seed (a fresh secret one when none
        is given), check any given decks (:meth:`check_decks`), record
        ``match_started`` and add the game's :meth:`opening_events`. ``deck``
        is one deck or a list of decks, used for the first deals in order
        instead of shuffles (tests and puzzles). Raises InvalidOptions, also
        for a seed that is neither an int nor a string and a deck that is not
        a list.
        """
        from rules import dealing

        opts = self.validate_options(options)
        self.validate_players(players, opts)
        opts = self.resolve_options(opts, players)
        try:
            seed_text = dealing.seed_or_new(seed)
        except TypeError as exc:
            raise InvalidOptions(str(exc)) from None
        decks = self.check_decks(deck, opts)
        first = match_started(
            self.name, players=players, options=opts, seed=seed_text, decks=decks
        )
        return [first, *self.opening_events(self.evolve(None, first))]

    def check_decks(
        self, deck: Sequence[Any] | None, options: Mapping[str, Any]
    ) -> list[list[Any]]:
        """Given decks, each checked to be a reordering of the match's deck.

        One rule and one message for every game: each card must be a card of
        the game (:meth:`deck_card`), and each deck must hold exactly the cards
        of :meth:`standard_deck` for these options, in any order.
        """
        from collections import Counter

        from rules import dealing

        full = Counter(self.standard_deck(options))
        try:
            decks = dealing.normalise_decks(deck)
        except TypeError as exc:
            raise InvalidOptions(str(exc)) from None
        out = []
        for i, given in enumerate(decks, start=1):
            try:
                cards = [self.deck_card(c) for c in given]
            except MalformedAction as exc:
                raise InvalidOptions(
                    f"Given deck {i} holds a bad card: {exc}"
                ) from None
            if Counter(cards) != full:
                raise InvalidOptions(
                    f"Given deck {i} must hold exactly the {sum(full.values())} "
                    "cards of the match's deck, in any order"
                )
            out.append(cards)
        return out

    @abstractmethod
    def standard_deck(self, options: Mapping[str, Any]) -> list[Any]:
        """The unshuffled deck order for these options (input of every deal)."""

    # -- the fold

    @abstractmethod
    def evolve(self, state: S | None, event: Event) -> S:
        """Apply one event. ``state`` is None only for ``match_started``."""

    def replay(self, events: Iterable[Event]) -> S:
        """The state after folding ``evolve`` over ``events`` (the first is ``match_started``)."""
        state: S | None = None
        for event in events:
            state = self.evolve(state, event)
        if state is None:
            raise InvalidOptions("No events to replay")
        return state

    # -- deciding

    @abstractmethod
    def to_act(self, state: S) -> tuple[int, ...]:
        """Seats that may act now; ``()`` when the match is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in the canonical forms (no extra keys)."""

    @abstractmethod
    def decide(self, state: S, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Events that ``action`` by ``seat`` causes; raises IllegalAction."""

    def apply(
        self, state: S, seat: int, action: Mapping[str, Any]
    ) -> tuple[S, list[Event]]:
        """Convenience: decide, then evolve through the new events."""
        events = self.decide(state, seat, action)
        for event in events:
            state = self.evolve(state, event)
        return state, events

    # -- what a seat may see

    @abstractmethod
    def view(self, state: S, seat: Seat) -> dict[str, Any]:
        """JSON-safe dict of what ``seat`` may see (None: a spectator)."""

    @abstractmethod
    def redact(self, event: Event, seat: Seat) -> Event:
        """The event as ``seat`` may see it (None: a spectator)."""

    @abstractmethod
    def outcome(self, state: S) -> dict[str, Any] | None:
        """None while playing; else ``{"scores", "places", "winners"}``."""

    # -- testing hooks and fairness

    @abstractmethod
    def inventory(self, state: S) -> list[Any]:
        """Every card of the match, wherever it lies (for conservation checks)."""

    @abstractmethod
    def resample_unseen(
        self, events: Sequence[Event], seat: Seat, rng: random.Random
    ) -> list[Event]:
        """An alternative history that ``seat`` cannot tell apart from ``events``.

        The cards ``seat`` has not seen are reshuffled among the places it cannot
        see, consistently through the whole history. Tests use it to prove that
        views and redacted events leak nothing: for the alternative history, they
        must be identical.
        """

    def verify(
        self, events: Sequence[Event], seed: int | str | None = None
    ) -> dict[str, Any]:
        """Re-derive every shuffle of a finished match from its revealed seed.

        Deal and reshuffle events carry ``shuffle`` (the shuffle's key: an int
        for a deal, a string such as ``"r0"`` for a reshuffle, or null when a
        given deck was used) and ``deck`` (the order produced, top first); a
        reshuffle also carries ``shuffled_from`` (the cards in the order they
        were gathered). Each key is re-derived as recorded, so matches recorded
        with an earlier numbering verify too; a key used twice in one match is
        a problem (two shuffles from one byte stream are correlated).
        """
        from rules import dealing

        if seed is None:
            for event in reversed(events):
                if event.type == f"{self.name}.match_ended":
                    seed = event.payload.get("seed")
                    break
        if seed is None:
            return {
                "ok": False,
                "checked": 0,
                "problems": ["The seed has not been revealed"],
            }
        start = events[0].payload
        problems: list[str] = []
        if start.get("seed_sha256") != dealing.seed_hash(seed):
            problems.append("The revealed seed does not match the published SHA-256")
        options = start.get("options", {})
        checked = 0
        used: dict[str, int] = {}
        for i, event in enumerate(events):
            p = event.payload
            if "deck" not in p or "shuffle" not in p:
                continue
            k = p["shuffle"]
            if k is None:
                problems.append(f"Event {i + 1} dealt a given deck, not a shuffle")
                continue
            try:
                key = dealing.shuffle_key_text(k)
            except TypeError:
                problems.append(f"Event {i + 1} ({event.type}) has a bad shuffle {k!r}")
                continue
            if key in used:
                problems.append(
                    f"Event {i + 1} ({event.type}) reuses shuffle {k!r} "
                    f"of event {used[key]}"
                )
            used.setdefault(key, i + 1)
            source = p.get("shuffled_from") or self.standard_deck(options)
            if dealing.shuffle(source, seed, k) != list(p["deck"]):
                problems.append(
                    f"Event {i + 1} ({event.type}) does not match shuffle {k!r}"
                )
            checked += 1
        return {"ok": not problems, "checked": checked, "problems": problems}

    # -- state cache

    def dump_state(self, state: S) -> JSON:
        """JSON-safe form of a state, for the table's cached projection."""
        from rules import codec

        return codec.dump(state)

    def load_state(self, data: JSON) -> S:
        """A state back from ``dump_state``'s JSON form."""
        from rules import codec

        result: S = codec.load(self.state_type, data)
        return result

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


# ---------------------------------------------------------------- helpers for games


def match_started(
    game: str,
    *,
    players: int,
    options: Mapping[str, Any],
    seed: str,
    decks: Iterable[Iterable[Any]] = (),
) -> Event:
    """The opening ``<game>.match_started`` event every game records.

    It carries the secret ``seed`` and any given ``decks`` (stripped by
    ``redact`` for every seat) beside the public commitment ``seed_sha256``.
    """
    from rules import dealing

    return Event(
        f"{game}.match_started",
        1,
        {
            "players": players,
            "options": dict(options),
            "seed_sha256": dealing.seed_hash(seed),
            "seed": seed,
            "decks": [list(d) for d in decks],
        },
    )


def match_ended(
    game: str, *, outcome: Mapping[str, Any] | None, seed: str, **facts: Any
) -> Event:
    """The closing ``<game>.match_ended`` event: the outcome and the revealed seed."""
    result = None if outcome is None else dict(outcome)
    return Event(f"{game}.match_ended", 1, {"outcome": result, **facts, "seed": seed})


def strip_secrets(event: Event) -> Event:
    """Drop the match-wide secret keys from an event's payload, if present."""
    if not any(k in event.payload for k in SECRET_KEYS):
        return event
    return Event(
        event.type,
        event.version,
        {k: v for k, v in event.payload.items() if k not in SECRET_KEYS},
    )


def require_type(action: object, allowed: Iterable[str]) -> str:
    """Check an action is a dict with a known ``type``; return the type."""
    if not isinstance(action, Mapping):
        raise MalformedAction("An action must be a JSON object with a 'type'")
    kind = action.get("type")
    allowed = tuple(allowed)
    if not isinstance(kind, str):
        raise MalformedAction("An action needs a 'type' string")
    if kind not in allowed:
        raise UnknownAction(
            f"Unknown action type {kind!r}; this game knows: {', '.join(allowed)}"
        )
    return kind


def require_keys(
    action: Mapping[str, Any], required: Iterable[str], optional: Iterable[str] = ()
) -> None:
    """Reject missing keys and keys the action type does not take."""
    required = tuple(required)
    allowed = {"type", *required, *optional}
    for key in required:
        if key not in action:
            raise MalformedAction(f"A {action['type']!r} action needs {key!r}")
    extra = sorted(set(action) - allowed)
    if extra:
        raise MalformedAction(f"A {action['type']!r} action does not take {extra[0]!r}")


def check_turn(to_act: tuple[int, ...], seat: int) -> None:
    """Raise NotYourTurn unless ``seat`` is among the seats to act."""
    if not to_act:
        raise GameOver("The match is over")
    if seat not in to_act:
        who = ", ".join(map(str, to_act))
        verb = "is" if len(to_act) == 1 else "are"
        raise NotYourTurn(f"It is not your turn: seat {who} {verb} to act")


def relabel(obj: Any, mapping: Mapping[Any, Any]) -> Any:
    """Replace every string found in ``mapping`` inside a JSON-like value."""
    if isinstance(obj, str):
        return mapping.get(obj, obj)
    if isinstance(obj, list):
        return [relabel(x, mapping) for x in obj]
    if isinstance(obj, tuple):
        return tuple(relabel(x, mapping) for x in obj)
    if isinstance(obj, dict):
        return {k: relabel(v, mapping) for k, v in obj.items()}
    return obj


def relabel_events(events: Sequence[Event], mapping: Mapping[Any, Any]) -> list[Event]:
    """The history with every card renamed by ``mapping`` (for no-leak tests)."""
    return [Event(e.type, e.version, relabel(e.payload, mapping)) for e in events]


def permutation(cards: Iterable[Any], rng: random.Random) -> dict[Any, Any]:
    """A random renaming of ``cards`` among themselves."""
    src = sorted(set(cards))
    dst = list(src)
    rng.shuffle(dst)
    return dict(zip(src, dst, strict=True))
