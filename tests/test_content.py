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

from catalogue.load import load_catalogue
from catalogue.model import MIN_CHECKS, MIN_LOOKALIKES, MIN_SOURCES, _check_url
from catalogue.templates import ascii_lower, compile_template, match_line

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples"
NEGATIVES = Path(__file__).resolve().parent / "data" / "eval-negatives.yml"

PUBLISHED = {
    "PERF-0001": ("inference-scheduler-deadlock", "An inference scheduler deadlocks under sustained load and stops issuing work"),
    "PERF-0002": ("cpu-affinity-misconfiguration", "CPU Affinity Misconfiguration"),
    "PERF-0003": ("deepspeed-zero3-sync-prefetch", "DeepSpeed ZeRO-3 Slow (Synchronous Param Prefetch)"),
    "PERF-0004": ("gpu-utilization-low", "GPU Utilization Low"),
    "PERF-0005": ("hbm-memory-failures-at-scale", "HBM3 Memory Failures on 16384-GPU Cluster During Llama 3 Training"),
    "PERF-0006": ("thermal-throttling-straggler", "Persistent Straggler Rank from Single-GPU Thermal Throttling"),
    "PERF-0007": ("torch-compile-aotautograd-hang", "torch.compile AOTAutograd Graph Compilation Timeout"),
    "PERF-0008": ("pipeline-stage-imbalance", "Uneven Pipeline Stage Partitioning as Primary Straggler Cause in LLM Training"),
    "PERF-0009": ("unsloth-moe-slow", "Unsloth Qwen3-30B-A3B MoE Fine-Tuning Extremely Slow / Low GPU Utilization"),
    "PERF-0010": ("vllm-preemption-recompute", "vLLM throughput collapses as the scheduler preempts and recomputes the same requests"),
}
CATALOGUE = load_catalogue(DOCS)
PAGES = {p.ref.id: p for p in CATALOGUE.pages}


def examples_of(slug: str) -> dict:
    path = EXAMPLES / f"{slug}.yml"
    assert path.exists(), f"{path} is missing: every reference keeps its real example lines there"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def hits(template: str, line: str) -> bool:
    return any(match_line(compile_template(template).segments, ascii_lower(part)) for part in line.splitlines())


def test_ids_slugs_and_titles_are_as_published():
    for ref_id, page in PAGES.items():
        assert ref_id in PUBLISHED, f"{ref_id} is not a published ID"
        assert (page.slug, page.ref.title) == PUBLISHED[ref_id]


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
    if len(PAGES) == len(PUBLISHED):
        assert sum(map(len, positives.values())) >= 30
