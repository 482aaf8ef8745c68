"""``games.tasks``: the bot-turn task carries the seq it was scheduled for."""

import pytest

import rules
from games.models import Table
from games.tasks import bot_turns_play
from tests.accounts.factories import UserFactory
from tests.games.tables import table_started

pytestmark = pytest.mark.django_db


def test_the_task_is_registered_under_a_stable_name() -> None:
    assert bot_turns_play.name == "games.tasks.bot_turns_play"


def test_the_task_plays_the_bots_at_its_seq() -> None:
    table = table_started(seating=[UserFactory(), "basic"])

    bot_turns_play.delay(table.pk, table.seq)

    table.refresh_from_db()
    game = rules.get_game("alkort")
    assert table.seq > 2
    assert game.to_act(game.load_state(table.state)) == (0,)


def test_the_task_skips_when_the_table_moved_on() -> None:
    table = table_started(seating=[UserFactory(), "basic"])

    bot_turns_play.delay(table.pk, table.seq + 5)
    bot_turns_play.delay(table.pk, table.seq - 1)

    assert Table.objects.get(pk=table.pk).seq == table.seq


def test_the_task_ignores_a_missing_table() -> None:
    assert bot_turns_play.apply(args=(987654, 1)).get() == 0
