"""The public pages' URLs, under a language prefix (solitaire/urls.py: ``/fr/rules/maria/``), so
that a shared link opens in its language: the home page and its pictures of the games' tables
(the cards' letters are the language's), the rules of each game and the link
that deals a numbered deal."""

from django.urls import path

from .web import pages, winnability

app_name = "pages"
urlpatterns = [
    path("", pages.home, name="home"),
    path("pictures/<slug:variant>.png", pages.picture, name="picture"),
    path("rules/<slug:variant>/", pages.rules, name="rules"),
    path("rules/<slug:variant>/winnability/", winnability.winnability_page, name="winnability"),
    path("play/<slug:variant>/<str:deal>/", pages.open_deal, name="play_deal"),
]
