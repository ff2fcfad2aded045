"""Moves played by Finish, counted apart from the player's own.

- ``finish_ply``: how many of the log's last moves Finish played. For a game won before, it is
  known where the solver's Finish played out a search's win: the game's last change (its
  version before the win's) was that win, and the log ends with its moves. Such games counted a
  hint already (won with help). A certain win's Finish left no trace: those games keep 0, their
  moves counted as the player's.
"""

from django.db import migrations, models
from django.db.models import F


def count_finished_wins(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Analysis = apps.get_model("games", "Analysis")
    Move = apps.get_model("games", "Move")
    wins = Analysis.objects.filter(
        status="won", game__status="won", version=F("game__version") - 1
    ).select_related("game")
    for win in wins.iterator(chunk_size=500):
        game, moves = win.game, win.moves
        if not moves or len(moves) > game.ply:
            continue
        tail = Move.objects.filter(game=game, ply__gt=game.ply - len(moves)).order_by("ply")
        logged = list(tail.values_list("notation", "automatic"))
        if [text for text, _automatic in logged] == moves and not any(a for _t, a in logged):
            Game.objects.filter(pk=game.pk).update(finish_ply=len(moves))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_shared_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="finish_ply",
            field=models.PositiveIntegerField(default=0, verbose_name="moves played by Finish"),
        ),
        migrations.RunPython(count_finished_wins, migrations.RunPython.noop),
    ]
