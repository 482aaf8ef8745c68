"""Bot turns: the server plays bot seats until a person must act."""

import hashlib
import logging
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

import rules
from games import event_store
from games.models import GameEvent, Table
from games.services import bot_turn_play
from games.services.bots import bot_rng, bot_turn_choose
from rules import bots
from tests.accounts.factories import UserFactory
from tests.games.tables import bots_play, table_started

pytestmark = pytest.mark.django_db

GAME = rules.get_game("alkort")


def _to_act(table: Table) -> tuple[int, ...]:
    table.refresh_from_db()
    return tuple(GAME.to_act(GAME.load_state(table.state)))


def test_bots_play_until_a_person_must_act() -> None:
    """Two-player Alkort: the bot at seat 1 is forehand and acts first."""
    table = table_started(seating=[UserFactory(), "basic"])
    assert _to_act(table) == (1,)

    played = bots_play(table)

    assert played >= 1
    assert _to_act(table) == (0,)
    rows = GameEvent.objects.filter(table=table, seq__gt=2).select_related("actor")
    assert {(row.seat, row.actor.username) for row in rows} == {(1, "bot-basic")}
    assert GAME.load_state(table.state) == GAME.replay(event_store.load_events(table))


def test_a_task_for_an_old_seq_does_nothing() -> None:
    table = table_started(seating=[UserFactory(), "basic"])

    assert bot_turn_play(table_id=table.pk, seq=table.seq - 1) is None
    assert bot_turn_play(table_id=table.pk, seq=table.seq + 1) is None
    assert Table.objects.get(pk=table.pk).seq == table.seq


def test_nothing_to_do_when_a_person_is_to_act() -> None:
    table = table_started(seating=["basic", UserFactory()])
    assert _to_act(table) == (1,)

    assert bot_turn_play(table_id=table.pk, seq=table.seq) is None


def test_bots_alone_play_a_whole_match() -> None:
    table = table_started(
        seating=["random", "basic"], creator=UserFactory(), options={"target": 2}
    )

    played = bots_play(table)

    table.refresh_from_db()
    assert table.status == "finished"
    moves = GameEvent.objects.filter(table=table, seat__isnull=False).count()
    assert 0 < played <= moves  # every move appends at least one event
    events = event_store.load_events(table)
    assert table.outcome == GAME.outcome(GAME.replay(events))


