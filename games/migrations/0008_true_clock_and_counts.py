"""A true clock and counts players understand.

- ``milliseconds_played`` replaces ``seconds_played``: time played to the millisecond. A game
  keeps the time it had, exactly (its seconds times 1000).
- ``automatic_ply``: how many of the log's moves the automatic moves played, counted from the
  log, which marks each of them (``Move.automatic``): exact for every game. The player's own
  moves are ``ply - automatic_ply``.
- ``finish``: the moves proven to win from the game's position, found after a move (none known
  for the games stored before: the next move looks).
"""

from django.db import migrations, models
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce


def keep_time_and_count_automatic_moves(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    automatic = (
        Move.objects.filter(game=OuterRef("pk"), automatic=True)
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Game.objects.update(milliseconds_played=F("seconds_played") * 1000)
    Game.objects.filter(Q(ply__gt=0)).update(automatic_ply=Coalesce(Subquery(automatic), 0))


def back_to_seconds(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    # Whole seconds, rounded down, as the clock counted them before.
    Game.objects.update(seconds_played=F("milliseconds_played") / 1000)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_move_checkpoints"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="milliseconds_played",
            field=models.PositiveBigIntegerField(default=0, verbose_name="time played (ms)"),
        ),
        migrations.AddField(
            model_name="game",
            name="automatic_ply",
            field=models.PositiveIntegerField(default=0, verbose_name="automatic moves"),
        ),
        migrations.AddField(
            model_name="game",
            name="finish",
            field=models.JSONField(
                blank=True, default=list, verbose_name="moves that win from here"
            ),
        ),
        migrations.RunPython(keep_time_and_count_automatic_moves, back_to_seconds),
        migrations.RemoveField(
            model_name="game",
            name="seconds_played",
        ),
    ]
