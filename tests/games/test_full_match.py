"""A whole match of each game, played over HTTP by people and bots.

People are API clients with tokens that play only from the table response
(``legal_actions``); bots are seated by the creator and played by the server
on commit. The match must end with the outcome the rules give for the stored
events, the seed hidden from every response until then, and verifiable after.
"""

import random
from collections.abc import Callable

import pytest

import rules
from games import event_store
from games.models import Table
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.helpers import tables_finished_unqueued

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(180)]

HUMAN = "human"

# Short matches keep the suite fast: the turn caps are the games' own options.
MATCHES = [
    (
        "alager",
        [HUMAN, HUMAN, "basic"],
        {"end_mode": "fixed_deals", "num_deals": 2, "max_turns_per_deal": 15},
    ),
    ("alkort", [HUMAN, "basic", HUMAN, "random"], {"target": 1}),
    ("allegra", [HUMAN, "basic", HUMAN], {"rounds": 1, "max_turns_per_round": 30}),
]


@pytest.mark.parametrize(("game_name", "seating", "options"), MATCHES)
def test_a_whole_match_over_http(
    player: Callable[..., Player],
    finishing: set[int],
    game_name: str,
    seating: list[str],
    options: dict[str, object],
) -> None:
    game = rules.get_game(game_name)
    people = {i: player(UserFactory()) for i, who in enumerate(seating) if who == HUMAN}
    creator = people[0]
    seen: list[str] = []  # every response body a person got while in play

    created = creator.post(
        "/api/tables/",
        {"game": game_name, "players": len(seating), "options": options},
    )
    assert created.status_code == 201
    base = f"/api/tables/{created.json()['id']}"
    for index, who in enumerate(seating):
        if index == 0:
            continue
        if who == HUMAN:
            response = people[index].post(f"{base}/join/", {"seat": index})
        else:
            response = creator.post(f"{base}/bots/", {"seat": index, "level": who})
        assert response.status_code == 200, response.json()
    started = creator.post(f"{base}/start/")
    assert started.status_code == 200
    seen.append(started.content.decode())

    rng = random.Random(f"full-match-{game_name}")
    moves = 0
    finished = False
    for round_no in range(2000):
        progressed = False
        for seat, person in people.items():
            detail = person.get(f"{base}/")
            assert detail.status_code == 200
            body = detail.json()
            if body["status"] == "finished":
                finished = True
                break
            seen.append(detail.content.decode())
            assert body["seat"] == seat
            if round_no % 7 == 0:
                seen.append(person.get(f"{base}/events/").content.decode())
            if not body["legal_actions"]:
                continue
            answer = person.post(
                f"{base}/actions/",
                {
                    "action": rng.choice(body["legal_actions"]),
                    "expected_seq": body["seq"],
                    "command_id": f"{seat}-{moves}",
                },
            )
            assert answer.status_code == 200, answer.json()
            if answer.json()["status"] == "playing":
                seen.append(answer.content.decode())
            moves += 1
            progressed = True
        if finished:
            break
        assert progressed, "no person could act and the match did not end"
    assert finished

    table = Table.objects.get(pk=created.json()["id"])
    events = event_store.load_events(table)
    final = game.replay(events)
    assert table.status == "finished"
    assert events[-1].type == f"{game_name}.match_ended"
    assert table.outcome == game.outcome(final) == events[-1].payload["outcome"]
    assert game.load_state(table.state) == final
    assert moves > 3
    bot_seats = {i for i, who in enumerate(seating) if who != HUMAN}
    acted = set(table.events.exclude(seat=None).values_list("seat", flat=True))
    assert bot_seats <= acted, "the bots never played"

    assert all(table.seed not in text for text in seen), "the seed leaked in play"
    revealed = creator.get(f"{base}/").json()
    assert (revealed["seed"], revealed["outcome"]) == (table.seed, table.outcome)
    verify = creator.get(f"{base}/verify/").json()
    assert verify["ok"] is True and verify["problems"] == []
    assert verify["seed"] == table.seed and verify["checked"] >= 1
    # Queued for its count with the finish (or counted already).
    assert finishing == {table.pk}
    assert tables_finished_unqueued(finishing) == []
