"""Shared pieces of the rules package: cards, dealing, options, outcome, codec."""

import doctest
import hashlib
from dataclasses import dataclass

import pytest

import rules
from rules import cards, codec, core, dealing, records
from rules.core import Event, InvalidOptions, MalformedAction, Option


@pytest.mark.parametrize("module", [cards, codec, core, dealing, records, rules])
def test_doctests(module):
    """Every docstring example in the shared modules holds."""
    result = doctest.testmod(module)
    assert result.failed == 0


def test_parse_card_accepts_loose_forms_and_rejects_nonsense():
    assert cards.parse_card(" 10h ") == "TH"
    assert cards.parse_card("as") == "AS"
    with pytest.raises(MalformedAction, match="'1H' is not a card"):
        cards.parse_card("1H")
    with pytest.raises(MalformedAction, match="must be a string"):
        cards.parse_card(12)


def test_decks_have_the_documented_order():
    assert cards.deck52()[:13] == [r + "C" for r in "23456789TJQKA"]
    assert cards.deck52()[-1] == "AS"
    assert cards.deck32()[:8] == [r + "C" for r in "789TJQKA"]
    assert len(set(cards.deck52())) == 52


def test_shuffle_matches_the_documented_algorithm():
    """Re-implemented from the module docstring alone: same result."""

    def reference(items, seed, k):
        out, c, buf = list(items), 0, []

        def next_int():
            nonlocal c
            if not buf:
                d = hashlib.sha256(f"{seed}:{k}:{c}".encode()).digest()
                buf.extend(int.from_bytes(d[i : i + 8], "big") for i in range(0, 32, 8))
                c += 1
            return buf.pop(0)

        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            while True:
                x = next_int()
                if x < 2**64 - (2**64 % n):
                    break
            j = x % n
            out[i], out[j] = out[j], out[i]
        return out

    deck = cards.deck52()
    # Deal keys are ints, reshuffle keys the text "r<m>" (f"{seed}:r0:{c}").
    for seed, k in [(7, 0), ("abc", 3), (0, 11), (7, "r0"), ("abc", "r12")]:
        assert dealing.shuffle(deck, seed, k) == reference(deck, seed, k)
    assert dealing.shuffle(deck, 7, 0) != dealing.shuffle(deck, 7, 1)
    assert dealing.shuffle(deck, 7, "r0") != dealing.shuffle(deck, 7, 0)
    # Golden values, so that the algorithm never changes by accident.
    assert dealing.shuffle(list(range(10)), 7, 0) == [3, 4, 7, 5, 0, 9, 6, 2, 1, 8]
    assert dealing.shuffle(list(range(10)), 7, "r0") == [0, 6, 4, 3, 5, 1, 9, 7, 8, 2]


def test_a_shuffle_key_is_an_int_or_a_string():
    assert dealing.shuffle_key_text(3) == "3"
    assert dealing.shuffle_key_text("r3") == "r3"
    assert dealing.reshuffle_key(0) == "r0"
    for bad in (True, None, 1.0, ["r0"]):
        with pytest.raises(TypeError, match="shuffle key"):
            dealing.shuffle([1, 2, 3], "s", bad)


def test_chance_uses_given_decks_then_the_seed():
    chance = dealing.Chance(seed="s", decks=(("AS", "KS"),))
    deck, k, chance = chance.next_deal(["2C", "3C"])
    assert (deck, k) == (["AS", "KS"], None)
    # The given deck was deal 0, so the next deal is deal 1: key 1.
    deck, k, chance = chance.next_deal(cards.deck52())
    assert k == 1 and deck == dealing.shuffle(cards.deck52(), "s", 1)
    again, k2, chance = chance.reshuffle(["2C", "3C", "4C"])
    assert k2 == "r0" and sorted(again) == ["2C", "3C", "4C"]
    assert again == dealing.shuffle(["2C", "3C", "4C"], "s", "r0")
    # A reshuffle does not move the deal keys; reshuffles count on their own.
    deck, k, chance = chance.next_deal(cards.deck52())
    assert k == 2 and deck == dealing.shuffle(cards.deck52(), "s", 2)
    _, k3, chance = chance.reshuffle(["2C", "3C"])
    assert k3 == "r1"
    assert (chance.deals, chance.reshuffles, chance.legacy) == (3, 2, None)


def test_chance_after_follows_the_recorded_events():
    """``after`` (replay) ends where ``next_deal``/``reshuffle`` (decide) end."""
    live = dealing.Chance(seed="s", decks=(("AS",),))
    replayed = live
    for step in ["deal", "deal", "reshuffle", "reshuffle", "deal", "reshuffle"]:
        if step == "deal":
            _, k, live = live.next_deal(cards.deck52())
            replayed = replayed.after({"shuffle": k})
        else:
            _, k, live = live.reshuffle(["2C", "3C"])
            replayed = replayed.after({"reshuffle": True, "shuffle": k})
        assert replayed == live
    assert (live.deals, live.reshuffles, live.legacy) == (3, 3, None)


