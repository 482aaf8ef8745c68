"""The seating rules on their own: plain values in, a plan out (no database).

Results are simulated: at every table the lower entry id wins (places in id
order), so standings move as in a real event and every test is exact.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tournaments import scoring
from tournaments.seating import (
    History,
    Layout,
    Plan,
    SeatingError,
    Unit,
    round_robin_plan,
    round_robin_rounds,
    swiss_plan,
)

ALAGER_3 = Layout(size=3, lead=1)
TWO = Layout(size=2, lead=1)
ALKORT_4 = Layout(size=4, lead=1, partners=((0, 2), (1, 3)))
ALKORT_TEAMS = Layout(size=4, lead=1, partners=((0, 2), (1, 3)), team_event=True)


class Event:
    """A simulated Swiss event: plan a round, play it, update the history."""

    def __init__(self, entries: int, layout: Layout, *, bots: bool = True) -> None:
        self.layout = layout
        self.bots = bots
        self.entries = list(range(1, entries + 1))
        self.points: dict[int, Decimal] = dict.fromkeys(self.entries, Decimal(0))
        self.history = History()
        self.plans: list[Plan] = []

    def units(self) -> list[Unit]:
        ranked = sorted(self.entries, key=lambda e: (-self.points[e], e))
        if not self.layout.team_event:
            return [Unit(key=e, members=(e,), points=self.points[e]) for e in ranked]
        teams = [(e, e + 1) for e in ranked if e % 2 == 1]  # teams (1, 2), (3, 4) …
        return [Unit(key=a, members=(a, b), points=self.points[a]) for a, b in teams]

    def play_round(self) -> Plan:
        plan = swiss_plan(
            units=self.units(),
            layout=self.layout,
            history=self.history,
            fill_with_bots=self.bots,
            first_round=not self.plans,
        )
        for seats in plan.tables:
            self.history.record_table(seats, self.layout.lead, self.layout.partners)
            ids = [e if e is not None else 10_000 + i for i, e in enumerate(seats)]
            if self.layout.partners:
                best_side = min(
                    self.layout.partners, key=lambda s: min(ids[i] for i in s)
                )
                places = [1 if i in best_side else 3 for i in range(len(seats))]
            else:
                order = sorted(range(len(seats)), key=lambda i: ids[i])
                places = [order.index(i) + 1 for i in range(len(seats))]
            for seat, pts in enumerate(scoring.place_points(places)):
                if seats[seat] is not None:
                    self.points[seats[seat]] += pts
        for entry in plan.byes:
            self.history.byes[entry] += 1
            self.points[entry] += scoring.bye_points(self.layout.size)
        self.plans.append(plan)
        return plan


def meetings(plans: list[Plan]) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for plan in plans:
        for seats in plan.tables:
            people = [e for e in seats if e is not None]
            met.update(frozenset(p) for p in itertools.combinations(people, 2))
    return met


def seated(plan: Plan) -> list[int]:
    return sorted(
        [e for t in plan.tables for e in t if e is not None] + list(plan.byes)
    )


@pytest.mark.parametrize(
    ("entries", "layout", "rounds"),
    [(8, TWO, 5), (10, TWO, 5), (9, ALAGER_3, 3), (12, ALAGER_3, 3), (16, ALKORT_4, 3)],
)
def test_swiss_never_repeats_opponents_when_avoidable(
    entries: int, layout: Layout, rounds: int
) -> None:
    event = Event(entries, layout)
    for _ in range(rounds):
        plan = event.play_round()
        assert seated(plan) == event.entries
    assert max(meetings(event.plans).values()) == 1


def test_swiss_avoids_a_repeat_that_no_single_swap_avoids() -> None:
    """Eight players after four rounds (a real event's history): seating
    neighbours and swapping two players at a time left 3 and 8 meeting again,
    though 1-2, 3-4, 5-6, 7-8 meet nobody twice. A wider search finds it."""
    met = [(1, 5), (1, 6), (1, 7), (1, 8), (2, 3), (2, 4), (2, 5), (2, 6)]
    met += [(3, 5), (3, 7), (3, 8), (4, 6), (4, 7), (4, 8), (5, 8), (6, 7)]
    history = History()
    for pair in met:
        history.met[frozenset(pair)] += 1
    standings = [(2, "3"), (4, "2.5"), (6, "2.5"), (7, "2.5"), (1, "2")]
    standings += [(5, "2"), (8, "1.5"), (3, "0")]
    units = [Unit(key=e, members=(e,), points=Decimal(p)) for e, p in standings]
    plan = swiss_plan(
        units=units,
        layout=TWO,
        history=history,
        fill_with_bots=False,
        first_round=False,
    )
    assert sorted(e for t in plan.tables for e in t if e is not None) == list(
        range(1, 9)
    )
    repeats = [t for t in plan.tables if history.met[frozenset(t)]]
    assert repeats == []


@given(st.integers(min_value=4, max_value=11), st.integers(min_value=0, max_value=99))
@settings(max_examples=25, deadline=None)
def test_two_player_swiss_repeats_only_when_unavoidable(
    entries: int, seed: int
) -> None:
    """Against an exhaustive check: whenever the players of a round can be
    paired without anyone meeting again, the plan does so."""
    rng = random.Random(seed)
    event = Event(entries, TWO, bots=False)
    for _ in range(entries - 1):
        # Shuffle the results (the simulation's lower id always wins).
        event.points = {e: p + rng.choice((0, 1)) for e, p in event.points.items()}
        before = Counter(event.history.met)
        plan = event.play_round()
        playing = sorted(e for t in plan.tables for e in t if e is not None)
        repeated = sum(before[frozenset(t)] for t in plan.tables)
        if repeated:
            assert not _pairable(playing, before)


def _pairable(players: list[int], met: Counter[frozenset[int]]) -> bool:
    """Whether ``players`` can be paired with no pair that has met."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        _pairable([p for p in rest if p != other], met)
        for other in rest
        if not met[frozenset((first, other))]
    )


