"""Browsing in Chromium: catalogue filters and their URL, search on code-like tokens,
the dark-mode toggle, no console errors and no request off the site's origin."""

from __future__ import annotations

import json
import re

import pytest
from perfref.site import render

pytestmark = pytest.mark.browser

# Code-like tokens that Material's default search cannot find (anchors.md B2.4).
SEARCH_TOKENS = ["torch._dynamo", "NCCL_DEBUG", "Invalidate trace cache", "PreemptionMode.RECOMPUTE", "Xid 79", "--max-num-seqs"]


def visible_ids(page) -> list[str]:
    return page.eval_on_selector_all("#catalogue-list > li:not([hidden])", "els => els.map(e => e.dataset.refId)")


def test_catalogue_filters_combine_and_live_in_the_url(watched, base_url, catalogue):
    page = watched.page
    page.goto(base_url + "references/")
    page.wait_for_selector("#catalogue-filters:not([hidden])")
    assert visible_ids(page) == [p.ref.id for p in catalogue.listed]

    # pick the most common framework, then narrow by one of its symptoms
    frameworks = {}
    for p in catalogue.listed:
        for value in p.ref.framework:
            frameworks.setdefault(value, []).append(p)
    framework, members = max(frameworks.items(), key=lambda kv: (len(kv[1]), kv[0]))
    page.select_option("select[data-facet=framework]", framework)
    assert visible_ids(page) == [p.ref.id for p in members]
    assert f"framework={framework}" in page.url

    symptom = members[0].ref.symptom[0]
    page.select_option("select[data-facet=symptom]", symptom)
    expected = [p.ref.id for p in members if symptom in p.ref.symptom]
    assert visible_ids(page) == expected
    assert f"symptom={symptom}" in page.url

    # the filtered view can be linked: a fresh load of the URL restores it
    linked = page.url
    page.goto(base_url)
    page.goto(linked)
    page.wait_for_selector("#catalogue-filters:not([hidden])")
    assert visible_ids(page) == expected
    assert page.input_value("select[data-facet=framework]") == framework
    assert watched.errors == []
    assert watched.foreign_requests() == []


def test_catalogue_without_javascript_is_a_plain_list(browser, base_url, catalogue):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(base_url + "references/")
    assert page.is_hidden("#catalogue-filters")
    assert len(visible_ids(page)) == len(catalogue.listed)
    context.close()


def search(page, query: str) -> list[str]:
    page.click("input.md-search__input")  # in the header at desktop width
    page.fill("input.md-search__input", "")
    page.keyboard.type(query)  # Material listens for key events, not for fill()
    page.wait_for_function(
        "() => { const m = document.querySelector('.md-search-result__meta'); return m && !/Initializing|Type to start/i.test(m.textContent) }"
    )
    # results follow each key, and on a loaded machine an earlier prefix's answer ("PERF-000") can still
    # be on screen: take the list once it has stayed the same for a while
    read = lambda: page.eval_on_selector_all("li.md-search-result__item > a", "els => els.map(e => e.getAttribute('href'))")  # noqa: E731
    hrefs, stable = read(), 0
    for _ in range(40):
        page.wait_for_timeout(250)
        again = read()
        stable = stable + 1 if again == hrefs else 0
        hrefs = again
        if stable >= 4:
            break
    page.keyboard.press("Escape")
    return hrefs


def pages_containing(site, token: str) -> set[str]:
    index = json.loads((site / "search/search_index.json").read_text())
    needle = token.lower()
    return {doc["location"].split("#")[0] for doc in index["docs"] if needle in (doc["title"] + " " + doc["text"]).lower()}


@pytest.mark.parametrize("token", SEARCH_TOKENS)
def test_search_finds_code_like_tokens(watched, base_url, site, token):
    expected = pages_containing(site, token)
    expected.discard("")  # the home page can quote tokens too, but it is not the answer
    if not expected:
        pytest.fail(f"no page of the site contains {token!r}: the content should")
    page = watched.page
    page.goto(base_url)
    hrefs = search(page, token)
    found = {re.sub(r"[?#].*$", "", h.removeprefix(base_url)) for h in hrefs}
    assert found & expected, f"{token!r}: results {sorted(found)[:8]} miss every page that has it: {sorted(expected)}"
    assert watched.errors == []


def test_dark_mode_toggle(watched, base_url):
    page = watched.page
    page.goto(base_url)
    before = page.get_attribute("body", "data-md-color-scheme")
    page.click("form[data-md-component=palette] label:not([hidden])")
    page.wait_for_function(f"() => document.body.getAttribute('data-md-color-scheme') !== '{before}'")
    after = page.get_attribute("body", "data-md-color-scheme")
    assert {before, after} == {"default", "slate"}
    page.reload()
    assert page.get_attribute("body", "data-md-color-scheme") == after  # remembered


@pytest.mark.parametrize("path", ["", "references/", "facets/", "contributing/", "match/"])
def test_pages_load_cleanly_and_stay_on_origin(watched, base_url, path):
    page = watched.page
    page.goto(base_url + path)
    page.wait_for_load_state("networkidle")
    assert watched.errors == []
    assert watched.foreign_requests() == []


def test_reference_pages_load_cleanly_under_instant_navigation(watched, base_url, catalogue):
    page = watched.page
    page.goto(base_url + "references/")
    first = catalogue.pages[0]
    page.click(f"#catalogue-list a.perf-card__title[href$='references/{first.slug}/']")  # instant navigation makes hrefs absolute
    page.wait_for_url(f"**/references/{first.slug}/")
    page.wait_for_selector("button[data-copy-format=markdown]")
    page.go_back()
    page.wait_for_selector("#catalogue-filters:not([hidden])")  # scripts re-bound after navigation
    assert watched.errors == []
    assert watched.foreign_requests() == []


def owners(catalogue, token: str) -> set[str]:
    """The pages whose ID or config-key signals are ``token`` (what search_tags gives them)."""
    return {f"references/{p.slug}/" for p in catalogue.published
            if token.lower() in (t.lower() for t in render.search_tags(p))}


@pytest.mark.parametrize("query, tag", [
    ("PERF-0003", "PERF-0003"),
    ("perf-3", "0003"),
    ("PERF-0010", "PERF-0010"),
    ("gpu_memory_utilization", "gpu_memory_utilization"),
    ("--max-num-seqs", "max_num_seqs"),
])
def test_search_puts_the_owner_of_an_id_or_config_key_first(watched, base_url, catalogue, query, tag):
    wanted = owners(catalogue, tag)
    assert wanted, f"no reference owns {tag!r}"
    page = watched.page
    page.goto(base_url)
    hrefs = search(page, query)
    first = re.sub(r"[?#].*$", "", hrefs[0].removeprefix(base_url)) if hrefs else None
    assert first in wanted, f"{query!r}: first result {first}, wanted one of {sorted(wanted)}"
    assert watched.errors == []
