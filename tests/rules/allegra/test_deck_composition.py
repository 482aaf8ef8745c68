"""``deck_composition`` in the rules file's form, a map value → copies (§3.1, §3.2).

The option also takes the list of card values; either form is validated to
one canonical value, the list sorted ascending, so a match's recorded options,
views and replays are the same whichever form was sent (docs/rules-decisions.md,
Allegra E-1).
"""

from __future__ import annotations

import json
import random

import pytest

from rules.allegra import GAME
from rules.allegra.options import OPTIONS, PUBLISHED_COPIES
from rules.core import Event, InvalidOptions, Option
from tests.rules.contract import check_playouts

NAME = "deck_composition"
#: 26 cards for 2 players (12 each, one discard, one to draw): many reshuffles.
SMALL_COUNTS = {v: 2 for v in range(1, 14)}
SMALL_LIST = [v for v in range(1, 14) for _ in range(2)]
#: The published deck of §3.1, as a JSON client sends it (string keys).
PUBLISHED_JSON = {str(v): k for v, k in PUBLISHED_COPIES.items()}
PUBLISHED_LIST = sorted(v for v, k in PUBLISHED_COPIES.items() for _ in range(k))


def composition(value: object) -> object:
    return GAME.validate_options({NAME: value})[NAME]


def refusal(value: object) -> str:
    with pytest.raises(InvalidOptions) as info:
        GAME.validate_options({NAME: value})
    return str(info.value)


# ------------------------------------------------------------ the same deck


@pytest.mark.parametrize(
    "value",
    [
        {1: 40, 2: 40},
        {"1": 40, "2": 40},
        {"2": 40, "1": 40},
        {2: 40, "1": 40, "7": 0},
        [1] * 40 + [2] * 40,
        [2, 1] * 40,
    ],
    ids=[
        "int-keys",
        "str-keys",
        "str-keys-reversed",
        "mixed-keys-zero",
        "list",
        "list-unsorted",
    ],
)
def test_every_form_of_one_deck_validates_to_the_same_sorted_list(value):
    assert composition(value) == [1] * 40 + [2] * 40


def test_string_keys_with_negative_values_and_zero():
    assert composition(PUBLISHED_JSON) == PUBLISHED_LIST
    assert composition(dict(PUBLISHED_COPIES)) == PUBLISHED_LIST
    assert composition({"1": 40, "-1": 5}) == [-1] * 5 + [1] * 40
    assert composition({"-99": 1, "99": 1, "0": 3}) == [-99, 0, 0, 0, 99]


def test_the_published_table_as_a_map_is_the_published_deck():
    by_map = GAME.standard_deck(GAME.validate_options({NAME: PUBLISHED_JSON}))
    by_name = GAME.standard_deck(GAME.validate_options({"deck": "published"}))
    assert by_map == by_name == PUBLISHED_LIST


def test_an_empty_map_is_an_empty_deck_too_small_to_play():
    assert composition({}) == composition([]) == []
    with pytest.raises(InvalidOptions) as info:
        GAME.start(2, options={NAME: {}}, seed=1)
    assert str(info.value) == (
        "The deck has 0 cards; 2 players need at least 25 "
        "(12 each and one to start the discard pile)"
    )


@pytest.mark.parametrize(
    "value",
    [
        SMALL_COUNTS,
        {str(v): k for v, k in SMALL_COUNTS.items()},
        dict(reversed(list(SMALL_COUNTS.items()))),
    ],
    ids=["int-keys", "str-keys", "reversed"],
)
def test_a_map_starts_the_same_match_as_the_list(value):
    options = {NAME: value, "rounds": 2}
    by_map = GAME.start(2, options=options, seed="same")
    by_list = GAME.start(2, options={NAME: SMALL_LIST, "rounds": 2}, seed="same")
    assert [e.to_json() for e in by_map] == [e.to_json() for e in by_list]
    recorded = by_map[0].payload["options"]
    assert recorded[NAME] == SMALL_LIST
    state = GAME.replay(by_map)
    assert state.rules.deck_composition == tuple(SMALL_LIST)
    assert state.rules.to_options() == recorded
    for seat in (None, 0, 1):
        assert GAME.view(state, seat)["options"][NAME] == SMALL_LIST
    assert GAME.view(state, 0) == GAME.view(GAME.replay(by_list), 0)


def test_negative_string_keys_start_the_same_match_as_the_list():
    counts = {"-1": 5, "0": 5, "1": 5, "2": 5, "3": 5, "4": 5}
    deck = [v for v in range(-1, 5) for _ in range(5)]
    by_map = GAME.start(2, options={NAME: counts}, seed=3)
    by_list = GAME.start(2, options={NAME: deck}, seed=3)
    assert [e.to_json() for e in by_map] == [e.to_json() for e in by_list]
    assert by_map[0].payload["options"][NAME] == deck


