from django.apps import AppConfig


class WebConfig(AppConfig):
    """Pages and static JavaScript for playing in the browser."""

    name = "web"
    verbose_name = "Web client"
