"""How winnable each game is: the solver's answer for each fresh deal it searches, per time
budget (``DealSearch``)."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_true_clock_and_counts"),
    ]

    operations = [
        migrations.CreateModel(
            name="DealSearch",
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
                ("seconds", models.FloatField(verbose_name="seconds given")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("won", "won"),
                            ("lost", "proved lost"),
                            ("unknown", "not decided"),
                        ],
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                (
                    "nodes",
                    models.PositiveBigIntegerField(default=0, verbose_name="positions searched"),
                ),
                (
                    "searched_at",
                    models.DateTimeField(
                        default=django.utils.timezone.now, verbose_name="searched"
                    ),
                ),
            ],
            options={
                "verbose_name": "deal search",
                "verbose_name_plural": "deal searches",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("variant", "seconds", "deal"), name="deal_search_unique"
                    )
                ],
            },
        ),
    ]
