"""The players in the staff's admin: Django's own user pages, with each player's preferences."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from .models import Preferences


class PreferencesInline(admin.StackedInline):
    model = Preferences
    can_delete = False
    extra = 0
    max_num = 1


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    inlines = [PreferencesInline]
    list_display = ["username", "email", "is_staff", "is_active", "date_joined", "last_login"]
    list_filter = ["is_staff", "is_superuser", "is_active"]
    ordering = ["-date_joined"]
