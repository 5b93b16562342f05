"""The published references: complete by the minimums, and every template matches real text.

tests/data/examples/<slug>.yml keeps, for every message template and signal of
a page, a real line with the URL where it was published; the template must
match it, and a near miss (the significant number changed) must not.
"""

from __future__ import annotations

from pathlib import Path

import json
import re
import subprocess
from html import escape

import pytest
import yaml
from conftest import DOCS, team_tool

from perfref import manifest
from perfref.site import render
from perfref.load import load_catalogue
from perfref.model import MIN_CHECKS, MIN_LOOKALIKES, MIN_SOURCES, _check_url
from perfref.templates import ascii_lower, compile_template, match_line

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples"

SLUG_FORM = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
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
def test_checks_are_shell_commands(ref_id):
    """Each check's run is what a reader pastes into a shell: bash must parse it."""
    for check in PAGES[ref_id].ref.checks:
        parsed = subprocess.run(["bash", "-n"], input=check.run, capture_output=True, text=True)
        assert parsed.returncode == 0, f"{check.id}: {parsed.stderr.strip()}"


@pytest.mark.parametrize("ref_id", sorted(PAGES))
def test_versions_and_examples_are_shown(ref_id):
    """Every message carries a version range (the model demands it) and the built page shows it."""
    page = PAGES[ref_id]
    markdown = render.reference_markdown(page, CATALOGUE, "http://127.0.0.1:8000/")
    software = CATALOGUE.facets["software"]
    for message in page.ref.messages:
        assert message.versions
        assert escape(render.versions_text(message.versions, software)) in markdown
    assert page.ref.examples and "## What it looks like in a real log" in markdown
    for example in page.ref.examples:
        assert example.url in markdown


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


EVAL = Path(__file__).resolve().parent / "data" / "eval"


def eval_cases(name: str) -> list[dict]:
    return [c for path in sorted((EVAL / name).glob("*.yml")) for c in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]]


def cited_urls() -> set[str]:
    """Every URL a page cites (sources, examples, look-alikes) or keeps as a template's example line."""
    urls = set()
    for page in CATALOGUE.pages:
        ref = page.ref
        urls |= {s.url for s in ref.sources} | {e.url for e in ref.examples} | {l.url for l in ref.lookalikes if l.url}
        data = examples_of(page.slug)
        urls |= {e["source"] for kind in ("messages", "signals") for e in data.get(kind) or []}
    return {u.rstrip("/").split("#")[0] for u in urls}


@pytest.mark.parametrize("name", ["dev", "test"])
def test_evaluation_cases_are_real_labelled_and_uncited(name):
    cases = eval_cases(name)
    assert len(cases) >= 30, f"the {name} set has {len(cases)} cases"
    slugs = {p.slug for p in CATALOGUE.pages}
    cited = cited_urls()
    names = [c["name"] for c in cases]
    assert len(set(names)) == len(names), "case names must be unique within a set"
    for case in cases:
        assert set(case) <= {"name", "source", "expect", "also", "why", "text"}, case["name"]
        _check_url(case["source"])
        assert case["text"].strip(), case["name"]
        assert case.get("expect") is None or SLUG_FORM.match(case["expect"]), case["name"]
        if name == "test":
            # held-out text comes from pages the references do not cite
            assert case["source"].rstrip("/").split("#")[0] not in cited, f"{case['name']}: its source is cited by a page"
    negatives = [c for c in cases if not c.get("expect")]
    assert len(negatives) >= 8, f"the {name} set has {len(negatives)} negatives"
    assert {c["expect"] for c in cases if c.get("expect")} & slugs


def triage_reports(name: str) -> list[dict]:
    return yaml.safe_load((EVAL / f"{name}.yml").read_text(encoding="utf-8"))["reports"]


HELD_OUT_SAMPLES = [name for name in ("triage-test", "triage-fresh-2", "triage-fresh-3", "triage-fresh-6", "triage-fresh-7", "triage-fresh-9", "triage-fresh-10", "triage-fresh-11") if (EVAL / f"{name}.yml").exists()]


