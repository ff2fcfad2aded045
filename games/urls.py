"""URLs of the games app."""

from django.urls import path, register_converter

from . import solver_views, views


class GameIdConverter:
    """A game's public id: URL-safe base64 (games.models.new_public_id), 22 characters at most.

    Anything else is no game of anybody's: a 404 before the view, without a query (PostgreSQL
    refuses some characters outright, such as NUL).
    """

    regex = "[A-Za-z0-9_-]{1,22}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(GameIdConverter, "game")

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("healthz/", views.health, name="health"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
    path("new/", views.new_game, name="new"),
    path("play/<slug:variant>/<str:deal>/", views.play_deal, name="play_deal"),
    path("import/", views.import_record, name="import"),
    path("my/", views.my_games, name="my_games"),
    path("my/records.json", views.my_records, name="my_records"),
    path("my/statistics/", views.statistics, name="statistics"),
    path("my/statistics/<slug:variant>/", views.statistics, name="variant_statistics"),
    path("my/history/", views.history, name="history"),
    path("g/<game:public_id>/", views.game, name="game"),
    path("g/<game:public_id>/record/", views.record, name="record"),
    # The replay at the deal, and at a ply: the one name reverses to either.
    path("g/<game:public_id>/replay/", views.replay, name="replay"),
    path("g/<game:public_id>/replay/<int:ply>/", views.replay, name="replay"),
    path("g/<game:public_id>/poll/", views.poll, name="poll"),
    path("g/<game:public_id>/move/", views.move, name="move"),
    path("g/<game:public_id>/to-foundation/", views.to_foundation, name="to_foundation"),
    path("g/<game:public_id>/undo/", views.undo, name="undo"),
    path("g/<game:public_id>/redo/", views.redo, name="redo"),
    path("g/<game:public_id>/restart/", views.restart, name="restart"),
    path("g/<game:public_id>/give-up/", views.give_up, name="give_up"),
    path("g/<game:public_id>/autoplay/", views.autoplay, name="autoplay"),
    path("g/<game:public_id>/hint/", solver_views.hint, name="hint"),
    path("g/<game:public_id>/analysis/", solver_views.analysis, name="analysis"),
    path("g/<game:public_id>/finish/", solver_views.finish, name="finish"),
]
