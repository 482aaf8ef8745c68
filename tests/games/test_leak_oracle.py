"""No payload reveals a card its audience has not seen (docs/security.md).

Seeded random matches of every game are played over the REST API by the
people seated. After every move each seat, an anonymous spectator and a
logged-in stranger read the table and the new events; at checkpoints they
read everything else they can (export, verify, replay, HTML pages, the
socket's frames, presence, statistics, the admin as staff with view
permissions) and try moves meant to learn something: cards they do not hold,
stale and foreign moves, reused command ids. Every log line written meanwhile
(every logger at DEBUG) is kept too.

The oracle (``tests/rules/leak_oracle.py``) knows every card each audience
has seen, worked out from the full events and the rules' tables of what each
player sees, not from ``game.redact`` or ``game.view``. Alager and Alkort
payloads must name no card the audience has not seen; Allegra's hidden cards
are poisoned with values no deck holds, and no payload may carry one. The seed
must appear nowhere before the end.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.throttling import SimpleRateThrottle

import rules
from games import event_store
from games.models import Table
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.games.leak_payloads import (
    Audiences,
    Check,
    LogBook,
    body_text,
    every_log_at_debug,
    table_with_history,
)
from tests.games.tables import table_started
from tests.rules.leak_oracle import (
    Audience,
    Knowledge,
    Poisoned,
    alkort_exchange_seed,
    allegra_poisoned,
    cards_in_json,
    cards_in_text,
    cards_quoted_in_html,
    knowledge,
    last_deal_end,
    poison_in_json,
    poison_in_text,
    random_move,
)

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(600)]

CARD_CASES = [
    ("alager", 2, {"end_mode": "fixed_deals", "num_deals": 3, "max_turns_per_deal": 8}),
    (
        "alager",
        4,
        {
            "end_mode": "fixed_deals",
            "num_deals": 2,
            "max_turns_per_deal": 10,
            "a1_discard_to": "stock_bottom",
            "replenish_shuffle": True,
        },
    ),
    ("alkort", 2, {"target": 2}),
    ("alkort", 4, {"target": 2}),
]
#: Allegra at the smallest table, at three and at the largest: four and five
#: seat a ring of neighbours as three and six do, and cost the suite half a
#: minute between them. Short rounds, two of them.
ALLEGRA_CASES = [
    ("allegra", n, {"rounds": 2, "max_turns_per_round": 4}) for n in (2, 3, 6)
]
CHECKPOINTS = 4  # heavy reads per match, spread over its rough length
ROUGH_LENGTH = {"alager": 40, "alkort": 60, "allegra": 30}


def _id(case: tuple[str, int, dict[str, Any]]) -> str:
    return f"{case[0]}-{case[1]}p"


@pytest.fixture(autouse=True)
def _unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The attacker reads far more than a client would (throttling has
    tests of its own)."""
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": None, "user": None}
    )


# --- the checks -------------------------------------------------------------------


def card_check(know: Knowledge, events: list[rules.Event], seed: str) -> Check:
    """The check for Alager and Alkort: no card the audience has not seen."""

    def check(audience: Audience, label: str, seq: int, body: Any) -> None:
        text = body_text(body)
        assert seed not in text, f"{label} shows the seed to {audience}"
        if isinstance(body, str):
            html = body.lstrip().startswith("<")
            found = cards_quoted_in_html(body) if html else cards_in_text(body)
        else:
            found = set()
            for value in _without_last_deal(body):
                found |= cards_in_json(value)
            last = _last_deal(body)
            if last is not None:
                at = last_deal_end(events, seq)
                leaked = know.unseen(audience, at, cards_in_json(last))
                assert not leaked, f"{label} last_deal shows {audience} {leaked}"
        leaked = know.unseen(audience, seq, found)
        assert not leaked, (
            f"{label} at seq {seq} shows {'seat ' if audience is not None else ''}"
            f"{audience} cards it has not seen: {sorted(leaked)}\n{text[:2000]}"
        )

    return check


def poison_check(poisoned: Poisoned, seed: str) -> Check:
    """The check for Allegra: no poisoned (hidden) card's value."""

    def check(audience: Audience, label: str, seq: int, body: Any) -> None:
        text = body_text(body)
        assert seed not in text, f"{label} shows the seed to {audience}"
        found = poison_in_text(body) if isinstance(body, str) else poison_in_json(body)
        leaked = found - poisoned.allowed(audience)
        assert not leaked, (
            f"{label} at seq {seq} shows {audience} hidden cards "
            f"(poison {sorted(leaked)})\n{text[:2000]}"
        )

    return check


