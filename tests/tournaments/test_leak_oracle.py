"""A tournament's pages name no card of its tables in play (docs/security.md).

A round of Alkort duels in play, a few moves into each table: the players'
API, the tournament pages, the organisers' admin and the OpenAPI schema are
read by a spectator, a player and the organiser, and none may name a card
the spectators have not seen, nor a table's seed (the oracle of
``tests/rules/leak_oracle.py``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

import rules
from games import event_store
from games.services import action_submit
from tests.accounts.factories import token_for
from tests.rules.leak_oracle import cards_in_json, cards_quoted_in_html, knowledge
from tests.tournaments.factories import TournamentFactory, enter, round_tables
from tournaments import services

pytestmark = pytest.mark.django_db

GAME = rules.get_game("alkort")


def test_tournament_pages_name_no_card_of_a_table_in_play(organiser: Any) -> None:
    tournament = TournamentFactory(
        game="alkort", table_size=2, rounds=2, options={"target": 2}
    )
    services.registration_open(tournament_id=tournament.pk)
    entries = enter(tournament, 4)
    rnd = services.round_seat(tournament_id=tournament.pk)
    services.round_start(tournament_id=tournament.pk, user=organiser)
    tables = round_tables(rnd)
    rng = random.Random("tournament-leak")
    for table in tables:
        for _ in range(5):
            table.refresh_from_db()
            state = GAME.load_state(table.state)
            (seat,) = GAME.to_act(state)
            user = table.seats.get(index=seat).user
            action = rng.choice(GAME.legal_actions(state, seat))
            action_submit(table_id=table.pk, user=user, action=action)
        table.refresh_from_db()
        assert table.status == "playing"

    player = APIClient()
    player.credentials(HTTP_AUTHORIZATION=f"Token {token_for(entries[0].player)}")
    staff = Client()
    staff.force_login(organiser)
    pages: list[tuple[str, Any]] = []
    for reader in (APIClient(), player):
        for path in (
            "/api/tournaments/",
            f"/api/tournaments/{tournament.pk}/",
            "/tournaments/",
            f"/tournaments/{tournament.pk}/",
            "/api/schema/",
        ):
            response = reader.get(path)
            assert response.status_code == 200, path
            pages.append((path, response))
    for path in (
        "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{tournament.pk}/change/",
    ):
        response = staff.get(path)
        assert response.status_code == 200, path
        pages.append((path, response))

    hidden: set[str] = set()
    for table in tables:
        table.refresh_from_db()
        events = event_store.load_events(table)
        know = knowledge("alkort", events)
        hidden |= know.unseen(None, table.seq, set(know.deck))
    assert hidden, "nothing was hidden: the test proves nothing"
    for path, response in pages:
        text = response.content.decode()
        for table in tables:
            assert table.seed not in text, path
        if response["Content-Type"].startswith("application/json"):
            found = cards_in_json(response.json())
        else:
            found = cards_quoted_in_html(text)
        assert not found & hidden, f"{path} names hidden cards {found & hidden}"
