"""Accessibility in Chromium: axe-core on every kind of page in both palettes, and the
matcher and the copy-link buttons used with the keyboard alone.

axe-core comes from npm (package.json pins it; `npm ci` installs it); it is
injected into each page and must report no violation of impact "serious" or
"critical". The matcher page is scanned with results showing, and a reference
page with the search dialog open and its results listed.
"""

from __future__ import annotations

import os

import pytest
from conftest import ROOT

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
REF_PAGE = "references/vllm-preemption-recompute/"
# A real line (tests/data/examples/vllm-preemption-recompute.yml); PERF-0010 answers it.
VLLM_LINE = (
    "Sequence group 221 is preempted by PreemptionMode.RECOMPUTE mode because there is not enough KV cache space. "
    "This can affect the end-to-end performance. total_num_cumulative_preemption=101"
)
SCHEMES = {"light": "default", "dark": "slate"}  # prefers-color-scheme -> Material's scheme
PAGES = {"home": "", "catalogue": "references/", "reference": REF_PAGE, "matcher with results": "match/",
         "search dialog with results": REF_PAGE}
DONE = "#match-results[data-state=done]"

if not AXE.is_file() and not os.environ.get("CI"):  # `make test` runs npm ci first; CI must not skip
    pytest.skip("axe-core is not installed: run `npm ci`", allow_module_level=True)


def settle(page) -> None:
    """Wait for transitions and animations to end: axe measures colours as they are now."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


def serious_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"],
         "nodes": [(n["target"], n["failureSummary"]) for n in v["nodes"][:5]]}
        for v in violations if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("scheme", list(SCHEMES))
@pytest.mark.parametrize("kind", list(PAGES))
def test_axe_finds_nothing_serious(browser, base_url, kind, scheme):
    context = browser.new_context(color_scheme=scheme, bypass_csp=True)  # axe-core is injected inline
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url + PAGES[kind])
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == SCHEMES[scheme]
    if kind == "matcher with results":
        page.wait_for_selector("#match-framework option:nth-child(2)", state="attached")
        page.fill("#match-input", VLLM_LINE)
        page.wait_for_selector(DONE + " article[data-ref-id=PERF-0010]", state="attached")
    if kind == "search dialog with results":
        page.click("input.md-search__input")
        page.keyboard.type("preemption")
        page.wait_for_selector("li.md-search-result__item")
    settle(page)
    found = serious_violations(page)
    assert found == [], found
    assert errors == []
    context.close()


def focused(page) -> dict:
    return page.evaluate(
        """() => { const e = document.activeElement; return {tag: e.tagName, id: e.id,
             format: e.getAttribute('data-copy-format'), inResults: !!e.closest('#match-results'),
             href: e.getAttribute('href') || ''} }"""
    )


def tab_until(page, wanted, limit: int = 80, shift: bool = False) -> dict:
    """Press Tab until ``wanted(focused element)`` holds; fail after ``limit`` presses."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if shift else "Tab")
        now = focused(page)
        if wanted(now):
            return now
    raise AssertionError(f"not reached in {limit} Tab presses; focus is on {focused(page)}")


def test_matcher_by_keyboard_alone(watched, base_url):
    page = watched.page
    page.goto(base_url + "match/")
    page.wait_for_selector("#match-framework option:nth-child(2)", state="attached")

    # the paste box is in the tab order; Clear (Space) empties it and gives focus back
    tab_until(page, lambda f: f["id"] == "match-input")
    page.keyboard.type("hello")
    for expected in ("match-framework", "match-hardware", "match-symptom", "match-versions", "match-clear"):
        page.keyboard.press("Tab")
        assert focused(page)["id"] == expected
    page.keyboard.press("Space")
    assert focused(page)["id"] == "match-input"
    assert page.input_value("#match-input") == ""

    # typing matches; a context select changes with the arrow keys
    page.keyboard.type(VLLM_LINE)
    page.wait_for_selector(DONE + " article[data-ref-id=PERF-0010]", state="attached")
    page.keyboard.press("Tab")
    assert focused(page)["id"] == "match-framework"
    page.keyboard.press("ArrowDown")
    chosen = page.input_value("#match-framework")
    assert chosen != ""
    page.wait_for_selector(DONE, state="attached")
    assert page.locator("#match-results article").count() >= 1

    # the file input is reachable too, then the result links; Enter follows one
    link = tab_until(page, lambda f: f["inResults"] and f["tag"] == "A", limit=15)
    assert "vllm-preemption-recompute" in link["href"]
    page.keyboard.press("Enter")
    page.wait_for_url("**/references/vllm-preemption-recompute/**")
    assert "vLLM throughput collapses" in page.text_content("h1")
    assert watched.errors == []


def copied_text(page, base_url: str, fmt: str) -> str:
    """A button's text as copied: a local build's links name the served address (copy-link.js)."""
    text = page.get_attribute(f"button[data-copy-format={fmt}]", "data-copy-text")
    rebase = page.get_attribute(".perf-cite", "data-rebase")
    return text.replace(rebase, base_url) if rebase else text


def test_copy_link_buttons_by_keyboard(watched, base_url):
    page = watched.page
    page.goto(base_url + REF_PAGE)
    buttons = page.eval_on_selector_all("button[data-copy-format]", "els => els.map(e => e.getAttribute('data-copy-format'))")
    assert len(buttons) >= 2
    first = tab_until(page, lambda f: f["format"] is not None)
    assert first["format"] == buttons[0]
    status = page.locator(".perf-cite__status")

    page.keyboard.press("Enter")
    page.wait_for_function("() => /Copied/.test(document.querySelector('.perf-cite__status').textContent)")
    want = copied_text(page, base_url, buttons[0])
    assert page.evaluate("navigator.clipboard.readText()") == want
    assert focused(page)["format"] == buttons[0]  # focus stays on the button
    assert status.get_attribute("role") == "status" or status.get_attribute("aria-live")

    page.keyboard.press("Tab")
    assert focused(page)["format"] == buttons[1]
    page.keyboard.press("Space")
    label = page.text_content(f"button[data-copy-format={buttons[1]}]")
    page.wait_for_function("label => document.querySelector('.perf-cite__status').textContent === 'Copied the ' + label + ' link.'", arg=label)
    want = copied_text(page, base_url, buttons[1])
    assert page.evaluate("navigator.clipboard.readText()") == want
    assert watched.errors == []


def test_focus_is_visible_on_our_controls(browser, base_url):
    """A keyboard user sees where focus is: each control draws an outline when tabbed to."""
    for scheme in SCHEMES:
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        page.goto(base_url + REF_PAGE)
        tab_until(page, lambda f: f["format"] is not None)
        ring = page.evaluate("() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth, s.backgroundColor] }")
        assert ring[0] != "none" and ring[1] != "0px", (scheme, ring)
        page.goto(base_url + "match/")
        tab_until(page, lambda f: f["id"] == "match-input")
        for _ in range(4):
            page.keyboard.press("Tab")
            style = page.evaluate("() => { const s = getComputedStyle(document.activeElement); return [document.activeElement.id, s.outlineStyle, s.outlineWidth] }")
            assert style[1] != "none" and style[2] != "0px", (scheme, style)
        context.close()
