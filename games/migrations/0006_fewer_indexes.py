"""Fewer indexes on the tables every move writes.

- No index holds games.updated_at any more: a move changes it, and on PostgreSQL an update
  that changes no indexed column is a HOT update (the row's new version stays on its page,
  no index entry is written) when the page has room: the table keeps a fifth of each page
  free for that (fill factor 80; rows written from now on).
- The owner's index and the move's game index are gone: the composite indexes begin with
  those columns. The game id is unique by a constraint, which on PostgreSQL has no second
  index for LIKE lookups.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import games.models

FILL_FACTOR = 80


def leave_room_on_each_page(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name(apps.get_model("games", "Game")._meta.db_table)
        schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {FILL_FACTOR})")


def fill_pages_again(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name(apps.get_model("games", "Game")._meta.db_table)
        schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_analysis_and_winnable_deals"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="game",
            name="game_owner_recent",
        ),
        migrations.RemoveIndex(
            model_name="game",
            name="game_guest_recent",
        ),
        migrations.AlterField(
            model_name="game",
            name="owner",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="games",
                to=settings.AUTH_USER_MODEL,
                verbose_name="player",
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="public_id",
            field=models.CharField(
                default=games.models.new_public_id,
                editable=False,
                max_length=22,
                verbose_name="game id",
            ),
        ),
        migrations.AlterField(
            model_name="move",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="moves",
                to="games.game",
                verbose_name="game",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(fields=("public_id",), name="game_public_id_unique"),
        ),
        migrations.RunPython(leave_room_on_each_page, fill_pages_again),
    ]
