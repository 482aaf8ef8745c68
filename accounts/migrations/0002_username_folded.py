"""Usernames unique without case on every database: ``User.username_folded``.

SQLite folds only ASCII letters, so "émile" and "Émile" could both exist there.
The new column holds ``username_fold(username)`` (NFKC, then case folding) and
is unique. Existing accounts are filled in; should two already collide, the
later one's folded name gets ``#<id>`` appended so the migration never fails
(both keep their usernames; rename one by hand).
"""

import unicodedata

from django.db import migrations, models


def fill_folded(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    seen = set()
    for user in User.objects.order_by("pk").only("pk", "username"):
        folded = unicodedata.normalize("NFKC", user.username).casefold()
        if folded in seen:
            folded = f"{folded}#{user.pk}"
        seen.add(folded)
        User.objects.filter(pk=user.pk).update(username_folded=folded)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_folded",
            field=models.CharField(editable=False, max_length=450, null=True),
        ),
        migrations.RunPython(fill_folded, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="username_folded",
            field=models.CharField(
                editable=False,
                help_text="The username case-folded (username_fold), unique.",
                max_length=450,
                unique=True,
            ),
        ),
    ]
