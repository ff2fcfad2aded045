"""A game's rows of moves are its ``log`` (``game.log``), no longer ``moves``: ``moves`` is
the name of a list of moves in notation (an analysis's, a record's) everywhere else. Only the
name Python reaches them by changes; the database is untouched."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_times_by_the_site_clock"),
    ]

    operations = [
        migrations.AlterField(
            model_name="move",
            name="game",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="log",
                to="games.game",
                verbose_name="game",
            ),
        ),
    ]
