"""Words learned from labelled reports (perfref.learned, scripts/learn_words.py): what is kept, where it
comes from, how the build checks the file, and what the matcher does with it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DOCS, FIXTURES, copy_project, mkdocs_build, team_tool

from perfref import fulltext, learned
from perfref.load import CatalogueError, load_catalogue
from perfref.match import Matcher
from perfref.site import emit

ROOT = Path(__file__).resolve().parents[1]
ev = team_tool("evaluate")


def example(source: str, words: str, *fits: str) -> learned.Example:
    return learned.Example(source, frozenset(words.split()), frozenset(fits))


def test_a_word_that_reports_of_one_reference_share_is_kept_with_its_log_odds():
    examples = [example("a.yml", "usage gpu low", "hub"), example("a.yml", "usage gpu", "hub"),
                example("b.yml", "usage idle gpu", "hub")]
    examples += [example("c.yml", "gpu memory", "other") for _ in range(6)] + [example("d.yml", "gpu hang")]
    words = learned.log_odds(examples, ["hub", "other"])
    # 'usage': in 3 of 3 reports of hub, 0 of the 7 others: log((3+1)/(3+2)) - log((0+1)/(7+2)) = 1.97 nats
    assert words["hub"] == {"usage": 20}
    # 'gpu' is in nearly every report: it does not raise the odds; 'memory' comes from one source file only
    assert "other" not in words


def test_a_word_of_one_source_or_too_few_reports_is_not_kept():
    one_source = [example("a.yml", "zeta", "hub") for _ in range(5)] + [example("b.yml", "eta") for _ in range(5)]
    assert learned.log_odds(one_source, ["hub"]) == {}
    too_few = [example("a.yml", "zeta", "hub"), example("b.yml", "zeta", "hub")] + [example("c.yml", "eta") for _ in range(5)]
    assert learned.log_odds(too_few, ["hub"]) == {}


def test_only_the_most_telling_words_are_kept(monkeypatch):
    monkeypatch.setattr(learned, "TERMS_KEPT", 2)
    examples = [example(f"{n}.yml", "alpha beta gamma", "hub") for n in range(3)] + [example("x.yml", "beta") for _ in range(9)] \
        + [example("y.yml", "gamma")]
    assert list(learned.log_odds(examples, ["hub"])["hub"]) == ["alpha", "gamma"]  # beta is common elsewhere


def test_the_learned_file_is_what_the_dev_sets_give_now():
    result = subprocess.run([sys.executable, "scripts/learn_words.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_learning_reads_the_dev_sets_and_never_a_held_out_one():
    published = {p.slug for p in load_catalogue(DOCS).published}
    sources = {e.source for e in ev.dev_examples(published)}
    dev_files = {f"dev/{p.name}" for p in (ev.EVAL / "dev").glob("*.yml")}
    assert sources == dev_files | set(ev.DEV_SAMPLES)
    held_out = {name for name in ev.TRIAGE_SETS if name not in ev.DEV_SAMPLES} | {f"test/{p.name}" for p in (ev.EVAL / "test").glob("*.yml")}
    assert held_out and not sources & held_out


def test_cross_validation_never_scores_a_file_with_words_learned_from_it(monkeypatch):
    catalogue = load_catalogue(DOCS)
    every_source = {e.source for e in ev.dev_examples({p.slug for p in catalogue.published})}
    trained_without = []
    real = ev.learned_words

    def spy(catalogue, examples):
        trained_without.append(every_source - {e.source for e in examples})
        return real(catalogue, examples)

    monkeypatch.setattr(ev, "learned_words", spy)
    usable = [c for c in ev.load_cases("dev") if c["file"] == "first-ten.yml"]
    cases, samples = ev.cross_validated(catalogue, usable, ev.triage_hubs(catalogue), set())
    assert all(len(left_out) == 1 for left_out in trained_without)
    assert {s for left_out in trained_without for s in left_out} >= {"dev/first-ten.yml", *ev.DEV_SAMPLES}
    assert cases["positives"] == sum(bool(c.get("expect")) for c in usable) and samples["in_scope"] > 0


@pytest.mark.parametrize("content, field, says", [
    ('{"symptoms": {"no-such-page": {"hang": 30}}, "references": {}}', "symptoms.no-such-page", "is not a published triage reference"),
    ('{"symptoms": {}, "references": {"alpha-widget-stall": {"stall": 3.5}}}', "references.alpha-widget-stall", "positive whole tenths"),
    ('{"symptoms": {}, "references": {"alpha-widget-stall": {"Stall!": 3}}}', "references.alpha-widget-stall", "full-text terms"),
    ('{"symptoms": {}}', "references", "is missing"),
    ('{"symptoms": ', "(file)", "cannot be read"),
])
def test_a_broken_learned_file_fails_the_build_with_the_field_and_the_fix(tmp_path, content, field, says):
    project = copy_project(tmp_path, FIXTURES / "refs")
    (project / "docs" / learned.LEARNED_FILE).write_text(content, encoding="utf-8")
    with pytest.raises(CatalogueError) as err:
        load_catalogue(project / "docs")
    problem = next(p for p in err.value.problems if p.file == learned.LEARNED_FILE)
    assert problem.field == field and says in str(problem) and "scripts/learn_words.py" in str(problem)
    if field == "symptoms.no-such-page":
        result = mkdocs_build(project, tmp_path / "site")
        assert result.returncode != 0 and learned.LEARNED_FILE in result.stderr and "Traceback" not in result.stderr


def test_learned_weights_add_to_a_document_s_own():
    documents = [{"text": "widget stall stall stall on rank three"}] + [{"text": f"gadget {w}"} for w in ("slows", "hums", "stops", "waits")]
    plain = fulltext.build(documents, {"text": 1})
    added = fulltext.build(documents, {"text": 1}, added=[{"stall": 7, "usage": 9, "idle": fulltext.MIN_WEIGHT - 1}, {}])
    assert added["postings"]["stall"] == [0, plain["postings"]["stall"][1] + 7]
    assert added["postings"]["usage"] == [0, 9]  # a word the page never uses, only its reports
    assert "idle" not in added["postings"]  # below the least weight kept
    others = lambda postings: {t: p for t, p in postings.items() if t not in ("stall", "usage")}  # noqa: E731
    assert others(added["postings"]) == others(plain["postings"]) != {}


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(json.loads(emit.json_text(emit.match_index(load_catalogue(DOCS)))))


def test_words_its_reports_use_bring_a_triage_reference_with_the_words_as_evidence(matcher):
    preamble = "".join(f"step {n} loss 2.{n % 10}\n" for n in range(3000))  # the words are read at the end of the text
    text = preamble + "With autocast and a GradScaler, grad_norm became huge after a sudden jump at step 900\n"
    first = matcher.match(text)["results"][0]
    assert (first["slug"], first["strength"]) == ("loss-nan-or-divergence", "symptom")
    [item] = [e for e in first["evidence"] if e["kind"] == "learned"]
    assert item["line"] == 3001 and item["symptoms"] == ["nan-loss"]
    # the three heaviest of the reference's learned words in the text, as written, on the line of the heaviest
    hub = next(n for n, r in enumerate(matcher.index["refs"]) if r["slug"] == "loss-nan-or-divergence")
    weights = {term: flat[k + 1] for term, flat in matcher.index["symptom_words"]["terms"].items()
               for k in range(0, len(flat), 2) if flat[k] == hub}
    heaviest = sorted((-weights[t], t) for t in ev.text_terms(text) if t in weights)[:3]
    assert item["template"] == ", ".join(t for _, t in heaviest)
    assert item["display"].split(", ")[0] == item["text"][item["start"]:item["end"]]
    # the same words cannot bring it in a text whose keywords name a symptom
    named = matcher.match(text.replace("huge", "NaN"))["results"][0]
    assert named["slug"] == "loss-nan-or-divergence" and [e["kind"] for e in named["evidence"]] == ["named"]


def test_words_short_of_the_threshold_bring_nothing(matcher):
    index = matcher.index
    text = "With autocast and a GradScaler, grad_norm became huge after a sudden jump at step 900\n"
    higher = Matcher(dict(index, symptom_words=dict(index["symptom_words"], min=10 ** 6)))
    assert all(e["kind"] != "learned" for r in higher.match(text)["results"] for e in r["evidence"])
    assert not any(r["strength"] == "symptom" for r in higher.match(text)["results"])
