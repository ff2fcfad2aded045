"""The site's URLs: the games, and the account pages."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import accounts

urlpatterns = [
    path("", include("games.urls")),
    path("account/", accounts.account, name="account"),
    path("account/signup/", accounts.sign_up, name="signup"),
    path("account/login/", accounts.LogIn.as_view(), name="login"),
    path("account/logout/", accounts.LogOut.as_view(), name="logout"),
    path("account/delete/", accounts.delete_account, name="delete_account"),
    path("account/password/", accounts.PasswordChange.as_view(), name="password_change"),
    path("account/reset/", accounts.PasswordReset.as_view(), name="password_reset"),
    path(
        "account/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "account/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirm.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "account/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
