"""Files emitted from the catalogue: the match index, the JSON API, redirect pages.

Each function returns text or plain data; hooks.py decides where it goes. The
match index is the one the browser and the Python twin (match.py) both read.
"""

from __future__ import annotations

import json
from html import escape

from lunr import lunr

from .load import Catalogue, Page
from .model import FACETS
from .templates import CLASSES, WORD, compile_template

API_FORMAT_VERSION = 1
MATCH_INDEX_VERSION = 1
# Scoring settings live in the index so the browser and the twin cannot drift.
SCORING = {
    "message": 10,  # a matched message template, counted once per template
    "revealed_facet": 1,  # a facet keyword seen in the text
    "stated_facet": 3,  # a facet the user selected
    "context_min": 3,  # signal weight needed for strength "context"
    "weak_cap": 3,  # most that full-text similarity can add
    "weak_min": 0.5,  # full-text score below which a reference is not shown
    "checks_shown": 3,
}
LIMITS = {
    "input_cap": 10 * 1024 * 1024,  # characters; beyond it, the last part is matched
    "line_cap": 4096,  # characters of one line that are matched
    "fulltext_chars": 4000,  # the last part of the input that full-text search reads
    "fulltext_terms": 64,
}


def json_text(data) -> str:
    """Stable JSON: the same catalogue always gives the same bytes."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _plain_words(template: str) -> str:
    return " ".join(WORD.findall(template.lower()))


def match_index(catalogue: Catalogue, base_url: str = "") -> dict:
    """Everything the matcher needs, in plain JSON types."""
    refs, patterns, documents = [], [], []
    for number, page in enumerate(catalogue.published):
        ref = page.ref
        refs.append({
            "id": ref.id,
            "slug": page.slug,
            "title": ref.title,
            "url": f"{base_url}{page.url}",
            "facets": {facet: list(getattr(ref, facet)) for facet in FACETS},
            "checks": [{"id": c.id, "title": c.title} for c in ref.checks[: SCORING["checks_shown"]]],
        })
        for kind, items in (("message", ref.messages), ("signal", ref.signals)):
            for item in items:
                compiled = compile_template(item.text)
                patterns.append({
                    "ref": number,
                    "kind": kind,
                    "text": item.text,
                    "weight": SCORING["message"] if kind == "message" else item.weight,
                    **compiled.as_json(),
                })
        documents.append({
            "id": str(number),
            "title": ref.title,
            "summary": ref.summary,
            "messages": " ".join(_plain_words(m.text) for m in ref.messages),
            "signals": " ".join(_plain_words(s.text) for s in ref.signals),
        })
    # lunr cannot index nothing (it divides by the document count)
    fulltext = documents and lunr(
        ref="id",
        fields=[
            {"field_name": "title", "boost": 3},
            {"field_name": "summary", "boost": 2},
            "messages",
            "signals",
        ],
        documents=documents,
    )
    facets = {
        facet: {value: {"label": spec["label"], "keywords": list(spec.get("keywords") or [])}
                for value, spec in catalogue.facets[facet].items()}
        for facet in FACETS
    }
    return {
        "version": MATCH_INDEX_VERSION,
        "classes": CLASSES,
        "scoring": SCORING,
        "limits": LIMITS,
        "refs": refs,
        "patterns": patterns,
        "facets": facets,
        "fulltext": fulltext.serialize() if fulltext else None,
    }


def match_index_js(index: dict) -> str:
    """The index as a script, so the worker loads it with importScripts (works from file://)."""
    return f"self.__matchIndex = {json_text(index)};\n"


def api_references(catalogue: Catalogue, site_url: str) -> dict:
    base = site_url.rstrip("/") + "/"
    references = []
    for page in catalogue.pages:
        data = page.ref.model_dump(mode="json")
        data.update(slug=page.slug, url=f"{base}{page.url}", id_url=f"{base}id/{page.ref.id}/")
        references.append(data)
    return {"format_version": API_FORMAT_VERSION, "site_url": base, "references": references}


def redirect_html(target: str, canonical: str, title: str) -> str:
    """A redirect page that works without JavaScript (meta refresh) and with it.

    ``target`` is relative, so the redirect works wherever the site is served
    (a local server, a preview, file://); ``canonical`` is the absolute URL.
    """
    t = escape(target)
    return (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>Redirecting to {escape(title)}</title>\n"
        f"<link rel=\"canonical\" href=\"{escape(canonical)}\">\n"
        f"<meta name=\"robots\" content=\"noindex\">\n"
        f"<meta http-equiv=\"refresh\" content=\"0; url={t}\">\n"
        f"<script>location.replace({json.dumps(target)} + location.hash)</script>\n"
        "</head>\n<body>\n"
        f"<p>This reference lives at <a href=\"{t}\">{escape(title)}</a>.</p>\n"
        "</body>\n</html>\n"
    )


def redirects(catalogue: Catalogue, site_url: str) -> dict[str, str]:
    """Redirect pages keyed by their path in the site: /id/PERF-NNNN/ and former slugs."""
    base = site_url.rstrip("/") + "/"
    pages: dict[str, str] = {}
    for page in catalogue.pages:
        canonical = f"{base}{page.url}"
        label = f"{page.ref.id}: {page.ref.title}"
        # Both kinds of redirect page sit two folders deep: id/PERF-NNNN/, references/<alias>/.
        target = f"../../{page.url}"
        pages[f"id/{page.ref.id}/index.html"] = redirect_html(target, canonical, label)
        for alias in page.ref.aliases:
            pages[f"references/{alias}/index.html"] = redirect_html(target, canonical, label)
    return pages
