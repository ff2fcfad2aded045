"""The players in the staff's admin: Django's own user pages, with each player's preferences.

Least privilege: the group "Staff" (``manage.py create_staff``) may change a player's account,
to deactivate an abusive one, say, but who may do what in the admin is for superusers alone.
For anyone else the privileges (superuser, staff, groups, permissions) are shown read-only, and
the accounts that hold any (staff and superusers) cannot be changed at all, their password
included. The admin's forms are built from the same rules the server checks on a POST, so a
hand-made form changes nothing either.
"""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from .forms import AdminLogInForm
from .models import Preferences

# The admin's log-in checks passwords through the site's throttle (views.admin_log_in).
admin.site.login_form = AdminLogInForm

#: What only a superuser may set on an account: who may do what in the admin.
PRIVILEGES = ("is_superuser", "is_staff", "groups", "user_permissions")


def may_change(actor, account) -> bool:
    """Whether ``actor``, whose model permissions already allow changing accounts, may change
    ``account`` (None: accounts in general): a superuser any, anyone else only an account
    that holds no privilege, so that nobody without every permission can raise their own
    or take over the account of someone who has them."""
    if actor.is_superuser or account is None:
        return True
    return not (account.is_staff or account.is_superuser)


class PreferencesInline(admin.StackedInline):
    model = Preferences
    can_delete = False
    extra = 0
    max_num = 1

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and may_change(request.user, obj)


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    inlines = [PreferencesInline]
    list_display = ["username", "email", "is_staff", "is_active", "date_joined", "last_login"]
    list_filter = ["is_staff", "is_superuser", "is_active"]
    ordering = ["-date_joined"]

    def get_readonly_fields(self, request, obj=None):
        # A read-only field is left out of the form Django builds: a posted value is ignored.
        readonly = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            readonly += [name for name in PRIVILEGES if name not in readonly]
        return readonly

    def has_change_permission(self, request, obj=None):
        # Django's password form asks this too: a staff or superuser's password is refused.
        return super().has_change_permission(request, obj) and may_change(request.user, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and may_change(request.user, obj)
