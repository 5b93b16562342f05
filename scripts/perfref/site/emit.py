"""Files emitted from the catalogue: the match index, the JSON API, redirect pages.

Each function returns text or plain data; hooks.py decides where it goes. The
match index is the one the browser and the Python twin (match.py) both read.
"""

from __future__ import annotations

import json
from html import escape

from .. import fulltext, learned
from ..load import Catalogue, Page
from ..model import FACETS, SOFTWARE
from ..numbers import TREND_WINDOW, UNITS, parse_condition
from .render import versions_text
from ..templates import ANCHOR_MIN, CLASSES, READABLE, WORD, compile_template

API_FORMAT_VERSION = 2
MATCH_INDEX_VERSION = 6
# Scoring settings live in the index so the browser and the twin cannot drift.
SCORING = {
    "message": 10,  # a matched message template of a cause, counted once per template
    "symptom": 6,  # a matched message of a triage reference (the symptom it takes in)
    "generic_message": 2,  # a line many failures print, matched on a cause: context, not proof
    "out_of_range": 2,  # a message that the version the log shows does not print
    "described_symptom": 3,  # the text names a triage reference's symptom in words ("hangs", "OOM")
    "revealed_facet": 1,  # a facet keyword seen in the text
    "stated_facet": 3,  # a facet the user selected
    "near_symptom": 1,  # what a cause's clue adds when it comes just before a symptom line
    "context_min": 3,  # signal weight needed for strength "context" (or "symptom" on a triage reference)
    "fulltext": 4,  # what the best full-text match adds; the others in proportion
    "weak_min": 0.5,  # full-text score below which a reference is not shown
    "weak_clue": 0.5,  # the share of its clue weight a reference in the weak band keeps (its words are in its full text)
    "hub_far": 0.55,  # the closest page is a candidate cause when the hubs of the symptoms named score below this share of it
    "close": 0.8,  # runner-up within this share of the top score: show what tells them apart
    "routed": 0.5,  # a cause that a triage reference shown for the symptom routes to (names, or is named by)
    "checks_shown": 3,
}
# What each strength means, in the words the page and the CLI show.
STRENGTHS = {
    "message": "Strong: the log contains a message this failure prints",
    "symptom": "Symptom: the log shows this symptom; start here to narrow down the cause",
    "context": "Possible: the context fits",
    "weak": "Related words only",
}
LIMITS = {
    "input_cap": 10 * 1024 * 1024,  # characters; beyond it, the last part is matched
    "line_cap": 4096,  # characters of one line that are matched
    "near_lines": 20,  # a cause's clue this many lines or fewer before a symptom line is context for it
    "fulltext_chars": 8000,  # the last part of the input that full-text search reads
    "fulltext_terms": 128,
    "anchor_min": ANCHOR_MIN,  # a template's anchor is its longest clear word of this many characters or more (anchor_of)
}
# Lines that reveal which release printed a log: a lowercase needle that the text must
# hold (a plain substring test, fast on a huge log), then a regular expression that means
# the same in Python and JavaScript, run on the lowercased text; group 1 is the release.
VERSION_DETECTORS = [
    {"software": "nccl", "needle": "nccl version ", "pattern": r"\bnccl version (\d+(?:\.\d+)+)"},
    {"software": "pytorch", "needle": "pytorch version: ", "pattern": r"\bpytorch version: (\d+(?:\.\d+)+)"},
    {"software": "pytorch", "needle": "torch==", "pattern": r"\btorch==(\d+(?:\.\d+)+)"},
    {"software": "vllm", "needle": "vllm api server version ", "pattern": r"\bvllm api server version (\d+(?:\.\d+)+)"},
    {"software": "vllm", "needle": "vllm==", "pattern": r"\bvllm==(\d+(?:\.\d+)+)"},
    {"software": "nvidia-driver", "needle": "driver version: ", "pattern": r"\bdriver version: (\d+(?:\.\d+)+)"},
    {"software": "deepspeed", "needle": "deepspeed info: version=", "pattern": r"\bdeepspeed info: version=(\d+(?:\.\d+)+)"},
    {"software": "dcgm", "needle": "dcgm version", "pattern": r"\bdcgm version:? (\d+(?:\.\d+)+)"},
]


def json_text(data) -> str:
    """Stable JSON: the same catalogue always gives the same bytes."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _plain_words(template: str) -> str:
    return " ".join(WORD.findall(template.lower()))


# Full-text fields over the whole page and their boosts (BM25F, see fulltext.py).
FULLTEXT_FIELDS = {"title": 3, "summary": 2, "messages": 2, "signals": 1, "checks": 1, "body": 1, "examples": 1}
# Lines that a tool prints whatever the failure, left out of the full-text query: the
# column headers of nvidia-smi's table (its words would draw every pasted table to the
# pages about temperature, power and ECC). Lowercase substrings.
FULLTEXT_BOILERPLATE = ["persistence-m", "pwr:usage/cap", "mig m."]


def _ranges(versions) -> list[dict]:
    """The releases as the matcher reads them (what the wording watch looks for stays in the API)."""
    return [{k: v for k, v in r.model_dump(include={"software", "since", "until"}).items() if v is not None} for r in versions]


def fulltext_document(page: Page) -> dict[str, str]:
    """Every word a page knows, by field: what the matcher's full-text stage searches."""
    ref = page.ref
    return {
        "title": ref.title,
        "summary": ref.summary,
        "messages": " ".join(f"{_plain_words(m.text)} {m.where}" for m in ref.messages),
        "signals": " ".join(_plain_words(s.text) for s in ref.signals),
        "checks": " ".join(f"{c.title} {c.run} {c.confirms} {c.refutes}" for c in ref.checks),
        "body": " ".join([*page.sections.values(), *(look.tell for look in ref.lookalikes),
                          *(f"{source.title} {source.supports}" for source in ref.sources)]),
        "examples": " ".join(e.text for e in ref.examples),
    }


