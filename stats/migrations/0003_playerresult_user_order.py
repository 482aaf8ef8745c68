"""An index for a player's tables, newest first (the player tables API)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0002_ratingchange_per_seat"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="playerresult",
            index=models.Index(
                fields=["user", "finished_at", "table", "-seat"],
                name="stats_result_user_order",
            ),
        ),
    ]
