from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    """Django's user admin plus the bot fields."""

    list_display = ("username", "email", "is_staff", "is_bot", "bot_level")
    list_filter = ("is_staff", "is_superuser", "is_active", "is_bot", "bot_level")
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        ("Bot", {"fields": ("is_bot", "bot_level")}),
    )
