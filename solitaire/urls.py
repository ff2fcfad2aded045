"""The site's URLs: the games, and the account pages."""

from django.urls import include, path

urlpatterns = [
    path("", include("games.urls")),
    path("account/", include("solitaire.accounts.urls")),
]
