"""``manage.py create_staff USERNAME [--email ADDRESS] [--superuser]``: an account for the
staff's admin (/admin/).

The password comes from the ``STAFF_PASSWORD`` environment variable when set (for scripts),
else from a prompt (asked twice, not echoed); Django's password validators check it. An
existing account of that name becomes staff and gets the new password.

A staff account is in the group "Staff", which may see everything the admin shows and change
the players' accounts (to deactivate one, say), but never an account's privileges nor a staff
or superuser's account (solitaire/accounts/admin.py); ``--superuser`` gives every permission
instead.
"""

import getpass
import os

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

#: The group staff accounts are put in, and the apps whose models it may see.
GROUP = "Staff"
SEEN_APPS = ["auth", "accounts", "games", "django_tasks_database", "sessions", "admin"]
#: What it may also change: a player's account (e.g. to deactivate it) and preferences.
CHANGED = ["change_user", "change_preferences"]


class Command(BaseCommand):
    help = "Create a staff account for the admin, or make an existing account staff."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--superuser", action="store_true", help="every permission, not just the staff's"
        )

    def handle(self, *args, username: str, email: str, superuser: bool, **options):
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        candidate = user or User(username=username, email=email)
        password = self.password(candidate)
        with transaction.atomic():
            created = user is None
            user = candidate
            if email:
                user.email = email
            user.is_staff = True
            user.is_active = True
            user.is_superuser = user.is_superuser or superuser
            user.set_password(password)
            user.save()
            user.groups.add(staff_group())
        what = "created" if created else "updated"
        kind = "superuser" if user.is_superuser else "staff account"
        self.stdout.write(f"{kind} {username} {what}; log in at /admin/")

    def password(self, user) -> str:
        password = os.environ.get("STAFF_PASSWORD", "")
        if not password:
            if not self.stdin_is_interactive():
                raise CommandError("set STAFF_PASSWORD, or run this in a terminal to be asked")
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                raise CommandError("the two passwords differ")
        try:
            password_validation.validate_password(password, user)
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from error
        return password

    def stdin_is_interactive(self) -> bool:
        return os.isatty(0)


def staff_group() -> Group:
    """The group "Staff" with its permissions, made or brought up to date."""
    group, _ = Group.objects.get_or_create(name=GROUP)
    permissions = Permission.objects.filter(content_type__app_label__in=SEEN_APPS).filter(
        codename__startswith="view_"
    ) | Permission.objects.filter(codename__in=CHANGED)
    group.permissions.add(*permissions)
    return group