def match_index(catalogue: Catalogue, base_url: str = "", learned_words: dict | None = None) -> dict:
    """Everything the matcher needs, in plain JSON types. ``learned_words``: in place of the catalogue's
    (evaluate.py scores each dev file with words learned without it)."""
    learned_words = catalogue.learned if learned_words is None else learned_words
    refs, patterns, documents = [], [], []
    software = catalogue.facets.get(SOFTWARE, {})
    numbers = {page.slug: number for number, page in enumerate(catalogue.published)}
    for number, page in enumerate(catalogue.published):
        ref = page.ref
        checks = {c.id: c for c in ref.checks}
        # the causes a triage reference routes to: the published causes it names as related, or that name it
        routes = sorted(numbers[slug] for slug in {*ref.related, *page.backlinks}
                        if slug in numbers and catalogue.published[numbers[slug]].ref.kind == "cause")
        refs.append({
            "id": ref.id,
            "slug": page.slug,
            "title": ref.title,
            "kind": ref.kind,
            **({"takes_in": ref.takes_in or ref.symptom[:1], "routes": routes} if ref.kind == "triage" else {}),
            **({"subject": ref.subject} if ref.subject else {}),
            "facets": {facet: list(getattr(ref, facet)) for facet in FACETS},
            "checks": [{"id": c.id, "title": c.title} for c in ref.checks_in_reading_order[: SCORING["checks_shown"]]],
            "lookalikes": [
                {"slug": look.slug, "tell": look.tell,
                 **({"check": {"id": look.check, "title": checks[look.check].title}} if look.check else {})}
                for look in ref.lookalikes if look.slug
            ],
        })
        for kind, items in (("message", ref.messages), ("signal", ref.signals)):
            for item in items:
                compiled = compile_template(item.text)
                generic = kind == "message" and item.generic
                patterns.append({
                    "ref": number,
                    "kind": kind,
                    "text": item.text,
                    "weight": item.weight if kind == "signal" else SCORING["generic_message"] if generic else SCORING["message"],
                    **({"generic": True} if generic else {}),
                    **({"numbers": {"when": parse_condition(item.numbers.when), "says": item.numbers.says,
                                    "counts": item.numbers.counts, "over": item.numbers.over,
                                    **({"window": TREND_WINDOW} if item.numbers.over == "run" else {})}}
                       if kind == "message" and item.numbers else {}),
                    **({"versions": _ranges(item.versions), "versions_text": versions_text(item.versions, software)}
                       if item.versions else {}),
                    **compiled.as_json(),
                })
        documents.append(fulltext_document(page))
    full = fulltext.build(documents, FULLTEXT_FIELDS, sparse=("body", "checks", "examples"),
                          added=learned.reference_weights(learned_words, [page.slug for page in catalogue.published]))
    full["boilerplate"] = FULLTEXT_BOILERPLATE
    facets = {
        # a symptom is something that happens ("hangs", "stalled"); a framework or a device is a name
        facet: {value: {"label": spec["label"], "keywords": list(spec.get("keywords") or []),  # forms: templates.keywords_of
                        **({"part_of": spec["part_of"]} if spec.get("part_of") else {})}
                for value, spec in catalogue.facets[facet].items()}
        for facet in FACETS
    }
    return {
        "version": MATCH_INDEX_VERSION,
        "classes": CLASSES,
        "readable": READABLE,
        "units": UNITS,
        "scoring": SCORING,
        "strengths": STRENGTHS,
        "limits": LIMITS,
        "version_detectors": VERSION_DETECTORS,
        "software": {name: spec["label"] for name, spec in software.items()},
        "ref_url": f"{base_url}{Page.url_of('{slug}')}",  # each result's url: the slug in place of {slug}
        "refs": refs,
        "patterns": patterns,
        "facets": facets,
        "fulltext": full,
        # a triage reference that the words of a text bring when no keyword names a symptom (learned.py)
        "symptom_words": learned.symptom_words(learned_words, numbers),
    }


def match_scripts(index: dict) -> dict[str, str]:
    """The index as scripts the worker loads with importScripts (works from file://).

    The look-alike notes (what tells two references apart, and the check that does) go
    into a second script that the worker loads only when a result needs one (two close
    candidates that name each other): most pastes never do.
    """
    tells: dict[str, dict[str, dict]] = {}
    refs = []
    for ref in index["refs"]:
        tells[ref["slug"]] = {look["slug"]: {k: v for k, v in look.items() if k != "slug"} for look in ref["lookalikes"]}
        refs.append({**ref, "lookalikes": [{"slug": look["slug"]} for look in ref["lookalikes"]]})
    return {
        "assets/match-index.js": f"self.__matchIndex = {json_text({**index, 'refs': refs})};\n",
        "assets/match-tells.js": f"self.__matchTells = {json_text(tells)};\n",
    }


def api_references(catalogue: Catalogue, site_url: str) -> dict:
    base = site_url.rstrip("/") + "/"
    references = []
    for page in catalogue.listed:
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
