"""Timeouts: a payload marker or a timeout event type, credited to its seat."""

from __future__ import annotations

import dataclasses

import pytest

from rules import Event
from stats import sources
from stats.models import GameStat, PlayerGameStat
from stats.services import table_record
from stats.simulate import match_play

pytestmark = pytest.mark.django_db


def _with_timeout_events(match, *, marked_type: str | None, extra_type: str | None):
    """The match with seat 1's first move marked ``timeout`` and/or a timeout event."""
    events, seats = list(match.events), list(match.seats)
    first = seats.index(1)
    if marked_type is not None:
        e = events[first]
        events[first] = Event(e.type, e.version, {**e.payload, "timeout": True})
    if extra_type is not None:
        events.insert(first, Event(extra_type, 1, {"seat": 1}))
        seats.insert(first, 1)
    return dataclasses.replace(match, events=events, seats=seats)


def test_a_move_marked_timeout_counts_for_its_seat(people, finished_table):
    ada, bob = people(2)
    match = _with_timeout_events(
        match_play("alkort", 2, "to-1", {"target": 1}), marked_type="x", extra_type=None
    )
    table_record(table_id=finished_table("alkort", [ada, bob], match=match))

    assert PlayerGameStat.objects.get(user=bob).counters["timeouts"] == 1
    assert PlayerGameStat.objects.get(user=ada).counters["timeouts"] == 0
    assert GameStat.objects.get(game="alkort").counters["timeouts"] == 1


def test_a_timeout_event_type_counts_once_added(people, finished_table, monkeypatch):
    monkeypatch.setattr(sources, "TIMEOUT_TYPES", frozenset({"games.turn_timed_out"}))
    ada, bob = people(2)
    match = _with_timeout_events(
        match_play("alkort", 2, "to-2", {"target": 1}),
        marked_type=None,
        extra_type="games.turn_timed_out",
    )
    table_record(table_id=finished_table("alkort", [ada, bob], match=match))

    assert PlayerGameStat.objects.get(user=bob).counters["timeouts"] == 1
    assert GameStat.objects.get(game="alkort").counters["timeouts"] == 1