# ------------------------------------------------------- a whole match


def play_out(events: list[Event], seed: str) -> list[Event]:
    rng = random.Random(seed)
    state = GAME.replay(events)
    while to_act := GAME.to_act(state):
        seat = to_act[0]
        new = GAME.decide(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        for event in new:
            state = GAME.evolve(state, event)
        events = events + new
    return events


def test_a_small_deck_match_from_the_map_replays_equal_and_verifies():
    options = {
        NAME: {str(v): k for v, k in SMALL_COUNTS.items()},
        "rounds": 2,
        "max_turns_per_round": 40,
    }
    events = play_out(GAME.start(2, options=options, seed="map-match"), "moves")
    assert events[-1].type == "allegra.match_ended"
    assert events[0].payload["options"][NAME] == SMALL_LIST
    assert any(e.type == "allegra.deck_reshuffled" for e in events)
    # Through JSON, as stored: the same state, every shuffle verifies.
    stored = json.loads(json.dumps([e.to_json() for e in events]))
    again = [Event.from_json(e) for e in stored]
    state = GAME.replay(again)
    assert state == GAME.replay(events)
    assert state.phase == "over"
    assert GAME.load_state(json.loads(json.dumps(GAME.dump_state(state)))) == state
    report = GAME.verify(again)
    assert report["ok"] and report["problems"] == [] and report["checked"] >= 2
    # The same seed and moves from the list form record the same match.
    by_list = play_out(
        GAME.start(2, options={**options, NAME: SMALL_LIST}, seed="map-match"),
        "moves",
    )
    assert [e.to_json() for e in by_list] == [e.to_json() for e in events]


def test_the_contract_holds_for_a_map_deck():
    seen = check_playouts(
        "allegra",
        2,
        {NAME: {str(v): k for v, k in SMALL_COUNTS.items()}, "max_turns_per_round": 40},
        matches=2,
        seed=8,
        require_types=("allegra.deck_reshuffled",),
    )
    assert seen["allegra.match_ended"] == 2


# ---------------------------------------------------------- refusals

KEY = (
    "Every key of option 'deck_composition' must be a whole number or its "
    'decimal text (such as 11, "11" or "-1"), not '
)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        # keys that are not card values
        ({True: 30}, KEY + "True"),
        ({False: 30}, KEY + "False"),
        ({1.0: 30}, KEY + "1.0"),
        ({"1.0": 30}, KEY + "'1.0'"),
        ({"x": 30}, KEY + "'x'"),
        ({"": 30}, KEY + "''"),
        ({" 1": 30}, KEY + "' 1'"),
        ({"+1": 30}, KEY + "'+1'"),
        ({"01": 30}, KEY + "'01'"),
        ({"-0": 30}, KEY + "'-0'"),
        ({"1e2": 30}, KEY + "'1e2'"),
        ({"١": 30}, KEY + "'١'"),  # an Arabic-Indic one: int() would take it
        ({None: 30}, KEY + "None"),
        # card values out of bounds
        ({100: 30}, "Key 100 of option 'deck_composition' must be at most 99"),
        ({"100": 30}, "Key '100' of option 'deck_composition' must be at most 99"),
        ({"-100": 30}, "Key '-100' of option 'deck_composition' must be at least -99"),
        (
            {"9" * 50: 1},
            "Key '" + "9" * 38 + "… of option 'deck_composition' must be at most 99",
        ),
        # one value twice
        (
            {1: 20, "1": 20},
            "Option 'deck_composition' gives the count of 1 twice (keys 1 and '1')",
        ),
        # bad counts
        (
            {"1": -1},
            "The count of 1 in option 'deck_composition' must be a whole number, "
            "0 or more, not -1",
        ),
        (
            {"-1": True},
            "The count of -1 in option 'deck_composition' must be a whole number, "
            "0 or more, not True",
        ),
        (
            {"1": 2.0},
            "The count of 1 in option 'deck_composition' must be a whole number, "
            "0 or more, not 2.0",
        ),
        (
            {"1": "3"},
            "The count of 1 in option 'deck_composition' must be a whole number, "
            "0 or more, not '3'",
        ),
        (
            {"1": None},
            "The count of 1 in option 'deck_composition' must be a whole number, "
            "0 or more, not None",
        ),
        (
            {"1": [3]},
            "The count of 1 in option 'deck_composition' must be a whole number, "
            "0 or more, not [3]",
        ),
        # too many cards
        (
            {"1": 241},
            "Option 'deck_composition' may hold at most 240 values; "
            "its counts add up to 241",
        ),
        (
            {str(v): 10 for v in range(-12, 13)},
            "Option 'deck_composition' may hold at most 240 values; "
            "its counts add up to 250",
        ),
        (
            {"1": 10**30},
            "Option 'deck_composition' may hold at most 240 values; "
            "its counts add up to " + str(10**30),
        ),
        # neither a list nor a map
        (
            "1,2,3",
            "Option 'deck_composition' must be a list of whole numbers "
            "or an object of counts per value",
        ),
        (
            40,
            "Option 'deck_composition' must be a list of whole numbers "
            "or an object of counts per value",
        ),
        (
            (1, 2, 3),
            "Option 'deck_composition' must be a list of whole numbers "
            "or an object of counts per value",
        ),
    ],
)
def test_a_bad_deck_composition_is_refused_by_name(value, message):
    assert refusal(value) == message
    with pytest.raises(InvalidOptions) as info:
        GAME.start(2, options={NAME: value}, seed=1)
    assert str(info.value) == message


