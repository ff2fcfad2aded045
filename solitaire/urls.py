"""The site's URLs."""

from django.urls import include, path

urlpatterns = [
    path("", include("games.urls")),
]
