"""Hand valuation and special hands: the examples of docs/rules/alager.md §2, §6 and
"Worked examples" (hand labels V1–V12: see its "For maintainers")."""

import doctest

import pytest

import rules.alager.hands
from rules.alager import MARIASH_NAMES, hand_value, mariash_name, special_kind

V = [
    # (id, hand, per-suit totals, value, special without Hoří, special with Hoří)
    ("V1", "QH KH AH", {"H": 31}, 31, "alager", "alager"),
    ("V2", "AH KH TH", {"H": 31}, 31, None, None),
    ("V3", "AC AD AS", {"C": 11, "D": 11, "S": 11}, 11, None, "hori"),
    ("V4", "7C 9C 8D", {"C": 16, "D": 8}, 16, None, None),
    ("V5", "2H 5S 9D", {"H": 2, "S": 5, "D": 9}, 9, None, None),
    ("V6", "AC 3D 2D", {"C": 11, "D": 5}, 11, None, None),
    ("V7", "JH QH 2S", {"H": 20, "S": 2}, 20, None, None),
    ("V8", "KD QD JD", {"D": 30}, 30, None, None),
    ("V9", "QC KC AD", {"C": 20, "D": 11}, 20, None, None),
    ("V10", "2C 2D 2H", {"C": 2, "D": 2, "H": 2}, 2, None, None),
    ("V11", "QS KS AS", {"S": 31}, 31, "alager", "alager"),
    ("V12", "7C 7D 7H", {"C": 7, "D": 7, "H": 7}, 7, None, None),
]


@pytest.mark.parametrize(
    ("vid", "hand", "totals", "value", "plain", "hori"), V, ids=[v[0] for v in V]
)
def test_worked_valuation_examples(vid, hand, totals, value, plain, hori):
    """§2 and §6: per-suit totals, value (D-21) and special status, with and without Hoří."""
    cards = hand.split()
    assert value == max(totals.values())  # D-21: the best single suit
    assert hand_value(cards) == value
    assert special_kind(cards, hori_enabled=False) == plain
    assert special_kind(cards, hori_enabled=True) == hori


def test_value_does_not_depend_on_card_order():
    for hand in ("AC 3D 2D", "QC KC AD", "2H 5S 9D", "JH QH 2S"):
        cards = hand.split()
        for i in range(3):
            rotated = cards[i:] + cards[:i]
            assert hand_value(rotated) == hand_value(cards)
            assert hand_value(rotated[::-1]) == hand_value(cards)


def test_v11_is_svrsek_kral_eso_of_listy():
    """D-1: with the mariáš deck an Alager is svršek, král and eso of one suit."""
    names = [mariash_name(c) for c in ("QS", "KS", "AS")]
    assert names == ["zelený svršek", "zelený král", "zelené eso"]


def test_mariash_names_cover_the_32_card_deck():
    assert len(MARIASH_NAMES) == 32
    assert len(set(MARIASH_NAMES.values())) == 32
    assert MARIASH_NAMES["7H"] == "srdcová sedma"
    assert MARIASH_NAMES["JD"] == "kulový spodek"
    assert MARIASH_NAMES["TC"] == "žaludská desítka"
    with pytest.raises(KeyError):
        mariash_name("2C")


def test_doctests():
    assert doctest.testmod(rules.alager.hands).failed == 0
    assert doctest.testmod(rules.alager).failed == 0
