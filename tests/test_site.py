"""The built site against its data: every page where it belongs, lists exact, nothing leaked."""

from __future__ import annotations

import html
import json
import re

from perfref.model import FACETS
from perfref.site.render import ANCHORS, CAVEAT
from perfref.templates import readable


def read(site, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8") if not path.endswith((".json", ".html")) else (site / path).read_text(encoding="utf-8")


def ids_listed(page_html: str) -> list[str]:
    return re.findall(r'data-ref-id="(PERF-\d{4})"', page_html)


def test_at_least_two_references_exist(catalogue):
    assert len(catalogue.published) >= 2


def test_every_reference_is_at_its_slug(site, catalogue):
    for page in catalogue.pages:
        body = read(site, f"references/{page.slug}")
        assert f"<h1" in body and html.escape(page.ref.title, quote=False) in body
        assert page.ref.id in body


def test_catalogue_lists_exactly_the_references(site, catalogue):
    body = read(site, "references")
    listed = re.findall(r'<li class="perf-card" data-ref-id="(PERF-\d{4})"', body)
    assert listed == [p.ref.id for p in catalogue.listed]
    for page in catalogue.listed:
        for facet in FACETS:
            assert f'data-{facet}="{" ".join(getattr(page.ref, facet))}"' in body


def test_facet_pages_list_exactly_their_references(site, catalogue):
    for facet in FACETS:
        for value in catalogue.facets[facet]:
            body = read(site, f"facets/{facet}/{value}")
            content = body[body.index("<article"):body.index("</article>")]
            listed = re.findall(r"(PERF-\d{4}):", content)
            expected = [p.ref.id for p in catalogue.listed if value in getattr(p.ref, facet)]
            assert listed == expected, (facet, value)


def test_related_references_link_both_ways(site, catalogue):
    for page in catalogue.pages:
        for slug in page.ref.related:
            other = read(site, f"references/{slug}")
            related_section = other[other.index('id="related"'):]
            assert f'href="../{page.slug}/"' in related_section, f"{slug} does not link back to {page.slug}"


def test_every_reference_page_has_its_sections_and_caveat(site, catalogue):
    for page in catalogue.pages:
        body = read(site, f"references/{page.slug}")
        for name in ("What you may see", "Other clues", "Possible causes", "Evidence checks", "Look-alikes", "Mitigations", "Sources"):
            assert f'id="{ANCHORS[name]}"' in body, (page.slug, name)
        for check in page.ref.checks:
            assert f'id="check-{check.id}"' in body
        assert CAVEAT in html.unescape(body)
        assert page.ref.reviewed.isoformat() in body


def test_no_template_residue_and_log_text_survives(site, catalogue):
    for path in ["", "references", "contributing", "facets", "match"] + [f"references/{p.slug}" for p in catalogue.pages]:
        body = read(site, path)
        text = re.sub(r"<(pre|code)\b.*?</\1>", "", body, flags=re.S)  # quoted logs may hold braces
        for residue in ("{{ ", "{%", "Macro Syntax Error", "Macro Rendering Error"):
            assert residue not in text, (path, residue)
    for page in catalogue.pages:
        body = html.unescape(re.sub(r"<[^>]+>", "", read(site, f"references/{page.slug}")))
        for check in page.ref.checks:
            for line in check.run.splitlines():
                assert line.strip() in body, (page.slug, line)
        for message in page.ref.messages:
            assert readable(message.text) in body, (page.slug, message.text)  # placeholders in words


def test_search_index_covers_references(site, catalogue):
    index = json.loads((site / "search/search_index.json").read_text())
    locations = {doc["location"] for doc in index["docs"]}
    for page in catalogue.pages:
        assert f"references/{page.slug}/" in locations


def test_no_page_references_another_origin(site):
    allowed = re.compile(r"^(https?://127\.0\.0\.1:8000/|#|\.|/|mailto:|data:)")
    for path in site.rglob("*.html"):
        body = path.read_text(encoding="utf-8")
        for tag, attr, url in re.findall(r"<(script|link|img|iframe|source|video|audio)\b[^>]*?\b(src|href)=\"([^\"]+)\"", body):
            if tag == "link" and re.search(rf'<link[^>]*rel="(canonical|alternate)"[^>]*href="{re.escape(url)}"', body):
                continue
            assert allowed.match(url) or not re.match(r"^[a-z]+:", url), f"{path}: <{tag} {attr}={url}>"
