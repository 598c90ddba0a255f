"""The words the table page's script says (static/js/table.js), in the page's language:
`{% device_texts ruleset_name as texts %}{{ texts|json_script:"device-texts" }}`
(`texts.script_texts`, their one copy)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import texts

register = template.Library()


@register.simple_tag
def device_texts(ruleset: str) -> dict[str, Any]:
    return texts.script_texts(ruleset)