@pytest.mark.parametrize("name", HELD_OUT_SAMPLES)
def test_held_out_triage_sample_is_uncited_and_new(name):
    """A held-out sample of failure reports: no page cites a report in it, and none is in the other sets."""
    reports = triage_reports(name)
    assert len(reports) >= 60
    cited = cited_urls()
    assert [r["source"] for r in reports if r["source"].rstrip("/").split("#")[0] in cited] == []
    others = [n for n in (*team_tool("evaluate").DEV_SAMPLES, *HELD_OUT_SAMPLES) if n != name]
    seen = {r["source"].rstrip("/") for n in others for r in triage_reports(n)} | {
        c["source"].rstrip("/") for set_name in ("dev", "test") for c in eval_cases(set_name)}
    assert [r["source"] for r in reports if r["source"].rstrip("/") in seen] == []


def test_accuracy_interval_is_wilsons():
    """The 95 % interval printed beside top-1 (evaluate.interval): the textbook Wilson bounds."""
    evaluate = team_tool("evaluate")
    assert evaluate.interval(0.5, 100) == [0.404, 0.596]
    assert evaluate.interval(1.0, 20) == [0.839, 1.0]
    wide, narrow = evaluate.interval(0.8, 50), evaluate.interval(0.8, 500)
    assert wide[0] < narrow[0] < 0.8 < narrow[1] < wide[1]
    assert evaluate.interval(0.0, 0) is None


def test_published_accuracy_is_the_current_one():
    """docs/evaluation.json (the Performance page's accuracy figures) is what evaluate.py measures now."""
    evaluate = team_tool("evaluate")
    recorded = json.loads(evaluate.RECORD.read_text(encoding="utf-8"))
    assert recorded == json.loads(json.dumps(evaluate.summary(evaluate.evaluate()))), \
        "the matcher or the references changed: run scripts/evaluate.py --record"


def test_benchmark_logs_quote_dev_files_only():
    """scripts/bench.py's logs quote a fixed list of dev files: each exists and none is held out."""
    files = team_tool("bench").LOG_EXCERPT_FILES
    assert files and len(set(files)) == len(files)
    assert [name for name in files if not (EVAL / "dev" / f"{name}.yml").exists()] == []


def test_dev_and_test_sets_do_not_share_a_source():
    dev = {c["source"].rstrip("/") for c in eval_cases("dev")}
    test = {c["source"].rstrip("/") for c in eval_cases("test")}
    assert not dev & test, sorted(dev & test)


def test_every_cause_is_reached_from_a_triage_reference():
    """Each cause page shows the triage reference of its symptom (a back-link at least), and each
    triage reference routes only to pages that exist, with a decision path."""
    triage = [p for p in CATALOGUE.published if p.ref.kind == "triage"]
    assert triage, "the catalogue has no triage reference"
    for page in CATALOGUE.published:
        if page.ref.kind == "cause":
            hubs = [t.slug for t in triage if page.slug in t.ref.related or t.slug in page.ref.related]
            assert hubs, f"{page.ref.id} is not reached from any triage reference"
            markdown = render.reference_markdown(page, CATALOGUE, "http://127.0.0.1:8000/")
            assert any(f"({slug}.md)" in markdown for slug in hubs), f"{page.ref.id} does not link to its triage reference"
    for hub in triage:
        assert hub.sections.get("Decision path"), hub.ref.id
        assert set(hub.ref.takes_in or hub.ref.symptom[:1]) <= set(hub.ref.symptom)


def test_the_wording_watch_record_loads_and_names_existing_pages():
    """docs/wording-checks.json (scripts/wording_watch.py --record): what the pages show beside each wording."""
    from perfref import wording_checks

    record = wording_checks.load(DOCS)
    assert record is not None, "run scripts/wording_watch.py --record and commit docs/wording-checks.json"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", record["date"])
    software = CATALOGUE.facets["software"]
    for name, info in record["software"].items():
        assert name in software and software[name].get("pypi"), name
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", info["date"]) and info["releases"], name
    assert record["wordings"]
    for entry in record["wordings"]:
        assert entry["id"] in PAGES, f"{entry['id']}: no such page"
        assert entry["software"] in record["software"], entry
        assert entry["kind"] in ("message", "signal") and entry["status"] in wording_checks.STATUSES, entry
        assert entry["template"] and entry["release"], entry
