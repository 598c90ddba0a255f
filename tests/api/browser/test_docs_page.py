"""The API's interactive docs page (Swagger UI) in Chromium, under the site's
Content-Security-Policy: it draws every operation and breaks none of the policy."""

from __future__ import annotations

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from api.v1 import api

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.mark.django_db(transaction=True)
def test_the_docs_page_draws_every_operation_within_the_policy(live_server, page: Page):
    problems: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or message.type == "error":
            problems.append(message.text)

    page.add_init_script(LISTEN)
    page.on("console", console)
    page.on("pageerror", lambda error: problems.append(str(error)))
    outside: list[str] = []
    page.on(
        "request",
        lambda request: (
            None
            if request.url.startswith(live_server.url) or request.url.startswith("data:")
            else outside.append(request.url)
        ),
    )
    response = page.goto(f"{live_server.url}/api/v1/docs")
    assert response is not None and response.status == 200
    operations = len(api.get_openapi_schema()["paths"])
    expect(page.locator(".opblock")).to_have_count(operations)
    # Open one: its parameters and responses are drawn from the description.
    page.locator(".opblock-summary").first.click()
    expect(page.locator(".parameters").first).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("window.__violations") == []
    assert problems == []
    assert outside == []