def test_round_one_spreads_the_seeds() -> None:
    event = Event(9, ALAGER_3)
    plan = event.play_round()
    # Table t gets seeds t, t + 3, t + 6; seat 1 (the eldest) acts first.
    assert sorted(map(sorted, plan.tables)) == [[1, 4, 7], [2, 5, 8], [3, 6, 9]]


def test_later_rounds_seat_neighbours_in_the_standings() -> None:
    event = Event(8, TWO)
    event.play_round()  # 1-5, 2-6, 3-7, 4-8: 1..4 win
    second = event.play_round()
    tables = sorted(tuple(sorted(t)) for t in second.tables)  # type: ignore[arg-type]
    # Winners meet winners, losers meet losers, nobody meets again.
    assert all((a <= 4) == (b <= 4) for a, b in tables)
    assert max(meetings(event.plans).values()) == 1


def test_the_lead_seat_goes_to_whoever_has_had_it_least() -> None:
    # Nine players at 3-player tables for three rounds: 9 leads, one each.
    event = Event(9, ALAGER_3)
    for _ in range(3):
        event.play_round()
    leads = Counter(t[ALAGER_3.lead] for p in event.plans for t in p.tables)
    assert sorted(leads.values()) == [1] * 9
    # Every position is shared out as evenly: nobody sits at one offset twice.
    positions = Counter(
        (e, (i - ALAGER_3.lead) % 3)
        for p in event.plans
        for t in p.tables
        for i, e in enumerate(t)
    )
    assert max(positions.values()) == 1


def test_alkort_leads_never_go_twice_to_one_player_before_others() -> None:
    event = Event(16, ALKORT_4)
    for _ in range(3):
        event.play_round()
    leads = Counter(t[ALKORT_4.lead] for p in event.plans for t in p.tables)
    assert sorted(leads.values()) == [1] * 12


def test_two_player_leads_alternate() -> None:
    event = Event(8, TWO)
    for _ in range(4):
        event.play_round()
    leads = Counter(t[TWO.lead] for p in event.plans for t in p.tables)
    assert sorted(leads[e] for e in event.entries) == [2] * 8


