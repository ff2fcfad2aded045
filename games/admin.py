"""The games in the staff's admin: games (read-only, each with a replay of its log), analyses
and winnable deals. The task queue's own admin comes with django-tasks-db.

Nothing here writes a game: only ``games.services`` does. The staff read.
"""

from django.contrib import admin
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.crypto import salted_hmac
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import Analysis, Game, WinnableDeal
from .rules import Move
from .selectors.games import replayed_at


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never added or changed here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def guest_code(session_key: str | None) -> str:
    """A short code for a guest's session key: the same guest, the same code; nothing to learn
    the key from (a keyed hash, eight hex digits)."""
    return salted_hmac("games.admin.guest", session_key or "", algorithm="sha256").hexdigest()[:8]


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = [
        "public_id",
        "variant",
        "deal",
        "player",
        "status",
        "ply",
        "updated_at",
        "replay_link",
    ]
    list_filter = ["status", "variant"]
    search_fields = ["public_id", "=deal", "owner__username"]
    list_select_related = ["owner"]
    # Newest first by the primary key's index: no index holds the columns a move changes
    # (games/models.py), and the admin must not sort the whole table.
    ordering = ["-pk"]
    show_full_result_count = False
    # The redo stack and snapshot are the log's cache: the replay shows them better. A guest's
    # session key is their session cookie, which opens all their games: staff see a short
    # fingerprint of it instead, enough to tell one guest's games from another's.
    exclude = ["redo", "session_key"]
    readonly_fields = ["player", "replay_link"]

    @admin.display(description=_("player"), ordering="owner__username")
    def player(self, game: Game) -> str:
        if game.owner is not None:
            return game.owner.get_username()
        # Translators: a game played without an account, in the staff's list of games, with a
        # short code that tells one guest from another ("guest 3f9a1c2e").
        return _("guest %(code)s") % {"code": guest_code(game.session_key)}

    @admin.display(description=_("replay"))
    def replay_link(self, game: Game) -> str:
        url = reverse("admin:games_game_replay", args=[game.pk, game.ply])
        # Translators: the link to step through a game's moves, in the staff's list of games.
        return format_html('<a href="{}">{}</a>', url, _("replay"))

    def get_urls(self):
        replay = self.admin_site.admin_view(self.replay_view)
        return [
            path("<int:object_id>/replay/<int:ply>/", replay, name="games_game_replay"),
            *super().get_urls(),
        ]

    def replay_view(self, request, object_id: int, ply: int):
        """The game's position after ``ply`` moves (0: the deal) as notation text, and the
        move that led to it, with steps to the first, previous, next and last."""
        game = self.get_object(request, str(object_id))
        if game is None or not self.has_view_permission(request, game):
            raise Http404
        ply = min(ply, game.ply)
        replayed = replayed_at(game, ply)
        position = replayed.before
        if replayed.move is not None:
            position.play(Move.parse(replayed.move))
        steps = {"first": 0, "back": max(ply - 1, 0), "forward": min(ply + 1, game.ply)}
        steps["last"] = game.ply
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": game,
            "title": _("Replay of %(game)s") % {"game": game},
            "game": game,
            "ply": ply,
            "move": replayed.move or "",
            "position": position.text(),
            "steps": {
                name: reverse("admin:games_game_replay", args=[game.pk, target])
                for name, target in steps.items()
            },
        }
        return TemplateResponse(request, "admin/games/game/replay.html", context)


@admin.register(Analysis)
class AnalysisAdmin(ReadOnlyAdmin):
    list_display = ["game", "kind", "status", "ply", "nodes", "seconds", "created_at"]
    list_filter = ["status", "kind"]
    list_select_related = ["game"]
    ordering = ["-pk"]
    search_fields = ["game__public_id"]
    show_full_result_count = False


@admin.register(WinnableDeal)
class WinnableDealAdmin(ReadOnlyAdmin):
    list_display = ["variant", "deal", "found_at", "move_count"]
    list_filter = ["variant"]
    search_fields = ["=deal"]
    ordering = ["variant", "found_at"]

    @admin.display(description=_("moves"))
    def move_count(self, deal: WinnableDeal) -> int:
        return len(deal.moves)
