"""Serializer fields shared by the API's inputs."""

from typing import Any

from rest_framework import serializers


class TextField(serializers.CharField):
    """``CharField`` for JSON input: a string, never a number made into one.

    DRF's ``CharField`` also takes a JSON number and stores its text (a
    username ``2.14e+16``); the schema says ``string``, and a client sending a
    number has a bug it should hear about. Same message as for any other
    value that is not a string.
    """

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))
