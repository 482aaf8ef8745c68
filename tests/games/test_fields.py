"""``games.fields.JSONTextField``: the cached state kept as JSON text."""

import pytest
from django.core.exceptions import FieldError
from django.db import connection

from games.models import Table
from games.state_codec import json_text
from tests.games.factories import TableFactory

pytestmark = pytest.mark.django_db

STATE = {"deck": [3, 1, 2], "rng": 2**80, "hands": {"0": [], "1": [7]}, "x": None}


def test_a_state_reads_back_as_it_was_written_integers_of_any_size_too() -> None:
    table = TableFactory(state=STATE)

    assert Table.objects.get(pk=table.pk).state == STATE
    assert Table.objects.filter(pk=table.pk).values_list("state", flat=True)[0] == STATE


def test_it_is_stored_as_the_text_the_hot_path_writes() -> None:
    table = TableFactory(state=STATE)

    with connection.cursor() as cursor:
        cursor.execute("SELECT state FROM games_table WHERE id = %s", [table.pk])
        (stored,) = cursor.fetchone()
    assert stored == json_text(STATE)  # as written, not reformatted by jsonb


def test_no_state_is_sql_null() -> None:
    table = TableFactory(state=None)

    assert Table.objects.filter(pk=table.pk, state__isnull=True).exists()


def test_nothing_is_looked_up_inside_it() -> None:
    with pytest.raises(FieldError):
        list(Table.objects.filter(state__deck=[3, 1, 2]))


def test_its_text_can_still_be_searched() -> None:
    table = TableFactory(state=STATE)

    assert list(Table.objects.filter(state__icontains='"deck"')) == [table]


def test_it_goes_through_dumpdata_and_loaddata_as_json() -> None:
    from django.core import serializers

    table = TableFactory(state=STATE)
    dumped = serializers.serialize("json", Table.objects.filter(pk=table.pk))
    assert '"state": {"deck": [3, 1, 2]' in dumped  # a JSON object, not a string
    Table.objects.filter(pk=table.pk).update(state=None)
    for obj in serializers.deserialize("json", dumped):
        obj.save()

    assert Table.objects.get(pk=table.pk).state == STATE


def test_bulk_update_writes_the_text_too() -> None:
    tables = [TableFactory(state=None), TableFactory(state=None)]
    for n, table in enumerate(tables):
        table.state = {"n": n, "big": 2**70}
    Table.objects.bulk_update(tables, ["state"])

    assert [
        t.state
        for t in Table.objects.filter(pk__in=[t.pk for t in tables]).order_by("pk")
    ] == [
        {"n": 0, "big": 2**70},
        {"n": 1, "big": 2**70},
    ]
