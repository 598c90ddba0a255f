"""The pages write htmx's attributes as `data-hx-*`, which HTML allows (the Nu HTML checker
refuses `hx-*`): `scripts/data_hx.py` rewrites them and finds nothing left to rewrite."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def data_hx():
    spec = importlib.util.spec_from_file_location("data_hx", ROOT / "scripts" / "data_hx.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_file_writes_or_reads_a_bare_hx_attribute():
    script = data_hx()
    left = {
        str(path.relative_to(ROOT))
        for path in script.files()
        if script.rewritten(path.read_text(encoding="utf-8")) != path.read_text(encoding="utf-8")
    }
    assert left == set(), sorted(left)


def test_the_rewrite_is_idempotent_and_leaves_headers_and_classes_alone():
    rewritten = data_hx().rewritten
    html = (
        '<form hx-post="/x" hx-swap="outerHTML" data-hx-target="#a" class="htmx-request">'
        '<a hx-on:click="go()">'
    )
    once = rewritten(html)
    assert once == (
        '<form data-hx-post="/x" data-hx-swap="outerHTML" data-hx-target="#a" '
        'class="htmx-request"><a data-hx-on:click="go()">'
    )
    assert rewritten(once) == once
    assert rewritten('headers.get("hx-request")') == 'headers.get("hx-request")'
    assert rewritten('removeAttribute("hx-post"); q("[hx-get]")') == (
        'removeAttribute("data-hx-post"); q("[data-hx-get]")'
    )
