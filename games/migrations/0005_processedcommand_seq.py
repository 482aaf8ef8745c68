"""A processed command keeps the seq it left the table at, not its answer.

The answer (the seat's view and legal actions at that seq) is rebuilt from the
log when a retry asks for it (``games.services.answers``). Existing rows keep
the seq their stored answer carried.
"""

from django.db import migrations, models
from django.db.models import F
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, JSONArray, JSONObject


def seq_from_response(apps, schema_editor):  # type: ignore[no-untyped-def]
    # One UPDATE, however many commands there are.
    ProcessedCommand = apps.get_model("games", "ProcessedCommand")
    ProcessedCommand.objects.update(
        seq=Cast(KeyTextTransform("seq", "response"), models.PositiveIntegerField())
    )


def response_from_seq(apps, schema_editor):  # type: ignore[no-untyped-def]
    # Going back, the answer is not rebuilt: a retry of such a command gets
    # the seq alone, with an empty view, which a client refetches.
    ProcessedCommand = apps.get_model("games", "ProcessedCommand")
    ProcessedCommand.objects.update(
        response=JSONObject(
            seq=F("seq"),
            view=JSONObject(),
            legal_actions=JSONArray(),
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_connection_audience"),
    ]

    operations = [
        migrations.AddField(
            model_name="processedcommand",
            name="seq",
            field=models.PositiveIntegerField(
                null=True, help_text="The table's seq once the command was played."
            ),
        ),
        migrations.AlterField(
            model_name="processedcommand",
            name="response",
            field=models.JSONField(null=True),
        ),
        migrations.RunPython(seq_from_response, response_from_seq),
        migrations.RemoveField(model_name="processedcommand", name="response"),
        migrations.AlterField(
            model_name="processedcommand",
            name="seq",
            field=models.PositiveIntegerField(
                help_text="The table's seq once the command was played."
            ),
        ),
    ]