def test_chance_after_an_old_reshuffle_keeps_the_old_counter():
    """Recorded with one counter for seeded deals and reshuffles (earlier
    engines): deal k0, reshuffle 1, deal k2. The match goes on with that
    counter, so its next shuffles (3, 4) reuse none of its streams."""
    chance = dealing.Chance(seed="s")
    chance = chance.after({"shuffle": 0})
    assert chance.legacy is None
    chance = chance.after({"reshuffle": True, "shuffle": 1})
    assert chance.legacy == 2
    chance = chance.after({"shuffle": 2})
    assert (chance.deals, chance.reshuffles, chance.legacy) == (2, 1, 3)
    _, k, chance = chance.reshuffle(["2C", "3C"])
    deck, k2, chance = chance.next_deal(cards.deck52())
    assert (k, k2) == (3, 4) and deck == dealing.shuffle(cards.deck52(), "s", 4)
    # Replaying those new events keeps the same counter.
    again = dealing.Chance(seed="s")
    for payload in [
        {"shuffle": 0},
        {"reshuffle": True, "shuffle": 1},
        {"shuffle": 2},
        {"reshuffle": True, "shuffle": 3},
        {"shuffle": 4},
    ]:
        again = again.after(payload)
    assert again == chance


def test_normalise_decks_accepts_one_or_many():
    assert dealing.normalise_decks(["AS", "KS"]) == (("AS", "KS"),)
    assert dealing.normalise_decks([["AS"], ["KS"]]) == (("AS",), ("KS",))
    assert dealing.normalise_decks([3, 4]) == ((3, 4),)
    assert dealing.normalise_decks(None) == ()


def test_seed_hash_is_sha256_of_the_text():
    assert dealing.seed_hash(7) == hashlib.sha256(b"7").hexdigest()
    assert len(dealing.new_seed()) == 64


def test_options_fill_defaults_and_reject_bad_values():
    schema = (
        Option("deck", 52, "deck size", kind="int", choices=(52, 32)),
        Option("hori_enabled", False, "Hoří"),
        Option("end_mode", "limit", "end", kind="choice", choices=("limit", "fixed")),
    )
    assert core.options_validate(schema, {"deck": 32}) == {
        "deck": 32,
        "hori_enabled": False,
        "end_mode": "limit",
    }
    with pytest.raises(InvalidOptions, match="Unknown option 'dek'"):
        core.options_validate(schema, {"dek": 32})
    with pytest.raises(InvalidOptions, match="'deck' must be one of 52, 32"):
        core.options_validate(schema, {"deck": 40})
    with pytest.raises(InvalidOptions, match="'hori_enabled' must be true or false"):
        core.options_validate(schema, {"hori_enabled": 1})
    with pytest.raises(InvalidOptions, match='must be one of "limit", "fixed"'):
        core.options_validate(schema, {"end_mode": "sometimes"})


def test_outcome_places_share_the_best_place_of_a_tie():
    out = core.outcome_from_scores([10, 4, 10, 4], lower_is_better=False)
    assert out == {"scores": [10, 4, 10, 4], "places": [1, 3, 1, 3], "winners": [0, 2]}
    out = core.outcome_from_scores([2, 5, 2], lower_is_better=True)
    assert out["places"] == [1, 3, 1]


def test_event_json_round_trip_and_redaction_helper():
    e = Event("x.dealt", 1, {"seed": "s", "deck": [1], "hands": [[1]]})
    assert Event.from_json(e.to_json()) == e
    assert core.strip_secrets(e).payload == {"hands": [[1]]}
    assert e.with_payload(hands=..., n=2).payload == {"seed": "s", "deck": [1], "n": 2}


def test_check_turn_names_the_seat_to_act():
    with pytest.raises(
        rules.NotYourTurn, match="It is not your turn: seat 2 is to act"
    ):
        core.check_turn((2,), 0)
    with pytest.raises(rules.GameOver):
        core.check_turn((), 0)


@dataclass(frozen=True)
class _Inner:
    cells: tuple[int | None, ...]


@dataclass(frozen=True)
class _State:
    hands: tuple[tuple[str, ...], ...]
    inner: _Inner
    scores: dict[int, int]
    removed: frozenset[str]
    last: str | None = None


def test_codec_round_trips_nested_frozen_states():
    s = _State((("QH",), ()), _Inner((1, None)), {0: 3}, frozenset({"AS"}), None)
    import json

    assert codec.load(_State, json.loads(json.dumps(codec.dump(s)))) == s