def _alager_view(body: Any) -> dict[str, Any] | None:
    """The Alager view in ``body`` (a view, or a table, answer or frame)."""
    if not isinstance(body, dict):
        return None
    view = body if "last_deal" in body else body.get("view")
    return view if isinstance(view, dict) and "last_deal" in view else None


def _last_deal(body: Any) -> Any:
    view = _alager_view(body)
    return None if view is None else view["last_deal"]


def _without_last_deal(body: Any) -> list[Any]:
    """``body`` without Alager's ``last_deal`` (the previous deal's showdown,
    public since that deal ended: checked against that point instead)."""
    view = _alager_view(body)
    if view is None:
        return [body]
    shown = {k: v for k, v in view.items() if k != "last_deal"}
    if view is body:
        return [shown]
    return [{k: v for k, v in body.items() if k != "view"}, shown]


def logs_check(
    know: Knowledge, book: LogBook, mark: int, before: int, after: int
) -> None:
    """No log line since ``mark`` names a card the spectators had not seen."""
    lines = "\n".join(book.since(mark))
    public: set[str] = set()
    for seq in (before, after):
        seen = know.seen[None][seq]
        public |= set(know.deck) if seen is None else seen
    leaked = (cards_in_text(lines) & know.deck) - public
    assert not leaked, f"a log line names hidden cards {sorted(leaked)}:\n{lines}"


# --- playing ----------------------------------------------------------------------