def test_bots_make_up_the_last_table() -> None:
    event = Event(10, Layout(size=4, lead=1))
    plan = event.play_round()
    assert plan.byes == ()
    assert [sum(e is None for e in t) for t in plan.tables] == [0, 0, 2]
    assert seated(plan) == event.entries
    # Bots take the last seats in acting order, never the lead.
    assert plan.tables[2][1] is not None


def test_byes_go_to_the_lowest_ranked_and_never_twice_while_others_have_none() -> None:
    event = Event(7, ALAGER_3, bots=False)
    byes = [event.play_round().byes for _ in range(3)]
    assert all(len(b) == 1 for b in byes)
    assert byes[0] == (7,)  # lowest seed
    assert len({b[0] for b in byes}) == 3
    for plan in event.plans:
        assert all(None not in t for t in plan.tables)


def test_alkort_individual_rotates_partners() -> None:
    event = Event(8, ALKORT_4)
    for _ in range(3):
        event.play_round()
    partners: Counter[frozenset[int]] = Counter()
    for plan in event.plans:
        for t in plan.tables:
            partners[frozenset((t[0], t[2]))] += 1  # type: ignore[arg-type]
            partners[frozenset((t[1], t[3]))] += 1  # type: ignore[arg-type]
    assert max(partners.values()) == 1


def test_alkort_team_events_keep_pairs_together() -> None:
    event = Event(8, ALKORT_TEAMS)  # teams (1, 2), (3, 4), (5, 6), (7, 8)
    for _ in range(3):
        plan = event.play_round()
        for t in plan.tables:
            sides = {frozenset((t[0], t[2])), frozenset((t[1], t[3]))}
            assert all(min(s) % 2 == 1 and max(s) == min(s) + 1 for s in sides)  # type: ignore[type-var, operator]
    # Four teams, three rounds: every team met every other exactly once.
    team_meetings = Counter(
        frozenset((min(t[0], t[2]), min(t[1], t[3])))  # type: ignore[type-var]
        for p in event.plans
        for t in p.tables
    )
    assert sorted(team_meetings.values()) == [1] * 6


def test_alkort_team_event_makes_up_a_pair_with_bots() -> None:
    event = Event(6, ALKORT_TEAMS)
    plan = event.play_round()
    bot_table = [t for t in plan.tables if None in t]
    assert len(bot_table) == 1
    t = bot_table[0]
    # The bots form one side (0 & 2); the team the other, with the lead (1).
    assert (t[0], t[2]) == (None, None)
    assert sorted((t[1], t[3])) in ([5, 6], [3, 4], [1, 2])  # type: ignore[type-var]


def test_too_few_players_for_one_table() -> None:
    with pytest.raises(SeatingError) as raised:
        swiss_plan(
            units=[Unit(key=1, members=(1,)), Unit(key=2, members=(2,))],
            layout=ALAGER_3,
            history=History(),
            fill_with_bots=True,
            first_round=True,
        )
    assert (
        str(raised.value)
        == "Too few players for one table: 2 players, a table seats 3."
    )


@pytest.mark.parametrize("count", [2, 5, 6, 9])
def test_round_robin_every_pair_meets_once(count: int) -> None:
    roster = list(range(1, count + 1))
    history = History()
    plans = []
    for number in range(1, round_robin_rounds(count) + 1):
        plan = round_robin_plan(
            roster=roster,
            round_number=number,
            layout=TWO,
            history=history,
            fill_with_bots=False,
        )
        for seats in plan.tables:
            history.record_table(seats, TWO.lead, ())
        plans.append(plan)
        assert seated(plan) == roster
    met = meetings(plans)
    assert set(met) == {frozenset(p) for p in itertools.combinations(roster, 2)}
    assert set(met.values()) == {1}
    byes = Counter(e for p in plans for e in p.byes)
    assert byes == (Counter(roster) if count % 2 else Counter())
    leads = Counter(t[TWO.lead] for p in plans for t in p.tables)
    assert max(leads.values()) - min(leads[e] for e in roster) <= 1


def test_round_robin_with_bots_plays_the_odd_one_against_a_bot() -> None:
    plan = round_robin_plan(
        roster=[1, 2, 3],
        round_number=1,
        layout=TWO,
        history=History(),
        fill_with_bots=True,
    )
    assert plan.byes == ()
    assert sorted(sum(e is None for e in t) for t in plan.tables) == [0, 1]


