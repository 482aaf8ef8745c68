"""``/api/accounts/``: docs/architecture.md §9."""

from django.urls import path

from accounts import apis

app_name = "accounts"

urlpatterns = [
    path("register/", apis.RegisterApi.as_view(), name="register"),
    path("token/", apis.TokenApi.as_view(), name="token"),
    path("me/", apis.MeApi.as_view(), name="me"),
    path("login/", apis.LoginApi.as_view(), name="login"),
    path("logout/", apis.LogoutApi.as_view(), name="logout"),
    path("password/", apis.PasswordApi.as_view(), name="password"),
]
