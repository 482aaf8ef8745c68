"""The project's URL map.

Each app's API joins under ``/api/<app>/`` above the catch-all; paths are fixed
by docs/architecture.md §9. The catch-all must stay last among the ``/api/`` routes:
it keeps unknown API paths answering JSON 404 even with DEBUG on.
"""

from django.contrib import admin
from django.urls import include, path, re_path

from config import errors
from config.csp import policed_urls, with_policy
from config.health import HealthView
from config.schema import SchemaDocsView, SchemaView

# The admin's pages and the API's docs page say the site's
# Content-Security-Policy as Cardroom's own pages do (config/csp.py).
admin_urls, admin_app, admin_namespace = admin.site.urls

urlpatterns = [
    path("healthz", HealthView.as_view(), name="healthz"),
    path("admin/", (policed_urls(admin_urls), admin_app, admin_namespace)),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    path(
        "api/docs/",
        with_policy(SchemaDocsView.as_view(url_name="api-schema")),
        name="api-docs",
    ),
    path("api/accounts/", include("accounts.urls")),
    path("api/stats/", include("stats.urls")),
    path("api/", include("games.urls")),
    path("api/tournaments/", include("tournaments.urls")),
    re_path(r"^api/", errors.api_not_found),
    path("", include("web.urls")),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