def test_the_list_form_keeps_its_messages():
    assert refusal([1] * 241) == "Option 'deck_composition' may hold at most 240 values"
    assert (
        refusal([1, True])
        == "Option 'deck_composition' must be a list of whole numbers"
    )
    assert (
        refusal([1, "2"]) == "Option 'deck_composition' must be a list of whole numbers"
    )
    assert (
        refusal([100]) == "Every value of option 'deck_composition' must be at most 99"
    )


def test_a_huge_count_builds_nothing_and_a_huge_map_is_too_large():
    # 10**4000 cards would never fit in memory: refused from the sum alone.
    option = next(o for o in OPTIONS if o.name == NAME)
    with pytest.raises(InvalidOptions, match="its counts add up to"):
        option.check({"1": 10**4000})
    with pytest.raises(InvalidOptions) as info:
        GAME.validate_options(
            {NAME: {str(v): 1 for v in range(-99, 100)} | {"x" * 4000: 1}}
        )
    assert str(info.value) == "The options are too large: at most 4096 bytes of JSON"


def test_the_largest_map_is_accepted():
    counts = {str(v): 1 for v in range(-99, 100)} | {"0": 42}
    deck = composition(counts)
    assert len(deck) == 240 and deck == sorted(deck)
    assert deck.count(0) == 42


# ------------------------------------------------- canonical and stable


@pytest.mark.parametrize(
    "value",
    [
        None,
        SMALL_COUNTS,
        PUBLISHED_JSON,
        {"1": 40, "-1": 5},
        [3, 1, 2] * 9,
        PUBLISHED_LIST,
    ],
    ids=["null", "int-keys", "published", "negative", "unsorted-list", "list"],
)
def test_validated_options_survive_json_and_validation_unchanged(value):
    options = GAME.validate_options({NAME: value, "rounds": 2})
    assert options[NAME] is None or options[NAME] == sorted(options[NAME])
    text = json.dumps(options)
    again = json.loads(text)
    assert again == options
    assert GAME.validate_options(again) == options
    assert json.dumps(GAME.validate_options(again)) == text
    # The map itself survives JSON too: its int keys become strings.
    if isinstance(value, dict):
        sent = json.loads(json.dumps({NAME: value, "rounds": 2}))
        assert GAME.validate_options(sent) == options


def test_the_recorded_options_survive_json_and_validation_unchanged():
    start = GAME.start(2, options={NAME: {"1": 40, "-1": 5}}, seed=1)[0]
    recorded = json.loads(json.dumps(start.payload["options"]))
    assert recorded == start.payload["options"]
    assert GAME.validate_options(recorded) == recorded


def test_the_schema_still_reads_as_an_int_list_and_mentions_the_map():
    entry = GAME.options_schema()[NAME]
    assert entry["type"] == "int_list"
    assert entry["max_length"] == 240
    assert entry["items"] == {"type": "int", "min": -99, "max": 99}
    assert entry["nullable"] is True and entry["default"] is None
    assert "copies per card value" in entry["description"]
    assert "list of every card value" in entry["description"]
    assert json.loads(json.dumps(entry)) == entry


def test_only_an_int_list_can_be_a_multiset_and_others_keep_their_order():
    with pytest.raises(TypeError, match="Option 'n' \\(int\\) cannot be a multiset"):
        Option("n", 1, "a number", kind="int", minimum=1, maximum=2, multiset=True)
    plain = Option(
        "xs", None, "values", kind="int_list", minimum=0, maximum=9, max_length=5
    )
    assert plain.check([3, 1, 2]) == [3, 1, 2]
    with pytest.raises(InvalidOptions) as info:
        plain.check({"1": 2})
    assert str(info.value) == "Option 'xs' must be a list of whole numbers"
