"""URLs of the games app."""

from django.urls import path

from . import solver_views, views

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
    path("g/<str:public_id>/", views.game, name="game"),
    path("g/<str:public_id>/record/", views.record, name="record"),
    # The replay at the deal, and at a ply: the one name reverses to either.
    path("g/<str:public_id>/replay/", views.replay, name="replay"),
    path("g/<str:public_id>/replay/<int:ply>/", views.replay, name="replay"),
    path("g/<str:public_id>/poll/", views.poll, name="poll"),
    path("g/<str:public_id>/move/", views.move, name="move"),
    path("g/<str:public_id>/to-foundation/", views.to_foundation, name="to_foundation"),
    path("g/<str:public_id>/undo/", views.undo, name="undo"),
    path("g/<str:public_id>/redo/", views.redo, name="redo"),
    path("g/<str:public_id>/restart/", views.restart, name="restart"),
    path("g/<str:public_id>/give-up/", views.give_up, name="give_up"),
    path("g/<str:public_id>/autoplay/", views.autoplay, name="autoplay"),
    path("g/<str:public_id>/hint/", solver_views.hint, name="hint"),
    path("g/<str:public_id>/analysis/", solver_views.analysis, name="analysis"),
    path("g/<str:public_id>/finish/", solver_views.finish, name="finish"),
]
