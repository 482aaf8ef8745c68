"""The project's own configuration of Django's apps."""

from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    """Django's admin, on Cardroom's site (``accounts.admin_site.AdminSite``:
    its "Change password" page ends what the old password opened)."""

    default_site = "accounts.admin_site.AdminSite"