def test_each_bot_move_schedules_the_next_turn_on_commit(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    """One job per move, so a watcher sees every move arrive on its own."""
    table = table_started(
        seating=["random", "random"], creator=UserFactory(), options={"target": 2}
    )

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        new_seq = bot_turn_play(table_id=table.pk, seq=table.seq)

    assert new_seq is not None and new_seq > table.seq
    # The notification, then the next bot turn (nothing else happens yet).
    assert len(callbacks) == 3  # state memo, table.changed, next bot turn
    assert Table.objects.get(pk=table.pk).seq == new_seq


def test_bot_choices_are_reproducible_from_the_seed() -> None:
    histories = []
    for _ in range(2):
        table = table_started(
            seating=["random", "basic"], creator=UserFactory(), options={"target": 1}
        )
        bots_play(table)
        histories.append(event_store.load_events(table))

    assert histories[0] == histories[1]


class _Broken(bots.Policy):
    def choose(self, inp: bots.BotInput, rng: random.Random) -> dict[str, Any]:
        hand = "policy" + "-hand"  # what it held, say
        raise RuntimeError(hand)


def test_a_failing_policy_falls_back_to_a_random_legal_move(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    table = table_started(seating=[UserFactory(), "strong"])
    monkeypatch.setattr(bots, "get_bot", lambda game, level: _Broken())
    state = GAME.load_state(table.state)

    with caplog.at_level(logging.ERROR, logger="games.services.bots"):
        action = bot_turn_choose(
            GAME, state, event_store.load_events(table), table, 1, "strong"
        )

    assert action in GAME.legal_actions(state, 1)
    assert f"alkort bot strong failed at table {table.pk}" in caplog.text
    assert "RuntimeError (its message left out" in caplog.text
    assert "policy-hand" not in caplog.text  # nor what it quoted


def test_the_bots_generator_is_seeded_with_a_hash_never_the_seed() -> None:
    """``random.Random`` keeps a text seed's bytes in its key: the bots' one
    gets the SHA-256 of ``bot:seed:seq:seat`` (docs/security.md, "The seed")."""
    table = table_started(seating=[UserFactory(), "basic"])
    rng = bot_rng(table, 1)

    key = f"bot:{table.seed}:{table.seq}:1".encode()
    expected = random.Random(hashlib.sha256(key).digest())
    assert rng.getstate() == expected.getstate()
    for text in (f"{table.seed}:{table.seq}:1", key.decode(), table.seed):
        assert rng.getstate() != random.Random(text).getstate()
    # Still one generator per seat and seq: the bots stay reproducible.
    assert bot_rng(table, 1).getstate() == rng.getstate()
    assert bot_rng(table, 0).getstate() != rng.getstate()


# --- timing: a bot's think time must not tell its hand ---------------------------


class _FakeClock:
    """``time`` as ``games.services.bots`` uses it: a clock that only moves
    when told (a bot's thinking) or slept on."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds > 0
        self.now += seconds


def test_a_strong_bots_move_lands_as_long_after_its_turn_forced_or_not(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """A strong bot answers a forced move (one legal action) at once and
    searches for up to most of a second otherwise, so an Alkort bot that
    follows suit at once would tell watchers it held one card of the suit.
    Its move lands ``BOT_THINK_TIME`` after its job began, whatever it took.

    The clock is a fake one that moves by what each real choice took, so
    the check is exact and does not depend on the machine's load."""
    from games.services import bots as bot_service

    settings.BOT_THINK_TIME = 3.0
    clock = _FakeClock()
    monkeypatch.setattr(bot_service, "time", clock, raising=False)
    real_choose = bot_service.bot_turn_choose
    forced: list[bool] = []

    def thinking(game: Any, state: Any, history: Any, table: Any, seat: int, *a: Any):
        forced.append(len(game.legal_actions(state, seat)) == 1)
        began = time.perf_counter()
        action = real_choose(game, state, history, table, seat, *a)
        clock.now += time.perf_counter() - began
        return action

    landed: list[float] = []
    real_apply = bot_service.move_apply

    def applying(**kwargs: Any) -> Any:
        landed.append(clock.now)
        return real_apply(**kwargs)

    monkeypatch.setattr(bot_service, "bot_turn_choose", thinking)
    monkeypatch.setattr(bot_service, "move_apply", applying)
    table = table_started(
        seating=["strong", "strong"], creator=UserFactory(), options={"target": 1}
    )
    seq, began = table.seq, []
    while len(landed) < 80:
        began.append(clock.now)
        new_seq = bot_turn_play(table_id=table.pk, seq=seq)
        if new_seq is None:
            began.pop()
            break
        seq = new_seq

    assert True in forced and False in forced, "no forced and free moves to compare"
    waits = {round(end - start, 9) for start, end in zip(began, landed, strict=True)}
    assert waits == {3.0}, f"a strong bot's moves land at different times: {waits}"


def test_other_bots_move_as_soon_as_they_have_chosen(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """Basic and random bots choose in well under a millisecond: no wait."""
    from games.services import bots as bot_service

    settings.BOT_THINK_TIME = 3.0
    clock = _FakeClock()
    monkeypatch.setattr(bot_service, "time", clock, raising=False)
    table = table_started(
        seating=["basic", "random"], creator=UserFactory(), options={"target": 1}
    )

    assert bots_play(table, limit=20) == 20
    assert clock.now == 1000.0


@pytest.mark.parametrize(
    ("level", "delay", "think", "countdown"),
    [
        ("strong", 1.5, 1.0, 0.5),  # the think time is part of the delay
        ("strong", 0.7, 1.0, 0.0),  # longer than the delay: at once
        ("basic", 1.5, 1.0, 1.5),
        ("random", 0.7, 1.0, 0.7),
    ],
)
def test_a_bot_turn_is_scheduled_so_its_move_comes_after_the_delay(
    django_capture_on_commit_callbacks: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
    level: str,
    delay: float,
    think: float,
    countdown: float,
) -> None:
    """The turn's countdown leaves room for a strong bot's think time, so its
    moves come ``max(BOT_MOVE_DELAY, BOT_THINK_TIME)`` apart."""
    from games import scheduler
    from games.services import action_submit

    settings.BOT_MOVE_DELAY, settings.BOT_THINK_TIME = delay, think
    person = UserFactory()
    table = table_started(seating=[level, person], creator=person)
    bots_play(table)  # the bot plays until the person must act
    scheduled: list[tuple[str, float]] = []
    monkeypatch.setattr(
        scheduler,
        "job_schedule",
        lambda name, *args, delay=0.0: scheduled.append((name, delay)),
    )
    while not scheduled:  # the person plays until the bot's turn comes
        table.refresh_from_db()
        state = GAME.load_state(table.state)
        assert GAME.to_act(state) == (1,)
        with django_capture_on_commit_callbacks(execute=True):
            action_submit(
                table_id=table.pk, user=person, action=GAME.legal_actions(state, 1)[0]
            )

    assert scheduled == [("games.tasks.bot_turn_play", countdown)]


def test_on_the_scheduler_thread_the_wait_is_a_deferred_call(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """The embedded default's one scheduler thread serves every table: a
    strong bot's wait is handed back to it as a deferred call, not slept."""
    from games.services import bots as bot_service

    settings.BOT_THINK_TIME = 3.0
    clock = _FakeClock()
    monkeypatch.setattr(bot_service, "time", clock)
    deferred: list[tuple[Callable[[], Any], float]] = []

    def defer(fn: Callable[[], Any], delay: float) -> bool:
        deferred.append((fn, delay))
        return True

    table = table_started(
        seating=["strong", "strong"], creator=UserFactory(), options={"target": 1}
    )

    assert bot_turn_play(table_id=table.pk, seq=table.seq, defer=defer) is None
    assert Table.objects.get(pk=table.pk).seq == table.seq  # not yet
    ((later, delay),) = deferred
    assert delay == 3.0  # the fake clock did not move while it chose
    later()
    assert Table.objects.get(pk=table.pk).seq > table.seq
    # A direct caller (a benchmark, a command) is answered with the move.
    clock.now = 2000.0
    deferred.clear()
    table.refresh_from_db()
    assert bot_turn_play(table_id=table.pk, seq=table.seq) is not None
    assert deferred == [] and clock.now == 2003.0
