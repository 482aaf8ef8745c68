"""Browser pages (the lobby, tables and replays join here)."""

from django.urls import path

from web import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
]
