"""The published references: complete by the minimums, and every template matches real text.

tests/data/examples/<slug>.yml keeps, for every message template and signal of
a page, a real line with the URL where it was published; the template must
match it, and a near miss (the significant number changed) must not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import DOCS

from catalogue import manifest
from catalogue.load import load_catalogue
from catalogue.model import MIN_CHECKS, MIN_LOOKALIKES, MIN_SOURCES, _check_url
from catalogue.templates import ascii_lower, compile_template, match_line

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples"
NEGATIVES = Path(__file__).resolve().parent / "data" / "eval-negatives.yml"

CATALOGUE = load_catalogue(DOCS)
PAGES = {p.ref.id: p for p in CATALOGUE.pages}


def examples_of(slug: str) -> dict:
    path = EXAMPLES / f"{slug}.yml"
    assert path.exists(), f"{path} is missing: every reference keeps its real example lines there"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def hits(template: str, line: str) -> bool:
    return any(match_line(compile_template(template).segments, ascii_lower(part)) for part in line.splitlines())


def test_ids_slugs_and_titles_are_as_published():
    """The manifest records each ID's slug and first title; the catalogue must agree with it."""
    assert manifest.catalogue_problems(manifest.load(), CATALOGUE) == []
    recorded = manifest.load()
    for ref_id, page in PAGES.items():
        if page.ref.status != "draft":
            assert (page.slug, page.ref.title) == (recorded[ref_id]["slug"], recorded[ref_id]["title"])


@pytest.mark.parametrize("ref_id", sorted(PAGES))
def test_reference_meets_the_minimums(ref_id):
    page = PAGES[ref_id]
    ref = page.ref
    assert len(ref.checks) >= MIN_CHECKS and len(ref.lookalikes) >= MIN_LOOKALIKES and len(ref.sources) >= MIN_SOURCES
    assert ref.messages and ref.signals and ref.related, "messages, signals and related references"
    for check in ref.checks:
        assert check.run.strip() and check.confirms.strip() and check.refutes.strip()
    for source in ref.sources:
        assert _check_url(source.url) and source.publisher and source.supports
    slugs = {p.slug for p in CATALOGUE.pages}
    assert all(s in slugs for s in ref.related)
    assert all(look.slug in slugs for look in ref.lookalikes if look.slug)
    assert page.sections.get("Possible causes") and page.sections.get("Mitigations")


@pytest.mark.parametrize("ref_id", sorted(PAGES))
def test_every_template_matches_a_real_line(ref_id):
    page = PAGES[ref_id]
    data = examples_of(page.slug)
    assert data["id"] == ref_id
    for kind, items in (("messages", page.ref.messages), ("signals", page.ref.signals)):
        kept = {e["template"]: e for e in data.get(kind) or []}
        on_page = {item.text for item in items}
        assert on_page <= kept.keys(), f"{kind} without a real example: {sorted(on_page - kept.keys())}"
        assert kept.keys() <= on_page, f"examples for {kind} that the page no longer has: {sorted(kept.keys() - on_page)}"
        for template, example in kept.items():
            _check_url(example["source"])
            assert hits(template, example["example"]), f"{template!r} does not match its example {example['example']!r}"
            if example.get("near_miss"):
                assert not hits(template, example["near_miss"]), f"{template!r} matches its near miss {example['near_miss']!r}"


def test_evaluation_set_is_large_enough_and_sourced():
    positives = {ref_id: examples_of(page.slug).get("eval") or [] for ref_id, page in PAGES.items()}
    for ref_id, cases in positives.items():
        assert len(cases) >= 3, f"{ref_id} has {len(cases)} evaluation excerpts, needs 3"
        for case in cases:
            _check_url(case["source"])
            assert case["text"].strip()
    negatives = yaml.safe_load(NEGATIVES.read_text(encoding="utf-8"))["negatives"]
    assert len(negatives) >= 8
    for case in negatives:
        _check_url(case["source"])
        assert case["text"].strip()
    assert sum(map(len, positives.values())) >= 30
