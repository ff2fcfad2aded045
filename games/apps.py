"""The games app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # The hot path's reader checks at start-up that it can read every column of Game.
        # The accounts announce a guest becoming a player and a player leaving; the games
        # come along or go with them.
        from solitaire.accounts import signals

        from . import store  # noqa: F401
        from .services import players

        signals.guest_became_player.connect(players.guest_became_player)
        signals.player_leaving.connect(players.player_leaving)
