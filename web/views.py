from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what Cardroom is and where to go next."""
    return render(request, "web/home.html")
