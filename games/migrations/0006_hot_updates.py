"""A move's update of its game without index entries (a HOT update on PostgreSQL).

- No index holds games.updated_at any more: a move changes it, and PostgreSQL updates a row in
  place on its page, writing no index entry, when the update changes no indexed column and
  the page has room; the table now keeps a fifth of each page free for that (fill factor 80,
  for the pages written from now on).
- The home page and "My games" list the games in progress: they find them by status, which
  changes only as a game ends (or is stuck, or undone out of it).

The indexes are created and dropped in the migration's transaction: writes to the games wait
meanwhile, which takes moments at the games table's size (the moves' table is not touched).
"""

from django.conf import settings
from django.db import migrations, models

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
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["owner", "status"], name="game_owner_status"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["session_key", "status"], name="game_guest_status"),
        ),
        migrations.RunPython(leave_room_on_each_page, fill_pages_again),
    ]
