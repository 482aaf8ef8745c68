"""The user manager finds an account by name whatever its case.

State only (no SQL): ``User.objects`` is ``accounts.models.UserManager``, whose
``get_by_natural_key`` (``createsuperuser``, ``drf_create_token``,
``loaddata``) matches names case-folded, as the site does. Accounts left
differing only in case by older data (migration 0002 kept both) are untouched:
each is still found by its exact spelling.
"""

from django.db import migrations

import accounts.models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_username_folded")]

    operations = [
        migrations.AlterModelManagers(
            name="user",
            managers=[("objects", accounts.models.UserManager())],
        ),
    ]
