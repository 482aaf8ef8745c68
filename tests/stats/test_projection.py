"""Each game's own counters, checked against the match's events by hand."""

from __future__ import annotations

import pytest

from stats.models import GameStat, PlayerGameStat
from stats.services import table_record
from stats.simulate import match_play

pytestmark = pytest.mark.django_db


def _of(match, type_):
    return [e.payload for e in match.events if e.type == type_]


@pytest.mark.parametrize("seed", ["al-1", "al-2", "al-3"])
def test_alager_counters(people, finished_table, seed):
    seating = people(4)
    match = match_play("alager", 4, seed, {"penalty_limit": 3, "hori_enabled": True})
    table_record(table_id=finished_table("alager", seating, match=match))

    ended = _of(match, "alager.deal_ended")
    for s, user in enumerate(seating):
        c = PlayerGameStat.objects.get(user=user, game="alager").counters
        knocks = [k for k in _of(match, "alager.konec_called") if k["seat"] == s]
        shown = [d["values"][s] for d in ended if d["values"][s] is not None]
        lowest = [
            d
            for d in ended
            if d["reason"] == "konec"
            and d["knocker"] == s
            and d["values"][s] == min(v for v in d["values"] if v is not None)
        ]
        specials = [p for p in _of(match, "alager.special_announced") if p["seat"] == s]
        assert c["knocks"] == len(knocks)
        assert c["knocks_lowest"] == len(lowest)
        assert (c["showdowns"], c["showdown_value_sum"]) == (len(shown), sum(shown))
        assert c["alager"] == sum(1 for p in specials if p["kind"] == "alager")
        assert c["hori"] == sum(1 for p in specials if p["kind"] == "hori")
        assert c["place_sum"] == match.outcome["places"][s]
        assert c["score_sum"] == match.outcome["scores"][s]
    game = GameStat.objects.get(game="alager").counters
    assert game["deals"] == len(ended)
    first = _of(match, "alager.deal_started")[0]["eldest"]
    assert (
        game["by_players"]["4"]["first_player_place_sum"]
        == match.outcome["places"][first]
    )


@pytest.mark.parametrize("seed", ["ag-1", "ag-2", "ag-3"])
def test_allegra_counters(people, finished_table, seed):
    seating = people(3)
    match = match_play("allegra", 3, seed, {"rounds": 2})
    table_record(table_id=finished_table("allegra", seating, match=match))

    scored = _of(match, "allegra.round_scored")
    for s, user in enumerate(seating):
        c = PlayerGameStat.objects.get(user=user, game="allegra").counters
        assert c["rounds"] == len(scored) == 2
        assert c["round_score_sum"] == sum(r["scores"][s] for r in scored)
        assert c["round_score_sum"] == match.outcome["scores"][s]
        assert c["doubled"] == sum(
            1 for r in scored if r["doubled"] and r["trigger"] == s
        )
        assert c["knocks"] == sum(
            1
            for k in _of(match, "allegra.knock_answered")
            if k["seat"] == s and k["knock"]
        )
        assert c["knocks_granted"] == sum(
            1 for g in _of(match, "allegra.card_given") if g["to"] == s
        )
        removed = [
            t
            for t in _of(match, "allegra.triples_removed")
            if _area(t["cells"], 3) == s
        ]
        assert c["triples"] == len(removed)
        assert c["triple_cards"] == sum(len(t["cells"]) for t in removed)


def _area(cells, n):
    """The seat whose area (own grid + the right-hand neighbour's column 3)
    holds every cell; the grid's owner when two areas do."""
    areas = [
        p
        for p in range(n)
        if all(
            c["seat"] == p or (c["seat"] == (p + 1) % n and c["col"] == 3)
            for c in cells
        )
    ]
    owners = {c["seat"] for c in cells}
    return next((p for p in areas if {p} == owners), areas[0])


def test_a_run_through_the_shared_column_is_the_area_owners(people, finished_table):
    seating = people(3)
    match = match_play("allegra", 3, "ag-2", {"rounds": 2})
    [removal] = _of(match, "allegra.triples_removed")
    assert [(c["seat"], c["col"]) for c in removal["cells"]] == [(0, 0), (0, 1), (1, 3)]

    table_record(table_id=finished_table("allegra", seating, match=match))

    c0 = PlayerGameStat.objects.get(user=seating[0], game="allegra").counters
    c1 = PlayerGameStat.objects.get(user=seating[1], game="allegra").counters
    assert (c0["triples"], c0["triple_cards"]) == (1, 3)
    assert (c1["triples"], c1["triple_cards"]) == (0, 0)


def test_alkort_partnership_counters(people, finished_table):
    seating = people(4)
    match = match_play("alkort", 4, "ak-4", {"target": 6})
    table_record(table_id=finished_table("alkort", seating, match=match))

    scored = _of(match, "alkort.deal_scored")
    tricks = _of(match, "alkort.trick_won")
    for s, user in enumerate(seating):
        c = PlayerGameStat.objects.get(user=user, game="alkort").counters
        mine = [d for d in scored if d["side"] == s % 2]
        assert c["muk"] == sum(1 for d in mine if d["kind"] == "muk")
        assert c["strokes"] == sum(1 for d in mine if d["kind"] == "stroke")
        assert c["deal_points"] == sum(d["points"] for d in mine)
        assert c["deal_points"] == match.outcome["scores"][s]
        assert c["sevens_led"] == sum(
            1 for t in tricks if t["leader"] == s and t["cards"][0][0] == "7"
        )
        assert c["stock_exchanges"] == sum(
            1 for x in _of(match, "alkort.stock_exchanged") if x["seat"] == s
        )
