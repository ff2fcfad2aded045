"""URLs of the games app."""

from datetime import date

from django.urls import path, register_converter

from .web import assist, daily, health, history, pages, play, records, share


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


class DayConverter:
    """A day as ``YYYY-MM-DD``; a date that does not exist (2026-02-30) matches no URL."""

    regex = "[0-9]{4}-[0-9]{2}-[0-9]{2}"

    def to_python(self, value: str) -> date:
        return date.fromisoformat(value)

    def to_url(self, value: date) -> str:
        return value.isoformat()


class TokenConverter:
    """A shared link's token: URL-safe base64 (games.models.new_share_token), 32 at most."""

    regex = "[A-Za-z0-9_-]{1,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(GameIdConverter, "game")
register_converter(DayConverter, "day")
register_converter(TokenConverter, "token")

app_name = "games"
urlpatterns = [
    path("healthz/", pages.health, name="health"),
    # For the load balancer: this server can serve players (the database, the cache, the
    # task queue).
    path("readyz/", health.ready, name="ready"),
    path("new/", pages.new_game, name="new"),
    path("import/", records.import_record, name="import"),
    path("my/", history.my_games, name="my_games"),
    path("my/records.json", records.my_records, name="my_records"),
    path("my/statistics/", history.statistics, name="statistics"),
    path("my/statistics/<slug:variant>/", history.statistics, name="variant_statistics"),
    path("my/history/", history.history, name="history"),
    path("daily/", daily.today, name="daily"),
    path("daily/<slug:variant>/", daily.open_today, name="daily_play"),
    path("daily/<slug:variant>/<day:day>/", daily.day_page, name="daily_day"),
    path("daily/<slug:variant>/<day:day>/play/", daily.open_day, name="daily_play_day"),
    path("daily/<slug:variant>/<int:year>-<int:month>/", daily.month_page, name="daily_month"),
    path("g/<game:public_id>/", play.game, name="game"),
    path("g/<game:public_id>/record/", records.record, name="record"),
    # The replay at the deal, and at a ply: the one name reverses to either.
    path("g/<game:public_id>/replay/", history.replay, name="replay"),
    path("g/<game:public_id>/replay/<int:ply>/", history.replay, name="replay"),
    path("g/<game:public_id>/poll/", play.poll, name="poll"),
    path("g/<game:public_id>/move/", play.move, name="move"),
    path("g/<game:public_id>/to-foundation/", play.to_foundation, name="to_foundation"),
    path("g/<game:public_id>/undo/", play.undo, name="undo"),
    path("g/<game:public_id>/redo/", play.redo, name="redo"),
    path("g/<game:public_id>/restart/", play.restart, name="restart"),
    path("g/<game:public_id>/give-up/", play.give_up, name="give_up"),
    path("g/<game:public_id>/autoplay/", play.autoplay, name="autoplay"),
    path("g/<game:public_id>/share/", share.share, name="share"),
    path("s/<token:token>/", share.shared, name="shared"),
    path("s/<token:token>/<int:ply>/", share.shared, name="shared_at"),
    path("s/<token:token>/board.png", share.shared_image, name="shared_image"),
    path("s/<token:token>/withdraw/", share.withdraw, name="withdraw_share"),
    path("g/<game:public_id>/hint/", assist.hint, name="hint"),
    path("g/<game:public_id>/analysis/", assist.analysis, name="analysis"),
    path("g/<game:public_id>/finish/", assist.finish, name="finish"),
]
