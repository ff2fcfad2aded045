"""The games app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # The hot path's reader checks at start-up that it can read every column of Game.
        from . import store  # noqa: F401