class Match:
    """A seeded match played over REST by the people seated."""

    def __init__(
        self,
        case: tuple[str, int, dict[str, Any]],
        seed: int,
        player: Callable[..., Player],
    ) -> None:
        self.name, players, options = case
        self.game = rules.get_game(self.name)
        secret = rules.new_seed()
        if self.name == "alkort":  # a first deal someone may exchange
            secret = alkort_exchange_seed(players, options, seed)
        self.table = table_started(
            game=self.name,
            seating=[UserFactory() for _ in range(players)],
            options=options,
            seed=secret,
        )
        self.seed = self.table.seed
        self.audiences = Audiences.of(self.table, player)
        self.rng = random.Random(f"leak-oracle-{self.name}-{players}-{seed}")
        self.commands: dict[int, list[str]] = {}
        self.moves = 0

    def on(self, table: Table, player: Callable[..., Player]) -> Match:
        """The same match, read and probed at another table (a poisoned copy)."""
        other = copy.copy(self)
        other.table = table
        other.audiences = Audiences.of(table, player)
        other.commands = {}  # the copy has no processed commands
        return other

    @property
    def playing(self) -> bool:
        self.table.refresh_from_db()
        return self.table.status == "playing"

    def state(self) -> Any:
        return self.game.load_state(self.table.state)

    def events(self) -> list[rules.Event]:
        return event_store.load_events(self.table)

    def move(self) -> tuple[int, dict[str, Any]]:
        """One random legal move of a person to act, over REST: the seat
        and its answer."""
        state = self.state()
        seat = self.rng.choice(list(self.game.to_act(state)))
        action = random_move(self.name, self.game.legal_actions(state, seat), self.rng)
        command_id = f"c{self.moves}"
        response = self.audiences.seats[seat].post(
            f"/api/tables/{self.table.pk}/actions/",
            {
                "action": action,
                "expected_seq": self.table.seq,
                "command_id": command_id,
            },
        )
        assert response.status_code == 200, response.content
        self.commands.setdefault(seat, []).append(command_id)
        self.moves += 1
        return seat, response.json()

    def checkpoints(self) -> set[int]:
        """Move numbers at which to read everything, spread over the match."""
        length = ROUGH_LENGTH[self.name]
        return {0, *(length * k // CHECKPOINTS for k in range(1, CHECKPOINTS))}

    # --- attempts to learn something --------------------------------------------

    def probe_cards(self, know: Knowledge, check: Check) -> None:
        """Each seat names cards it has not seen (and public cards it does
        not hold) in moves: every answer must be the same whatever the card
        is and wherever it lies (another hand, the stock, put aside), and
        nothing may be played."""
        state, seq = self.state(), self.table.seq
        for seat, who in self.audiences.seats.items():
            seen = know.seen[seat][seq]
            assert seen is not None
            own = set(state.hands[seat])
            unseen = sorted(know.deck - seen)
            public = sorted(seen - own)
            sample = self.rng.sample(unseen, min(6, len(unseen)))
            sample += self.rng.sample(public, min(3, len(public)))
            legal = [
                json.dumps(a, sort_keys=True)
                for a in self.game.legal_actions(state, seat)
            ]
            for name, template in _probes(self.name, state, seat).items():
                answers = set()
                for card in sample:
                    action = template(card)
                    if json.dumps(action, sort_keys=True) in legal:
                        continue  # a real move, not a probe
                    response = who.post(
                        f"/api/tables/{self.table.pk}/actions/",
                        {"action": action, "expected_seq": seq},
                    )
                    assert response.status_code in (400, 403, 409), response.content
                    body = response.json()
                    body["message"] = body["message"].replace(card, "<card>")
                    answers.add((response.status_code, body["code"], body["message"]))
                    check(seat, f"probe {name} {card}", seq, body)
                assert len(answers) <= 1, (
                    f"seat {seat}'s {name} probes are answered differently "
                    f"depending on the card: {answers}"
                )
        self.table.refresh_from_db()
        assert self.table.seq == seq, "a probe was played"

    def probe_requests(self, check: Check) -> None:
        """Moves from the wrong people, stale moves, reused command ids."""
        state, seq = self.state(), self.table.seq
        path = f"/api/tables/{self.table.pk}/actions/"
        some = {"type": "pass"}
        for audience, who, status in (
            (None, self.audiences.spectator, 401),
            (None, self.audiences.stranger, 403),
        ):
            response = who.post(path, {"action": some})
            assert response.status_code == status, response.content
            check(audience, "foreign move", seq, response.json())
        for seat, who in self.audiences.seats.items():
            for action in self.game.legal_actions(state, seat)[:5] or [some]:
                response = who.post(path, {"action": action, "expected_seq": seq - 1})
                assert response.status_code == 409, response.content
                check(seat, "stale move", seq, response.json())
            for command_id in self.commands.get(seat, [])[-2:]:
                response = who.post(
                    path, {"action": {"type": "probe"}, "command_id": command_id}
                )
                assert response.status_code == 409, response.content
                check(seat, "reused command", seq, response.json())
        self.table.refresh_from_db()
        assert self.table.seq == seq, "a probe was played"

    def probe_cells(self, check: Check) -> None:
        """Allegra: every seat asks for cells it may not use now (other
        areas, face-down cells, wrong phase): nothing is played, nothing
        hidden is named."""
        state, seq = self.state(), self.table.seq
        legal_types = {
            seat: {a["type"] for a in self.game.legal_actions(state, seat)}
            for seat in self.audiences.seats
        }
        cells = [
            {"seat": s, "row": r, "col": c}
            for s in range(self.table.players)
            for r in range(3)
            for c in range(4)
        ]
        kinds = ["reveal", "take_discard", "swap", "place", "take", "put"]
        for seat, who in self.audiences.seats.items():
            legal = [
                json.dumps(a, sort_keys=True)
                for a in self.game.legal_actions(state, seat)
            ]
            for kind in kinds:
                for cell in self.rng.sample(cells, 4):
                    action = {"type": kind, "cell": cell}
                    if json.dumps(action, sort_keys=True) in legal:
                        continue
                    response = who.post(
                        f"/api/tables/{self.table.pk}/actions/",
                        {"action": action, "expected_seq": seq},
                    )
                    assert response.status_code in (400, 409), response.content
                    check(seat, f"probe {kind}", seq, response.json())
            for action in self.game.legal_actions(state, seat)[:5]:
                response = who.post(
                    f"/api/tables/{self.table.pk}/actions/",
                    {"action": action, "expected_seq": seq - 1},
                )
                assert response.status_code == 409
                check(seat, "stale move", seq, response.json())
            assert legal_types[seat] is not None
        self.table.refresh_from_db()
        assert self.table.seq == seq, "a probe was played"


def _probes(
    game: str, state: Any, seat: int
) -> dict[str, Callable[[str], dict[str, Any]]]:
    """Moves naming one card, for each way a game's moves name cards."""
    if game == "alkort":
        return {
            "play": lambda c: {"type": "play", "card": c},
            "exchange": lambda c: {"type": "exchange", "keep": c},
        }
    hand, table = state.hands[seat], state.table
    probes: dict[str, Callable[[str], dict[str, Any]]] = {
        "draw": lambda c: {"type": "draw", "discard": c},
    }
    if table:
        probes["swap give"] = lambda c: {"type": "swap", "give": c, "take": table[0]}
    if hand:
        probes["swap take"] = lambda c: {"type": "swap", "give": hand[0], "take": c}
    return probes


# --- the tests ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("case", CARD_CASES, ids=_id)
def test_no_payload_names_a_card_its_audience_has_not_seen(
    player: Callable[..., Player], case: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    match = Match(case, seed, player)
    after: dict[Any, int] = {}
    points = match.checkpoints()
    with every_log_at_debug() as book:
        while match.playing:
            events = match.events()
            know = knowledge(match.name, events)
            check = card_check(know, events, match.seed)
            mark, before = len(book.lines), match.table.seq
            match.audiences.rest(match.table, check, after)
            if match.moves in points:
                match.audiences.everything(match.table, check)
                match.probe_cards(know, check)
                match.probe_requests(check)
            seat, answer = match.move()
            events = match.events()
            know = knowledge(match.name, events)
            card_check(know, events, match.seed)(
                seat, "move answer", answer["seq"], answer
            )
            logs_check(know, book, mark, before, len(events))
    assert match.moves > 10
    # Once the match is over, everything is public: the seed included.
    final = match.audiences.spectator.get(f"/api/tables/{match.table.pk}/").json()
    assert final["seed"] == match.seed


@pytest.mark.parametrize("case", ALLEGRA_CASES, ids=_id)
def test_no_payload_carries_a_hidden_allegra_card(
    player: Callable[..., Player], case: tuple[str, int, dict[str, Any]]
) -> None:
    match = Match(case, 1, player)
    points = match.checkpoints()
    after: dict[Any, int] = {}
    seed_only = poison_check(Poisoned([], frozenset(), None), match.seed)
    poisoned_seen = 0
    with every_log_at_debug() as book:
        while match.playing:
            match.audiences.rest(match.table, seed_only, after)
            if match.moves in points or match.rng.random() < 0.08:
                poisoned = allegra_poisoned(match.events())
                poisoned_seen += len(poisoned.values)
                copy = table_with_history(match.table, poisoned.events)
                check = poison_check(poisoned, match.seed)
                mark = len(book.lines)
                alt = match.on(copy, player)
                alt.audiences.rest(copy, check, {})
                alt.audiences.everything(copy, check)
                alt.probe_cells(check)
                alt.probe_requests(check)
                check(None, "logs", copy.seq, "\n".join(book.since(mark)))
            seat, answer = match.move()
            seed_only(seat, "move answer", answer["seq"], answer)
    assert match.moves > 10
    assert poisoned_seen > 0, "nothing was ever hidden: the test proves nothing"


# --- the oracle itself can fail -------------------------------------------------------


@pytest.mark.parametrize("case", CARD_CASES, ids=_id)
def test_the_oracle_sees_an_unredacted_event_or_a_full_state(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    """Fed the raw events, or another seat's view, the card check fails."""
    name, players, options = case
    game = rules.get_game(name)
    events = game.start(players=players, options=options, seed="oracle")
    know = knowledge(name, events)
    check = card_check(know, events, "oracle-seed-not-in-any-text")
    deal = events[1]
    with pytest.raises(AssertionError, match="cards it has not seen"):
        check(None, "raw deal", 2, deal.to_json())
    with pytest.raises(AssertionError, match="cards it has not seen"):
        check(0, "seat 1's view", 2, game.view(game.replay(events), 1))
    with pytest.raises(AssertionError, match="cards it has not seen"):
        check(
            None, "a message", 2, f"{game.view(game.replay(events), 1)['hand'][0]} is"
        )
    with pytest.raises(AssertionError, match="shows the seed"):
        card_check(know, events, "oracle")(None, "start", 1, events[0].to_json())
    # The redacted ones pass.
    for seat in (None, *range(players)):
        check(seat, "deal", 2, game.redact(deal, seat).to_json())
        check(seat, "view", 2, game.view(game.replay(events), seat))


def test_the_poison_shows_in_an_unredacted_allegra_event_or_state() -> None:
    game = rules.get_game("allegra")
    events = game.start(players=3, options={"rounds": 1}, seed="oracle")
    poisoned = allegra_poisoned(events)
    assert len(poisoned.values) == 3 * 12 + (len(events[1].payload["deck"]) - 37)
    check = poison_check(poisoned, "oracle-seed-not-in-any-text")
    state = game.replay(poisoned.events)
    with pytest.raises(AssertionError, match="hidden cards"):
        check(None, "raw deal", 2, poisoned.events[1].to_json())
    with pytest.raises(AssertionError, match="hidden cards"):
        check(None, "the state", 2, game.dump_state(state))
    for seat in (None, 0, 1, 2):
        check(seat, "deal", 2, game.redact(poisoned.events[1], seat).to_json())
        check(seat, "view", 2, game.view(state, seat))
