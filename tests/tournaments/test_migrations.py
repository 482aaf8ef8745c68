"""Data migrations of the tournaments app, run both ways with rows in the
tables: on the test database (PostgreSQL) and, in a process of its own, on the
embedded default's SQLite."""

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import migration_script_run

#: Stores a team event's and an individual event's standings as 0002 ranked
#: them (each player: two partners 1st, the next team's players 3rd), migrates
#: to 0003 and back, and notes the ranks each step left.
MIGRATE_BOTH_WAYS = """
BEFORE = ("tournaments", "0002_tournament_places")
AFTER = ("tournaments", "0003_team_event_ranks")


def ranks(apps):
    Standing = apps.get_model("tournaments", "Standing")
    return {
        name: [
            s.rank
            for s in Standing.objects.filter(tournament__name=name).order_by("entry_id")
        ]
        for name in ("Pairs", "Fours")
    }


try:
    apps = migrate(BEFORE)
    User = apps.get_model("accounts", "User")
    Tournament = apps.get_model("tournaments", "Tournament")
    Entry = apps.get_model("tournaments", "Entry")
    Standing = apps.get_model("tournaments", "Standing")
    organiser = User.objects.create(username="org", username_folded="org")
    for name, team_event in (("Pairs", True), ("Fours", False)):
        tournament = Tournament.objects.create(
            name=name, game="alkort", table_size=4, rounds=1, team_event=team_event,
            status="finished", created_by=organiser,
        )
        # Ravens won (2.5 each), Owls drew with Crows (1.5 each, the better
        # Buchholz), Crows, then Larks (0.5 each).
        lines = [("Ravens", 25, 5), ("Owls", 15, 15), ("Crows", 15, 10),
                 ("Larks", 5, 25)]
        rank = 1
        for team, points, buchholz in lines:
            for k in range(2):
                user = User.objects.create(
                    username=f"{name}{team}{k}", username_folded=f"{name}{team}{k}".lower()
                )
                entry = Entry.objects.create(
                    tournament=tournament, player=user, team=team if team_event else ""
                )
                Standing.objects.create(
                    tournament=tournament, entry=entry, rank=rank,
                    points=points / 10, buchholz=buchholz / 10, played=1,
                )
            rank += 2
    out["before"] = ranks(apps)
    out["forward"] = ranks(migrate(AFTER))
    out["backward"] = ranks(migrate(BEFORE))
finally:  # back to the latest, whatever follows 0003
    migrate_latest("tournaments")
"""


BY_PLAYER = [1, 1, 3, 3, 5, 5, 7, 7]
EXPECTED: dict[str, Any] = {
    "before": {"Pairs": BY_PLAYER, "Fours": BY_PLAYER},
    "forward": {"Pairs": [1, 1, 2, 2, 3, 3, 4, 4], "Fours": BY_PLAYER},
    "backward": {"Pairs": BY_PLAYER, "Fours": BY_PLAYER},
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_a_team_events_stored_ranks_count_teams_and_back() -> None:
    out = migration_script_run(MIGRATE_BOTH_WAYS)

    assert out == {"vendor": "postgresql", **EXPECTED}


@pytest.mark.timeout(120)
def test_the_same_on_the_embedded_default(tmp_path: Path) -> None:
    out = migration_script_run(MIGRATE_BOTH_WAYS, embedded=tmp_path)

    assert out == {"vendor": "sqlite", **EXPECTED}
