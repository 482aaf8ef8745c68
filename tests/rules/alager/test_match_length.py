"""A match of Alager never lasts more than MAX_DEALS_PER_MATCH deals, whatever the options.

At the cap the match ends after the deal's scoring and is placed as it stands
(docs/rules-decisions.md, Alager E-8).
"""

import pytest

from rules.alager import options, scoring
from tests.rules.alager.helpers import Match


def test_the_cap_is_three_hundred_deals():
    assert options.MAX_DEALS_PER_MATCH == scoring.MAX_DEALS_PER_MATCH == 300


@pytest.mark.parametrize("end_mode", ["first_to_limit", "elimination"])
def test_a_match_at_the_deal_cap_ends_and_is_scored_as_it_stands(monkeypatch, end_mode):
    monkeypatch.setattr(scoring, "MAX_DEALS_PER_MATCH", 3)
    m = Match(3, {"end_mode": end_mode, "penalty_limit": 99}, seed="cap")
    m.quick_deals(3)
    assert m.state.phase == "over" and m.state.deal == 3
    ended = m.events[-1]
    assert ended.type == "alager.match_ended"
    penalties = list(m.state.penalties)
    assert ended.payload["penalties"] == penalties and max(penalties) < 99
    assert m.last("deal_ended")["next_dealer"] is None
    low = min(penalties)
    assert ended.payload["outcome"]["winners"] == [
        s for s in range(3) if penalties[s] == low
    ]


def test_fixed_deals_stay_below_the_cap():
    m = Match(2, {"end_mode": "fixed_deals", "num_deals": 200}, seed="long")
    assert m.state.rules.num_deals == 200 < options.MAX_DEALS_PER_MATCH
