"""The state codec (``rules.codec``): its dump equals the plain walk of a
state it replaced, and its loader accepts, refuses and is built once per
type (docs/event-store.md, "A move")."""

from __future__ import annotations

import dataclasses
import json
import random
import threading
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

import rules.registry
from rules import codec


@dataclass(frozen=True)
class _Node:
    value: int
    child: _Node | None = None


@dataclass(frozen=True)
class _Everything:
    number: int
    ratio: float
    flag: bool
    name: str
    phase: Literal["deal", "play"]
    maybe: int | None
    either: int | str
    hand: tuple[str, ...]
    pair: tuple[int, str]
    seen: frozenset[str]
    items: list[int]
    scores: dict[int, int]
    anything: Any
    free: list  # type: ignore[type-arg]
    node: _Node
    derived: int = field(default=0, init=False)


_VALUE = _Everything(
    number=3,
    ratio=0.5,
    flag=True,
    name="north",
    phase="play",
    maybe=None,
    either="x",
    hand=("QH", "TC"),
    pair=(1, "a"),
    seen=frozenset({"AS", "KD"}),
    items=[1, 2],
    scores={0: 3, 1: -2},
    anything="as it is",
    free=[1, "a", [None]],
    node=_Node(1, _Node(2, _Node(3))),
)


def _data(**changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(codec.dump(_VALUE)))
    data.pop("derived")
    data.update(changes)
    return data


def test_every_kind_of_field_round_trips():
    assert codec.load(_Everything, _data()) == _VALUE


def test_a_class_that_refers_to_itself_loads_to_any_depth():
    deep = None
    for value in range(200):
        deep = _Node(value, deep)
    assert codec.load(_Node, codec.dump(deep)) == deep


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"number": True}, TypeError, "bool is not int"),
        ({"number": "3"}, TypeError, "'3' is not int"),
        ({"name": 5}, TypeError, "5 is not str"),
        ({"phase": "over"}, ValueError, "'over' is not one of"),
        ({"maybe": "1"}, ValueError, "does not fit"),
        ({"either": 1.5}, ValueError, "does not fit"),
        ({"pair": [1, "a", 2]}, ValueError, "zip"),
        ({"node": [1]}, TypeError, "_Node expects an object"),
        ({"node": {"child": None}}, KeyError, "value"),
    ],
)
def test_data_that_does_not_fit_is_refused(changes, error, message):
    with pytest.raises(error, match=message):
        codec.load(_Everything, _data(**changes))


def test_a_missing_field_is_refused():
    data = _data()
    del data["hand"]
    with pytest.raises(KeyError, match="hand"):
        codec.load(_Everything, data)


def test_an_int_is_read_as_a_float_where_a_float_is_due():
    assert codec.load(_Everything, _data(ratio=2)).ratio == 2.0


def test_a_union_tries_its_arms_in_order():
    assert codec.load(int | str, 4) == 4
    assert codec.load(int | str, "4") == "4"
    assert codec.load(tuple[int, ...] | None, None) is None


def test_a_type_it_cannot_load_is_refused_when_used_and_skipped_in_a_union():
    class Opaque:
        pass

    with pytest.raises(TypeError, match="cannot load"):
        codec.load(Opaque, 1)
    assert codec.load(Opaque | int, 1) == 1


def test_each_type_is_read_once():
    codec._loaders.cache_clear()
    codec.load(_Everything, _data())
    built = codec._loaders.cache_info().currsize
    for _ in range(3):
        codec.load(_Everything, _data())
    assert codec._loaders.cache_info().currsize == built
    assert codec._loaders.cache_info().hits >= 3


def test_threads_loading_a_class_for_the_first_time_all_get_it_whole():
    codec._loaders.cache_clear()
    data, results, start = _data(), [], threading.Barrier(8)

    def load() -> None:
        start.wait()
        results.append(codec.load(_Everything, data))

    threads = [threading.Thread(target=load) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [_VALUE] * 8


@pytest.mark.parametrize("name", rules.registry.GAMES)
def test_the_games_states_load_as_they_were_dumped(name):
    """Whole matches of every game: each state back from its JSON is equal
    (the contract suite checks every few steps; this checks every step)."""
    game = rules.get_game(name)
    players = game.min_players
    state = game.replay(game.start(players=players, options={}, seed="codec"))
    for step in range(400):
        text = json.dumps(game.dump_state(state))
        assert game.load_state(json.loads(text)) == state
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = to_act[step % len(to_act)]
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[step % len(legal)])


def _walk(value: Any) -> Any:
    """The codec's dump as it was first written: every value asks
    ``dataclasses`` and ``isinstance`` afresh (the reference)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _walk(getattr(value, f.name)) for f in dataclasses.fields(value)
        }
    if isinstance(value, tuple | list):
        return [_walk(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted((_walk(v) for v in value), key=repr)
    if isinstance(value, dict):
        return [[_walk(k), _walk(v)] for k, v in value.items()]
    return value


def test_dump_follows_the_walk_for_sets_dicts_and_classes():
    value = {"a": (1, 2), 3: frozenset({"x", "b"}), "n": None, "c": _Node}

    assert codec.dump(value) == _walk(value)
    assert codec.dump(value) == [
        ["a", [1, 2]], [3, ["b", "x"]], ["n", None], ["c", _Node],
    ]  # fmt: skip
    assert codec.dump(_VALUE) == _walk(_VALUE)


@pytest.mark.parametrize("name", rules.registry.GAMES)
def test_dump_equals_the_walk_over_a_whole_match(name):
    game = rules.get_game(name)
    rng = random.Random(f"codec-{name}")
    state = game.replay(game.start(players=game.min_players, options={}, seed="w"))
    for _ in range(400):
        assert game.dump_state(state) == _walk(state)
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = rng.choice(to_act)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
