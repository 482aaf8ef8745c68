"""The public bot API the Django side uses: which levels exist, and a fresh seed."""

import doctest
import re

import pytest

import rules
from rules import bots


def test_doctests():
    assert doctest.testmod(bots).failed == 0


@pytest.mark.parametrize("game", rules.GAMES)
def test_every_game_has_every_level(game):
    assert bots.levels(game) == ("random", "basic", "strong")
    for level in bots.levels(game):
        assert bots.has_level(game, level)
        assert bots.get_bot(game, level).level == level


def test_unknown_games_and_levels():
    assert not bots.has_level("alkort", "genius")
    assert not bots.has_level("chess", "random")
    assert not bots.has_level("alkort", "")
    with pytest.raises(KeyError, match="Unknown game 'chess'; Cardroom offers: alager"):
        bots.levels("chess")


def test_new_seed_is_a_fresh_secret():
    a, b = rules.new_seed(), rules.new_seed()
    assert re.fullmatch(r"[0-9a-f]{64}", a) and a != b
