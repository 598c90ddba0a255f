from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring import rules


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html")


@require_GET
def rules_page(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/rules.html", {"ruleset": rules.BELGIAN})
