"""Every option of every game is bounded, shows its bounds, and refuses values past them.

A match's options come straight from a client, so nothing may make a match
huge or endless: each option has bounds in ``options_schema()``, each bound is
refused with a message naming the option and the bound, and the whole options
object is capped in size before any value is read.
"""

import json

import pytest

import rules
from rules.core import MAX_OPTIONS_BYTES, InvalidOptions, Option

OPTIONS = [
    (name, option) for name in rules.GAMES for option in rules.get_game(name).OPTIONS
]
INTS = [(g, o) for g, o in OPTIONS if o.kind == "int" and not o.choices]


@pytest.mark.parametrize(
    ("game", "option"), OPTIONS, ids=lambda x: getattr(x, "name", x)
)
def test_the_schema_shows_every_options_bounds(game, option):
    entry = rules.get_game(game).options_schema()[option.name]
    if option.kind == "int":
        assert "choices" in entry or {"min", "max"} <= set(entry), entry
    elif option.kind == "choice":
        assert entry["choices"], entry
    elif option.kind == "int_list":
        assert entry["max_length"] > 0
        assert set(entry["items"]) == {"type", "min", "max"}
    else:
        assert option.kind == "bool" and entry["type"] == "bool"
    assert json.loads(json.dumps(entry)) == entry


@pytest.mark.parametrize(("game", "option"), INTS, ids=lambda x: getattr(x, "name", x))
def test_whole_numbers_past_either_bound_are_refused(game, option):
    g = rules.get_game(game)
    for value, message in [
        (
            option.maximum + 1,
            f"Option {option.name!r} must be at most {option.maximum}",
        ),
        (10**30, f"Option {option.name!r} must be at most {option.maximum}"),
        (
            option.minimum - 1,
            f"Option {option.name!r} must be at least {option.minimum}",
        ),
    ]:
        with pytest.raises(InvalidOptions) as info:
            g.validate_options({option.name: value})
        assert str(info.value) == message
    assert (
        g.validate_options({option.name: option.maximum})[option.name] == option.maximum
    )


def test_the_allegra_deck_composition_is_bounded_in_length_and_values():
    game = rules.get_game("allegra")
    entry = game.options_schema()["deck_composition"]
    assert entry["max_length"] == 240 and entry["items"] == {
        "type": "int",
        "min": -99,
        "max": 99,
    }
    cases = [
        ([1] * 241, "Option 'deck_composition' may hold at most 240 values"),
        (
            [1] * 30 + [10**30],
            "Every value of option 'deck_composition' must be at most 99",
        ),
        (
            [1] * 30 + [-100],
            "Every value of option 'deck_composition' must be at least -99",
        ),
        (
            [1] * 30 + [True],
            "Option 'deck_composition' must be a list of whole numbers",
        ),
    ]
    for value, message in cases:
        with pytest.raises(InvalidOptions) as info:
            game.start(2, options={"deck_composition": value}, seed=1)
        assert str(info.value) == message
    deck = [v for v in range(-99, 100)] + [0] * 41
    assert (
        len(game.validate_options({"deck_composition": deck})["deck_composition"])
        == 240
    )


@pytest.mark.parametrize("name", rules.GAMES)
def test_oversized_options_are_refused_before_anything_else(name):
    game = rules.get_game(name)
    huge = {"deck_composition": list(range(200_000))}  # about 1.3 MB of JSON
    for options in [huge, {"x" * MAX_OPTIONS_BYTES: 1}, {"target": 10**5000}]:
        with pytest.raises(InvalidOptions) as info:
            game.start(2, options=options, seed=1)
        assert (
            str(info.value) == "The options are too large: at most 4096 bytes of JSON"
        )


def test_an_option_cannot_be_defined_without_bounds():
    with pytest.raises(TypeError, match="Option 'n' \\(int\\) must be bounded"):
        Option("n", 1, "a number", kind="int", minimum=1)
    with pytest.raises(TypeError, match="Option 'deck' \\(int_list\\) must be bounded"):
        Option("deck", None, "cards", kind="int_list", minimum=0, maximum=9)
    with pytest.raises(TypeError, match="Option 'mode' \\(choice\\) must be bounded"):
        Option("mode", "a", "mode", kind="choice")


def test_the_documented_ranges():
    schemas = {name: rules.get_game(name).options_schema() for name in rules.GAMES}
    assert schemas["alkort"]["target"]["max"] == 100
    assert schemas["allegra"]["max_turns_per_round"]["max"] == 1000
    assert schemas["alager"]["max_turns_per_deal"]["max"] == 10_000


CHOICES = [(g, o) for g, o in OPTIONS if o.choices]
BOOLS = [(g, o) for g, o in OPTIONS if o.kind == "bool"]


@pytest.mark.parametrize(
    ("game", "option"), CHOICES, ids=lambda x: getattr(x, "name", x)
)
def test_a_value_outside_the_choices_is_refused(game, option):
    g = rules.get_game(game)
    allowed = ", ".join(
        str(c) if option.kind == "int" else json.dumps(c) for c in option.choices
    )
    bad = 7 if option.kind == "int" else "nope"
    with pytest.raises(InvalidOptions) as info:
        g.validate_options({option.name: bad})
    assert str(info.value) == f"Option {option.name!r} must be one of {allowed}"


@pytest.mark.parametrize(("game", "option"), BOOLS, ids=lambda x: getattr(x, "name", x))
def test_a_flag_must_be_true_or_false(game, option):
    with pytest.raises(InvalidOptions) as info:
        rules.get_game(game).validate_options({option.name: "yes"})
    assert str(info.value) == f"Option {option.name!r} must be true or false"
