"""``games.selectors``: what each requester may read."""

import pytest

import rules
from games import selectors
from games.errors import NotFound
from games.services import table_add_bot, table_create, table_join
from tests.accounts.factories import UserFactory
from tests.games.tables import SEED, table_started

pytestmark = pytest.mark.django_db


def test_mine_means_created_or_seated_not_replaced() -> None:
    ada, bo = UserFactory(), UserFactory()
    created = table_create(user=ada, game="alkort", players=2, watch=True)
    seated = table_create(user=bo, game="alkort", players=2)
    table_join(table_id=seated.pk, user=ada)
    table_create(user=bo, game="alkort", players=2)  # not ada's

    mine = selectors.table_list(user=ada, mine=True)

    assert sorted(t.pk for t in mine) == sorted([created.pk, seated.pk])
    assert list(selectors.table_list(user=None, mine=True)) == []


def test_a_house_bot_seat_is_nobodys_own() -> None:
    ada = UserFactory()
    table = table_create(user=ada, game="alkort", players=2)
    table_add_bot(table_id=table.pk, user=ada)
    table = selectors.table_get(table_id=table.pk)
    bot = table.seats.get(index=1).user

    assert selectors.seat_of(table=table, user=ada) == 0
    assert selectors.seat_of(table=table, user=bot) is None


def test_the_summary_never_shows_the_seed_in_play() -> None:
    table = table_started(seating=[UserFactory(), UserFactory()])

    summary = selectors.table_summary(table=table)

    assert summary["seed"] is None
    assert summary["seed_sha256"] == table.seed_sha256
    assert SEED not in repr(summary)
    assert "state" not in summary


def test_a_missing_table() -> None:
    with pytest.raises(NotFound, match="Table 987654 does not exist."):
        selectors.table_get(table_id=987654)


def test_legal_actions_only_for_the_seat_to_act() -> None:
    ada, bo = UserFactory(), UserFactory()
    table = selectors.table_get(table_id=table_started(seating=[ada, bo]).pk)
    game = rules.get_game("alkort")
    state = game.load_state(table.state)

    assert selectors.table_detail(table=table, user=ada)["legal_actions"] == []
    assert selectors.table_detail(table=table, user=bo)["legal_actions"] == (
        game.legal_actions(state, 1)
    )
