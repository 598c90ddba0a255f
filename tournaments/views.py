from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring.rules import BELGIAN


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html")


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/rules.html", {"ruleset": BELGIAN})
