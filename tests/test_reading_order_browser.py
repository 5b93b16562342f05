"""Reference pages read in an incident's order: what to do first on the first screen, provenance folded after."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from conftest import team_tool

from perfref.site.render import ANCHORS

pytestmark = pytest.mark.browser
layout = team_tool("page_layout")

CAUSE_ORDER = ["start-here", "what-you-may-see", "real-log-examples", "context-signals", "possible-causes",
               "evidence-checks", "look-alikes", "mitigations", "what-the-sources-support", "sources"]


def test_the_first_action_is_on_the_first_screens_of_every_reference(site, catalogue, browser):
    figures = layout.measure(site, [p.slug for p in catalogue.pages], browser)
    for slug, f in figures.items():
        assert f["first"] is not None, slug
        assert f["first"] <= layout.FIRST_SCREENS_PX, (slug, f)
        assert not layout.provenance_before_action(f), (slug, f)


def section_order(html: str) -> list[str]:
    wanted = set(ANCHORS.values())
    return [a for a in re.findall(r'<h2 id="([^"]+)"', html) if a in wanted]


def test_sections_follow_the_reading_order(site, catalogue):
    for page in catalogue.pages:
        html = (site / page.url / "index.html").read_text(encoding="utf-8")
        order = section_order(html)
        if page.ref.kind == "triage":
            assert order[0] == "decision-path", (page.slug, order)
            expected = [a for a in CAUSE_ORDER if a != "start-here" and a in order]
        else:
            expected = [a for a in CAUSE_ORDER if a in order]
            first = page.ref.first_checks[0]
            assert html.index('id="start-here"') < html.index(f'id="check-{first.id}"') < html.index('id="what-you-may-see"')
        assert [a for a in order if a in expected] == expected, (page.slug, order)
        assert html.count("A match is not a diagnosis") == 1, page.slug


def test_provenance_is_folded_and_opens_on_click_and_on_a_link(watched, base_url):
    page = watched.page
    page.goto(base_url + "references/training-hang/")
    fold = page.locator("#what-the-sources-support + details")
    assert fold.evaluate("d => d.open") is False
    assert not fold.locator("summary ~ *").first.is_visible()
    fold.locator("summary").click()
    assert fold.evaluate("d => d.open") is True and fold.locator("summary ~ *").first.is_visible()

    page.goto(base_url + "references/training-hang/#what-the-sources-support")
    page.wait_for_function("() => document.querySelector('#what-the-sources-support + details').open")

    # an anchor inside a closed fold (a message's notes here): a link to it opens the fold
    page.goto(base_url + "references/training-hang/")
    # Material's bundle (instant navigation) must be running before the hash changes, or its start-up
    # can re-render the page under a loaded machine and drop the span added below
    page.wait_for_function("() => window.document$ !== undefined && document.readyState === 'complete'")
    assert page.locator("details.perf-where").first.evaluate("d => d.open") is False
    opened = "() => !!document.getElementById('inside-a-fold') && document.querySelector('details.perf-where').open"
    for _ in range(5):  # Material may re-render the page while it starts, dropping the span: add it again
        page.evaluate("""() => {
            const fold = document.querySelector('details.perf-where')
            if (!document.getElementById('inside-a-fold')) {
                const s = document.createElement('span'); s.id = 'inside-a-fold'; fold.appendChild(s)
            }
            location.hash = ''
            location.hash = '#inside-a-fold'
        }""")
        try:
            page.wait_for_function(opened, timeout=5_000)
        except PlaywrightTimeout:
            continue
        page.wait_for_timeout(300)
        if page.evaluate(opened):
            break
    else:
        pytest.fail("a link to an anchor inside a closed fold did not open the fold")
    assert watched.errors == []


def test_messages_are_one_line_each_with_their_releases_and_searchable(site, catalogue, watched, base_url):
    page = catalogue.by_slug("cuda-allocator-fragmentation")
    html = (site / page.url / "index.html").read_text(encoding="utf-8")
    items = re.findall(r'<ul class="perf-messages">(.*?)</ul>', html, re.S)[0].split("<li>")[1:]
    assert len(items) == len(page.ref.messages)
    for item, message in zip(items, page.ref.messages):
        assert 'class="perf-versions"' in item and "<details" in item
        assert item.index('class="perf-versions"') < item.index("<details")  # releases on the line, notes folded
    browser_page = watched.page
    browser_page.goto(base_url + "references/training-hang/")
    browser_page.click("input.md-search__input")
    browser_page.keyboard.type("expandable_segments")
    browser_page.wait_for_selector("li.md-search-result__item", state="attached")
    hits = browser_page.eval_on_selector_all("li.md-search-result__item > a", "els => els.map(e => e.href)")
    assert any("cuda-allocator-fragmentation" in h for h in hits)
