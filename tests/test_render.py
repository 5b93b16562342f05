"""What a reference page shows of the wording watch's record (docs/wording-checks.json), on a fixture record."""

from __future__ import annotations

import re
from html import escape

import pytest

from perfref.site import render

SITE = "http://127.0.0.1:8000/"


def _items(markdown: str) -> list[str]:
    """The <li> of the "What you may see" list, in order."""
    listed = markdown.split('<ul class="perf-messages">', 1)[1].split("</ul>", 1)[0]
    return re.findall(r"<li>.*?</li>", listed)


def _page_with(catalogue, pypi: bool, at_least: int = 1):
    """A page with ``at_least`` messages whose first range names software on PyPI (or not)."""
    software = catalogue.facets["software"]
    for page in catalogue.pages:
        chosen = [m for m in page.ref.messages if bool(software[m.versions[0].software].get("pypi")) == pypi]
        if len(chosen) >= at_least:
            return page, chosen
    pytest.skip("no page of that kind")


def _record(entries: list[tuple[str, str, str, str]]) -> dict:
    """A fixture record: (page ID, template, software, status), all read in release 9.9.9 on 2030-01-02."""
    return {"date": "2030-01-02",
            "software": {sw: {"date": "2030-01-02", "releases": [f"{sw}-wheel 9.9.9"]} for _, _, sw, _ in entries},
            "wordings": [{"id": i, "kind": "message", "template": t, "software": sw, "release": f"{sw}-wheel 9.9.9",
                          "status": status, "detail": status} for i, t, sw, status in entries]}


def test_a_wording_with_an_entry_shows_the_release_and_one_without_says_not_checked(catalogue):
    page, (first, second, *_) = _page_with(catalogue, pypi=True, at_least=2)
    sw = first.versions[0].software
    record = _record([(page.ref.id, first.text, sw, "found")])
    items = _items(render.reference_markdown(page, catalogue, SITE, record=record))
    by_text = {m.text: item for m, item in zip(page.ref.messages, items)}
    assert f"checked in {sw}-wheel 9.9.9 on 2030-01-02: found" in by_text[first.text]
    assert "not checked by the wording watch" in by_text[second.text]
    assert "checked in" not in by_text[second.text].replace("not checked", "")
    markdown = render.reference_markdown(page, catalogue, SITE, record=record)
    assert escape(f"Wordings checked against the newest releases on 2030-01-02: {sw}-wheel 9.9.9.") in markdown


def test_a_changed_template_is_not_shown_as_found(catalogue):
    """Entries belong to a wording by page ID and template text: an edited template has none."""
    page, (first, *_) = _page_with(catalogue, pypi=True)
    sw = first.versions[0].software
    record = _record([(page.ref.id, first.text + " (as the template read before)", sw, "found")])
    item = _items(render.reference_markdown(page, catalogue, SITE, record=record))[page.ref.messages.index(first)]
    assert "found" not in item.split("perf-checked", 1)[1].split("</span>", 1)[0]
    assert "not checked by the wording watch: written or reworded after its run of 2030-01-02" in item


def test_software_not_on_pypi_says_why(catalogue):
    page, (first, *_) = _page_with(catalogue, pypi=False)
    label = catalogue.facets["software"][first.versions[0].software].get("label", first.versions[0].software)
    item = _items(render.reference_markdown(page, catalogue, SITE, record=_record([])))[page.ref.messages.index(first)]
    assert escape(f"not checked by the wording watch: {label} is not published on PyPI") in item


def test_without_a_record_nothing_claims_a_check(catalogue):
    page, _ = _page_with(catalogue, pypi=True)
    markdown = render.reference_markdown(page, catalogue, SITE)
    assert "checked in " not in markdown
    assert "No wording on this page was checked by the wording watch" in markdown


def test_an_absent_wording_says_it_was_not_found(catalogue):
    page, (first, *_) = _page_with(catalogue, pypi=True)
    sw = first.versions[0].software
    item = _items(render.reference_markdown(page, catalogue, SITE, record=_record([(page.ref.id, first.text, sw, "absent")])))
    text = item[page.ref.messages.index(first)]
    closed = any(v.until for v in first.versions if v.software == sw)
    assert f"checked in {sw}-wheel 9.9.9 on 2030-01-02: " + ("not found" if closed else "absent (not found") in text
