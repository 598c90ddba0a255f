"""The table page's script's words (static/js/table.js), in the page's language:
`<script src="{% script_texts_url %}" defer></script>` before table.js (a static file per
language, `tournaments.texts.script_texts`, their one copy)."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.templatetags.static import static
from django.utils.translation import get_language

from tournaments.texts import script_texts_path

register = template.Library()


@register.simple_tag
def script_texts_url() -> str:
    language = get_language()
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    return static(script_texts_path(language))
