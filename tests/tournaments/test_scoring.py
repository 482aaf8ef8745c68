"""The points table, byes and tie-breaks of docs/tournaments.md."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments.scoring import TableResult, bye_points, place_points, standings_rows

D = Decimal


@pytest.mark.parametrize(
    ("places", "points"),
    [
        ([1, 2], ["1", "0"]),
        ([1, 1], ["0.5", "0.5"]),
        ([2, 1, 3], ["1", "2", "0"]),
        ([1, 1, 3], ["1.5", "1.5", "0"]),
        ([1, 2, 2], ["2", "0.5", "0.5"]),
        ([1, 1, 1], ["1", "1", "1"]),
        ([1, 2, 3, 4], ["3", "2", "1", "0"]),
        ([1, 3, 1, 3], ["2.5", "0.5", "2.5", "0.5"]),  # Alkort's sides at four
        ([1, 1, 1, 1], ["1.5", "1.5", "1.5", "1.5"]),
        ([1, 2, 2, 2, 5], ["4", "2", "2", "2", "0"]),
    ],
)
def test_place_points(places: list[int], points: list[str]) -> None:
    assert place_points(places) == [D(p) for p in points]


def test_bye_points() -> None:
    assert [bye_points(n) for n in (2, 3, 4, 5)] == [D(1), D(1), D("1.5"), D(2)]


def test_buchholz_breaks_ties_on_points() -> None:
    # Alager (lowest score wins). Round 1: 1 beats 2 (scores 1 v 4), 3 beats 4
    # (2 v 3). Round 2: 1 beats 3 (0 v 5), 4 beats 2 (1 v 2).
    results = [
        TableResult(
            seats=(1, 2), outcome={"scores": [1, 4], "places": [1, 2], "winners": [0]}
        ),
        TableResult(
            seats=(3, 4), outcome={"scores": [2, 3], "places": [1, 2], "winners": [0]}
        ),
        TableResult(
            seats=(1, 3), outcome={"scores": [0, 5], "places": [1, 2], "winners": [0]}
        ),
        TableResult(
            seats=(4, 2), outcome={"scores": [1, 2], "places": [1, 2], "winners": [0]}
        ),
    ]
    rows = standings_rows(
        entries=[1, 2, 3, 4], results=results, byes=[], table_size=2, game="alager"
    )
    summary = [
        (r.entry, r.rank, str(r.points), str(r.buchholz), str(r.game_score))
        for r in rows
    ]
    # 3 and 4 are on 1 point; 3 met 1 and 4 (2 + 1), 4 met 3 and 2 (1 + 0).
    assert summary == [
        (1, 1, "2.0", "1.0", "8.00"),
        (3, 2, "1.0", "3.0", "-4.00"),
        (4, 3, "1.0", "1.0", "0.00"),
        (2, 4, "0.0", "3.0", "-4.00"),
    ]


def test_game_score_breaks_equal_buchholz() -> None:
    # One Alager round: 1 beats 2 by 1 v 4, 3 beats 4 by 2 v 3.
    results = [
        TableResult(
            seats=(1, 2), outcome={"scores": [1, 4], "places": [1, 2], "winners": [0]}
        ),
        TableResult(
            seats=(3, 4), outcome={"scores": [2, 3], "places": [1, 2], "winners": [0]}
        ),
    ]
    rows = standings_rows(
        entries=[3, 1, 4, 2], results=results, byes=[], table_size=2, game="alager"
    )
    assert [(r.entry, r.rank, str(r.game_score)) for r in rows] == [
        (1, 1, "3.00"),
        (3, 2, "1.00"),
        (4, 3, "-1.00"),
        (2, 4, "-3.00"),
    ]


def test_equal_rows_share_their_rank() -> None:
    rows = standings_rows(
        entries=[5, 6], results=[], byes=[], table_size=2, game="alkort"
    )
    assert [(r.entry, r.rank) for r in rows] == [(5, 1), (6, 1)]


def test_partners_are_not_opponents_and_bots_do_not_count() -> None:
    partners = ((0, 2), (1, 3))
    result = TableResult(
        seats=(1, 2, 3, None),
        outcome={"scores": [10, 4, 10, 4], "places": [1, 3, 1, 3], "winners": [0, 2]},
        partners=partners,
    )
    rows = {
        r.entry: r
        for r in standings_rows(
            entries=[1, 2, 3], results=[result], byes=[], table_size=4, game="alkort"
        )
    }
    assert (rows[1].points, rows[3].points, rows[2].points) == (
        D("2.5"),
        D("2.5"),
        D("0.5"),
    )
    assert rows[1].buchholz == D("0.5")  # entry 2 only: 3 is a partner, seat 3 a bot
    assert rows[2].buchholz == D("5.0")  # entries 1 and 3
    assert rows[1].game_score == D("6.00") and rows[2].game_score == D("-6.00")
    assert rows[1].rank == rows[3].rank == 1 and rows[2].rank == 3


def test_byes_score_and_count() -> None:
    rows = standings_rows(
        entries=[1, 2], results=[], byes=[2, 2], table_size=3, game="allegra"
    )
    assert [(r.entry, r.points, r.byes, r.rank) for r in rows] == [
        (2, D("2.0"), 2, 1),
        (1, D("0.0"), 0, 2),
    ]


def alkort_pairs(
    first: tuple[int, int], second: tuple[int, int], drawn: bool = False
) -> TableResult:
    """``first`` beats ``second`` at an Alkort table of two pairs (or draws)."""
    places = [1, 1, 1, 1] if drawn else [1, 3, 1, 3]
    scores = [5, 5, 5, 5] if drawn else [10, 4, 10, 4]
    return TableResult(
        seats=(first[0], second[0], first[1], second[1]),
        outcome={"scores": scores, "places": places, "winners": [0, 2]},
        partners=((0, 2), (1, 3)),
    )


def test_a_team_event_ranks_teams_not_players() -> None:
    # Four teams: A (1, 2) beats B (3, 4); C (5, 6) and D (7, 8) draw. The
    # partners of A share 1st, C and D share 2nd (one team ahead of them),
    # and B is 4th, three teams ahead: standard competition ranking of teams.
    teams = {1: "A", 2: "A", 3: "B", 4: "B", 5: "C", 6: "C", 7: "D", 8: "D"}
    rows = standings_rows(
        entries=list(teams),
        results=[alkort_pairs((1, 2), (3, 4)), alkort_pairs((5, 6), (7, 8), True)],
        byes=[],
        table_size=4,
        game="alkort",
        order=list(teams),
        teams=teams,
    )
    assert [(r.entry, r.rank) for r in rows] == [
        (1, 1), (2, 1), (5, 2), (6, 2), (7, 2), (8, 2), (3, 4), (4, 4),
    ]  # fmt: skip


def test_tied_teams_are_listed_pair_by_pair() -> None:
    # Both teams level on everything: they share 1st, and each team's two
    # players are listed together, whatever the starting numbers' order.
    teams = {1: "A", 2: "B", 3: "A", 4: "B"}
    rows = standings_rows(
        entries=list(teams),
        results=[],
        byes=[],
        table_size=4,
        game="alkort",
        order=[1, 2, 3, 4],
        teams=teams,
    )
    assert [(r.entry, r.rank) for r in rows] == [(1, 1), (3, 1), (2, 1), (4, 1)]


def test_an_individual_event_still_ranks_each_player() -> None:
    rows = standings_rows(
        entries=[1, 2, 3, 4],
        results=[alkort_pairs((1, 2), (3, 4))],
        byes=[],
        table_size=4,
        game="alkort",
    )
    assert [(r.entry, r.rank) for r in rows] == [(1, 1), (2, 1), (3, 3), (4, 3)]


def test_an_entry_without_a_team_counts_as_its_own() -> None:
    # A team event refuses an entry without a team; one there all the same
    # (5, left out of ``teams``) is a place of its own, not one with others.
    teams = {1: "A", 2: "A", 3: "B", 4: "B"}
    rows = standings_rows(
        entries=[1, 2, 5, 3, 4],
        results=[alkort_pairs((1, 2), (3, 4))],
        byes=[5],
        table_size=4,
        game="alkort",
        teams=teams,
    )
    assert [(r.entry, r.rank) for r in rows] == [(1, 1), (2, 1), (5, 2), (3, 3), (4, 3)]