def test_round_robin_withdrawn_player_gives_the_opponent_a_bye() -> None:
    plan = round_robin_plan(
        roster=[1, None, 3, 4],
        round_number=1,
        layout=TWO,
        history=History(),
        fill_with_bots=False,
    )
    assert len(plan.tables) == 1
    assert len(plan.byes) == 1


@settings(max_examples=60, deadline=None)
@given(
    entries=st.integers(min_value=2, max_value=30),
    size=st.integers(min_value=2, max_value=5),
    rounds=st.integers(min_value=1, max_value=4),
    bots=st.booleans(),
)
def test_every_entry_is_seated_once_a_round(
    entries: int, size: int, rounds: int, bots: bool
) -> None:
    """Whatever the count: one seat or one bye each, full tables, bots only to fill."""
    assume(entries >= size)
    event = Event(entries, Layout(size=size, lead=1 % size), bots=bots)
    for _ in range(rounds):
        plan = event.play_round()
        assert seated(plan) == event.entries
        assert all(len(t) == size for t in plan.tables)
        bot_seats = sum(e is None for t in plan.tables for e in t)
        if bots:
            assert plan.byes == () and bot_seats == (-entries) % size
        else:
            assert bot_seats == 0 and len(plan.byes) == entries % size
    byes = Counter(e for p in event.plans for e in p.byes)
    assert not byes or max(byes.values()) - min(byes[e] for e in event.entries) <= 1


def test_alkort_round_one_lead_follows_the_ranking_not_the_entry_ids() -> None:
    # Ranked 9, 3, 10, 1 (entry ids are not the seeds): the best ranked leads.
    units = [Unit(key=e, members=(e,)) for e in (9, 3, 10, 1)]
    plan = swiss_plan(
        units=units,
        layout=ALKORT_4,
        history=History(),
        fill_with_bots=True,
        first_round=True,
    )
    (table,) = plan.tables
    assert table[ALKORT_4.lead] == 9


def test_alkort_round_one_lead_goes_to_the_nth_ranked_at_table_n() -> None:
    # Eight ranked 8, 7, …, 1: table 1 seats ranks 1, 3, 5, 7 (entries 8, 6, 4,
    # 2) and its best ranked leads; table 2 seats ranks 2, 4, 6, 8 (7, 5, 3, 1)
    # and its second-ranked leads.
    units = [Unit(key=e, members=(e,)) for e in range(8, 0, -1)]
    plan = swiss_plan(
        units=units,
        layout=ALKORT_4,
        history=History(),
        fill_with_bots=True,
        first_round=True,
    )
    assert [t[ALKORT_4.lead] for t in plan.tables] == [8, 5]


def test_alkort_team_round_one_lead_goes_to_the_nth_ranked_team_at_table_n() -> None:
    units = [Unit(key=a, members=(a, a + 1)) for a in (7, 5, 3, 1)]
    plan = swiss_plan(
        units=units,
        layout=ALKORT_TEAMS,
        history=History(),
        fill_with_bots=True,
        first_round=True,
    )
    # Table 1: teams ranked 1 and 3 (7-8, 3-4): 7 leads; table 2: teams ranked
    # 2 and 4 (5-6, 1-2): the second-ranked there, team 1-2, leads.
    assert [t[ALKORT_TEAMS.lead] for t in plan.tables] == [7, 1]


@pytest.mark.parametrize(("entries", "rounds"), [(3, 3), (5, 3), (7, 3)])
def test_the_table_made_up_with_bots_goes_round(entries: int, rounds: int) -> None:
    """With the bots policy the last player in the standings sat with the bot
    round after round (the seating only kept people from meeting twice); now
    it goes, like a bye, to whoever has had it least."""
    event = Event(entries, TWO, bots=True)
    for _ in range(rounds):
        event.play_round()
    with_bots = Counter(
        e for plan in event.plans for t in plan.tables if None in t for e in t if e
    )
    assert max(with_bots.values()) == 1
