"""The account pages' URLs, under account/ (solitaire/urls.py).

No namespace: Django's auth views and templates reverse these names (``login``,
``password_reset_done``, ...) as they are.
"""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import looks, views

urlpatterns = [
    path("", views.account, name="account"),
    path("name/", views.public_name, name="public_name"),
    path("signup/", views.sign_up, name="signup"),
    path("login/", views.LogIn.as_view(), name="login"),
    path("logout/", views.LogOut.as_view(), name="logout"),
    path("delete/", views.delete_account, name="delete_account"),
    path("looks/", looks.choose, name="looks"),
    path("password/", views.PasswordChange.as_view(), name="password_change"),
    path("reset/", views.PasswordReset.as_view(), name="password_reset"),
    path("reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "reset/<uidb64>/<token>/",
        views.PasswordResetConfirm.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
