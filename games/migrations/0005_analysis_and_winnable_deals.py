"""The solver's searches of a game's boards (hints, "can this still be won?") and the deals
found winnable after the committed list."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_stuck_games_finished"),
    ]

    operations = [
        migrations.CreateModel(
            name="WinnableDeal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[
                            ("forty-thieves", "Forty Thieves"),
                            ("indian", "Indian"),
                            ("limited", "Limited"),
                            ("little-forty", "Little Forty"),
                            ("lucas", "Lucas"),
                            ("maria", "Maria"),
                            ("number-ten", "Number Ten"),
                            ("rank-and-file", "Rank and File"),
                            ("streets", "Streets"),
                            ("forty-devils", "Forty Devils"),
                        ],
                        max_length=20,
                        verbose_name="game",
                    ),
                ),
                ("deal", models.CharField(max_length=20, verbose_name="deal number")),
                ("moves", models.JSONField(verbose_name="moves")),
                (
                    "found_at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="found"),
                ),
            ],
            options={
                "verbose_name": "winnable deal",
                "verbose_name_plural": "winnable deals",
                "constraints": [
                    models.UniqueConstraint(fields=("variant", "deal"), name="winnable_deal_unique")
                ],
            },
        ),
        migrations.CreateModel(
            name="Analysis",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[("hint", "hint"), ("analysis", "can this still be won?")],
                        max_length=10,
                        verbose_name="kind",
                    ),
                ),
                ("ply", models.PositiveIntegerField(verbose_name="ply")),
                ("version", models.PositiveIntegerField(verbose_name="version")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "waiting for the worker"),
                            ("running", "searching"),
                            ("won", "a win found"),
                            ("lost", "no win possible"),
                            ("unknown", "no win found in time"),
                            ("stale", "out of date"),
                            ("failed", "failed"),
                        ],
                        default="queued",
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                ("moves", models.JSONField(blank=True, default=list, verbose_name="moves")),
                (
                    "nodes",
                    models.PositiveIntegerField(default=0, verbose_name="positions searched"),
                ),
                ("seconds", models.FloatField(default=0, verbose_name="seconds searched")),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="asked"),
                ),
                (
                    "finished_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="answered"),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="analyses",
                        to="games.game",
                        verbose_name="game",
                    ),
                ),
            ],
            options={
                "verbose_name": "analysis",
                "verbose_name_plural": "analyses",
                "indexes": [models.Index(fields=["status", "created_at"], name="analysis_pending")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game", "kind", "version"), name="analysis_one_per_board"
                    )
                ],
            },
        ),
    ]
