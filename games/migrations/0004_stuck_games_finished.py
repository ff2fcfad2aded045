"""Stuck games now have a finish time (the statistics order streaks by it): a game stuck
before this gets the time it was last played."""

from django.db import migrations
from django.db.models import F


def date_stuck_games(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(status="stuck", finished_at__isnull=True).update(
        finished_at=F("updated_at")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_statistics_indexes"),
    ]

    operations = [
        migrations.RunPython(date_stuck_games, migrations.RunPython.noop),
    ]
