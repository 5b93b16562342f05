"""Words learned from labelled reports: how people write about each failure when they name no message.

Most reports never quote a line a failure prints, and few use the keywords of facets.yml: "GPU usage is
only 10 %", "samples/sec", "memory overflow". ``learn`` reads labelled examples (the dev sets only:
scripts/learn_words.py gathers them) and keeps, for each reference, the terms whose presence in a
report most raises the odds that the report is about it: a smoothed log-odds ratio of the share of
its reports that use the term against the share of all other reports (Bernoulli naive Bayes, one
term at a time). A term counts only when several reports from more than one source file use it, so
that one thread's words never become a rule.

The result, docs/learned-words.json, has two parts, both in tenths of a nat:

- ``symptoms``: for each triage reference, the terms of the reports of its symptom (a triage
  reference's own reports and those of the causes it routes to). A text that names no symptom in
  keywords but whose terms add up to ``SYMPTOM_MIN`` for one triage reference reaches it, with
  the words shown as evidence (match.py, result).
- ``references``: for each reference, the terms of its own reports, added to its full-text weights
  (``REFERENCE_SHARE`` of each), so the words people use rank it as its page's words do.

Terms are full-text terms (fulltext.terms: stemmed, stop words out), read from a text as the matcher
reads its full-text query (evaluate.text_terms), so both matchers read a text's terms once for both.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from . import fulltext as ft
from .model import Problem

LEARNED_FILE = "learned-words.json"
TERMS_KEPT = 20  # per reference, the highest log-odds first (30 reads the same on dev, cross-validated, for 1 KB more)
MIN_REPORTS = 3  # reports of the reference that use the term
MIN_FILES = 2  # source files they come from: one thread's words never make a rule
MIN_LOG_ODDS = 1.0  # nats: the term makes a report of this reference at least e times likelier
SMOOTHING = 1.0  # added to every count (Laplace)
# Chosen by scoring each dev file with words learned from the others (evaluate.py prints it):
SYMPTOM_MIN = 60  # tenths of a nat: a triage reference the words bring (about 1 in 10 wrong on dev)
REFERENCE_SHARE = 0.5  # of a learned weight, added to the reference's full-text weight for the term


@dataclass(frozen=True)
class Example:
    """One labelled text: where it comes from (a file: one source of wording), its terms, what fits it."""

    source: str
    terms: frozenset[str]
    fits: frozenset[str]  # reference slugs; empty for a look-alike negative or a report out of scope


def log_odds(examples: list[Example], labels: Iterable[str]) -> dict[str, dict[str, int]]:
    """For each label, its kept terms and their log-odds in tenths of a nat, highest first."""
    total = len(examples)
    used = Counter()  # term -> examples that use it
    used_by: dict[str, Counter] = defaultdict(Counter)  # label -> term -> its examples that use it
    files: dict[str, dict[str, set]] = defaultdict(lambda: defaultdict(set))  # label -> term -> source files
    positives = Counter()
    for example in examples:
        positives.update(example.fits)
        for term in example.terms:
            used[term] += 1
            for label in example.fits:
                used_by[label][term] += 1
                files[label][term].add(example.source)
    out = {}
    for label in sorted(set(labels)):
        inside, outside = positives[label], total - positives[label]
        kept = []
        for term, count in used_by[label].items():
            if count < MIN_REPORTS or len(files[label][term]) < MIN_FILES:
                continue
            rest = used[term] - count
            odds = (math.log((count + SMOOTHING) / (inside + 2 * SMOOTHING))
                    - math.log((rest + SMOOTHING) / (outside + 2 * SMOOTHING)))
            if odds >= MIN_LOG_ODDS:
                kept.append((-round(10 * odds), term))
        if kept:
            out[label] = {term: -weight for weight, term in sorted(kept)[:TERMS_KEPT]}
    return out


def learn(examples: list[Example], triage_of: dict[str, set[str]], triage: set[str]) -> dict:
    """Both parts of the learned words. ``triage_of``: for each reference, the triage references of its
    symptom (a triage reference is its own); ``triage``: the triage references' slugs."""
    by_symptom = [Example(e.source, e.terms, frozenset(h for slug in e.fits for h in triage_of.get(slug, ()))) for e in examples]
    references = sorted({slug for e in examples for slug in e.fits})
    return {
        "symptoms": log_odds(by_symptom, triage),
        "references": log_odds(examples, references),
    }


def load(docs_dir: Path | None, slugs: dict[str, str]) -> tuple[dict, list[Problem]]:
    """docs/learned-words.json, checked against the published references (``slugs``: slug -> kind).
    No file (or no ``docs_dir``): nothing learned (a catalogue of its own, as the tests build)."""
    path = docs_dir / LEARNED_FILE if docs_dir is not None else None
    if path is None or not path.exists():
        return {"symptoms": {}, "references": {}}, []
    fix = "run scripts/learn_words.py, which writes the file from the dev sets (do not edit it by hand)"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        return {"symptoms": {}, "references": {}}, [Problem(LEARNED_FILE, "(file)", f"cannot be read: {err}", fix)]
    problems = []
    for part, kinds in (("symptoms", {"triage"}), ("references", {"triage", "cause"})):
        table = data.get(part)
        if not isinstance(table, dict):
            problems.append(Problem(LEARNED_FILE, part, "is missing or not a mapping", fix))
            continue
        for slug, weights in table.items():
            where = f"{part}.{slug}"
            if slugs.get(slug) not in kinds:
                problems.append(Problem(LEARNED_FILE, where, f"is not a published {' or '.join(sorted(kinds))} reference", fix))
            elif not isinstance(weights, dict) or not all(
                    isinstance(t, str) and ft.WORD.fullmatch(t) and ft.is_term(t) and type(w) is int and w > 0 for t, w in weights.items()):
                problems.append(Problem(LEARNED_FILE, where, "is not a mapping of full-text terms to positive whole tenths", fix))
    return {"symptoms": data.get("symptoms") or {}, "references": data.get("references") or {}}, problems


def symptom_words(learned: dict, numbers: dict[str, int]) -> dict:
    """The index's form of the symptom part: term -> [reference number, weight, ...], with the threshold."""
    terms: dict[str, list[int]] = {}
    for slug in sorted(learned["symptoms"], key=numbers.__getitem__):
        for term, weight in learned["symptoms"][slug].items():
            terms.setdefault(term, []).extend((numbers[slug], weight))
    return {"min": SYMPTOM_MIN, "terms": dict(sorted(terms.items()))}


def reference_weights(learned: dict, slugs: list[str]) -> list[dict[str, int]]:
    """Per document of the full text (in ``slugs`` order), what the learned words add to its weights, in tenths."""
    return [{term: round(REFERENCE_SHARE * weight) for term, weight in learned["references"].get(slug, {}).items()}
            for slug in slugs]
