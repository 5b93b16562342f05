"""The matcher's ranking rules, on a small synthetic catalogue, in the Python twin and in Chromium.

The fixture references (tests/fixtures/refs) get what each rule needs: a generic
line, a triage reference, a look-alike with the check that separates it, and a
message with a version range. Each scenario asserts the behaviour in match.py,
and the browser test asserts that match-worker.js returns the same objects.
"""

from __future__ import annotations

import json
import shutil

import pytest
import yaml
from conftest import DOCS, FIXTURES

from perfref import fulltext
from perfref.site import emit
from perfref.load import load_catalogue, split_front_matter
from perfref.match import Matcher
from perfref.templates import keywords_of

HUB = {
    "id": "PERF-9003",
    "title": "Widgets time out",
    "summary": "A synthetic symptom that many widget failures share.",
    "kind": "triage",
    "symptom": ["timeout"],
    "hardware": ["nvidia-gpu"],
    "framework": ["pytorch"],
    "messages": [{"text": "Widget watchdog timed out after {n} ms", "where": "synthetic test fixture",
                  "versions": [{"software": "pytorch", "since": "2.0"}]},
                 {"text": "Widget queue abandoned after {n} retries", "where": "synthetic test fixture",
                  "versions": [{"software": "pytorch"}]}],
    "signals": [{"text": "widgets time out", "kind": "phrase", "weight": 3}],
    "checks": [{"id": f"step-{n}", "title": f"Step {n}", "run": f"echo {n}", "confirms": "a", "refutes": "b"} for n in (1, 2, 3)],
    "lookalikes": [{"slug": "alpha-widget-stall", "tell": "alpha names the stalled step"},
                   {"slug": "beta-gadget-slow", "tell": "beta keeps going, slowly"}],
    "related": ["alpha-widget-stall", "beta-gadget-slow"],
    "examples": [{"title": "A synthetic excerpt", "url": "https://widgets.test/excerpt", "text": "made up"}],
    "sources": [{"title": f"Source {n}", "url": f"https://widgets.test/{n}", "publisher": "Example",
                 "date": "2024", "supports": "a fact"} for n in (1, 2, 3)],
    "reviewed": "2026-12-03",
}
HUB_BODY = "\n## Decision path\n\n1. Run step 1.\n\n## Possible causes\n\n1. Alpha.\n\n## Mitigations\n\nNone.\n"

SCENARIOS = {
    "a generic line on a cause is context, and the triage reference takes it as its symptom": (
        "Widget watchdog timed out after 1800000 ms\n",
        [("PERF-9003", "symptom"), ("PERF-9001", "weak")],
    ),
    "several failures in one paste: the cause ranks above the symptom it explains": (
        "Alpha widget stalled at step 12 on rank r3\nWidget watchdog timed out after 1800000 ms\n",
        [("PERF-9001", "message"), ("PERF-9003", "symptom")],
    ),
    "a release the log shows that cannot print the wording counts for less": (
        "NCCL INFO NCCL version 2.18.1+cuda12.1\nAlpha widget stalled at step 12 on rank r3\n",
        [("PERF-9001", "context")],  # no longer a message match; still the closest page to a text that names its symptom
    ),
    "a release inside the range keeps the message strong": (
        "NCCL INFO NCCL version 2.21.5+cuda12.4\nAlpha widget stalled at step 12 on rank r3\n",
        [("PERF-9001", "message")],
    ),
    "two close causes: the first says what tells them apart": (
        "Alpha widget stalled at step 1 on rank r0\nBeta gadget slowed to 3 items per second\n",
        None,  # both messages; their order depends on the full text
    ),
    "a typed description of the symptom": (
        "my widgets time out every night",
        [("PERF-9003", "symptom")],
    ),
    "a text that names a symptom but is far closer to a cause page: the cause is a candidate, right after the symptom": (
        "the alpha stalls rank r3 step 12 first reading other reading xid synthetic failure stalled external look-alike something else second check then it timed out",
        [("PERF-9003", "symptom"), ("PERF-9001", "context")],  # nothing of its own in the text: words only
    ),
    "the same text with a message of the symptom's own: the symptom keeps the lead": (
        "Widget queue abandoned after 3 retries\nthe alpha stalls rank r3 step 12 first reading other reading xid synthetic failure stalled external look-alike something else second check then it timed out",
        [("PERF-9003", "symptom"), ("PERF-9001", "weak")],
    ),
    "a text far closer to a cause page, beside enough of the symptom's own clues to show it: the symptom keeps the lead": (
        "widgets time out\nthe alpha stalls rank r3 step 12 first reading other reading xid synthetic failure stalled "
        "external look-alike something else second check then it timed out; id, hex and debug",
        [("PERF-9003", "symptom"), ("PERF-9001", "weak")],
    ),
    "the same text without the symptom's clue: the cause is a candidate, right after the symptom": (
        "widgets go slow\nthe alpha stalls rank r3 step 12 first reading other reading xid synthetic failure stalled "
        "external look-alike something else second check then it timed out; id, hex and debug",
        [("PERF-9003", "symptom"), ("PERF-9001", "context")],
    ),
    "a text far closer to a cause page that shows a clue of its own: the cause is a candidate above the hub of another symptom": (
        "alpha saving widgets; the first reading, the other reading, an external look-alike; then it timed out",
        [("PERF-9001", "context"), ("PERF-9003", "symptom")],
    ),
    "the same text without the cause's clue: the hub of the symptom it names leads": (
        "saving widgets; the first reading, the other reading, an external look-alike; then it timed out",
        [("PERF-9003", "symptom"), ("PERF-9001", "weak")],
    ),
    "a cause's clue just before the symptom line: the cause is a candidate above the symptom": (
        "alpha saving widgets now\nWidget watchdog timed out after 1800000 ms\n",
        [("PERF-9001", "context"), ("PERF-9003", "symptom")],
    ),
    "the same clue far before the symptom line: the symptom leads": (
        "alpha saving widgets now\n" + "".join(f"step {n} done\n" for n in range(25)) + "Widget watchdog timed out after 1800000 ms\n",
        [("PERF-9003", "symptom"), ("PERF-9001", "weak")],
    ),
    "unrelated text: no confident match": (
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)",
        [],
    ),
    "a lone clue short of context: its page stays in the weak band, below the closest page": (
        "alpha saving widgets; gadget items per second slowed",
        # the closest page shares the symptom named ("slowed"), which no hub takes in, but shows nothing
        # of its own: a few shared words, no context
        [("PERF-9002", "weak"), ("PERF-9001", "weak")],
    ),
    "a typed symptom with words of its causes: the hub, then the causes it routes to": (
        "my widgets time out every night; stalled step, items per second",
        [("PERF-9003", "symptom"), ("PERF-9001", "weak"), ("PERF-9002", "weak")],
    ),
}


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> dict:
    docs = tmp_path_factory.mktemp("docs")
    shutil.copy(DOCS / "facets.yml", docs / "facets.yml")
    refs = docs / "references"
    shutil.copytree(FIXTURES / "refs", refs)

    def edit(name, change):
        path = refs / name
        data, body = split_front_matter(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text("---\n" + yaml.safe_dump(data, sort_keys=False) + "---\n" + body, encoding="utf-8")

    def alpha(d):
        d["messages"][0]["versions"] = [{"software": "nccl", "since": "2.20.0"}]
        d["messages"].append({"text": "Widget watchdog timed out after {n} ms", "where": "synthetic", "generic": True,
                              "versions": [{"software": "pytorch", "since": "2.0"}]})
        d["signals"].append({"text": "alpha saving widgets", "kind": "phrase", "weight": 2})

    edit("alpha-widget-stall.md", alpha)
    edit("beta-gadget-slow.md", lambda d: d["lookalikes"][0].update(check="second-check"))
    edit("alpha-widget-stall.md", lambda d: d["lookalikes"][0].update(check="second-check"))
    (refs / "gamma-widgets-time-out.md").write_text(
        "---\n" + yaml.safe_dump(HUB, sort_keys=False) + "---\n" + HUB_BODY, encoding="utf-8")
    # the fixture's pages are a few lines each, so each of their words weighs little: keep every one,
    # as the scenarios read the words a text shares with them (the real index leaves out the lightest)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fulltext, "MIN_WEIGHT", 1)
        return json.loads(emit.json_text(emit.match_index(load_catalogue(docs))))


@pytest.fixture(scope="module")
def twin(index) -> Matcher:
    return Matcher(index)


def ranked(result: dict) -> list[tuple[str, str]]:
    return [(r["id"], r["strength"]) for r in result["results"]]


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(twin, name):
    text, expect = SCENARIOS[name]
    result = twin.match(text)
    if expect is None:
        expect = [("PERF-9001", "message"), ("PERF-9002", "message")]
        assert sorted(ranked(result)[:2]) == expect, ranked(result)
    else:
        assert ranked(result)[: len(expect)] == expect, ranked(result)
    assert result["confident"] is any(s != "weak" for _, s in expect)
    for r in result["results"]:
        assert r["label"] == twin.index["strengths"][r["strength"]]


def test_generic_line_is_marked_and_weighs_less(twin):
    result = twin.match(SCENARIOS["a generic line on a cause is context, and the triage reference takes it as its symptom"][0])
    alpha = next(r for r in result["results"] if r["id"] == "PERF-9001")
    assert alpha["evidence"][0]["generic"] is True
    assert alpha["score"] < result["results"][0]["score"]
    assert result["results"][0]["label"].startswith("Symptom:")


def test_a_clue_near_the_symptom_says_which_line_it_explains(twin):
    near = twin.match(SCENARIOS["a cause's clue just before the symptom line: the cause is a candidate above the symptom"][0])
    clue = next(e for e in near["results"][0]["evidence"] if e["kind"] == "signal")
    assert (clue["line"], clue["near"]) == (1, 2)
    far = twin.match(SCENARIOS["the same clue far before the symptom line: the symptom leads"][0])
    alpha = next(r for r in far["results"] if r["id"] == "PERF-9001")
    assert all("near" not in e for e in alpha["evidence"])


def test_version_note_names_the_release(twin):
    result = twin.match(SCENARIOS["a release the log shows that cannot print the wording counts for less"][0])
    assert result["versions"] == [{"software": "nccl", "version": "2.18.1", "line": 1}]
    evidence = result["results"][0]["evidence"][0]
    assert evidence["versions"] == "NCCL ≥ 2.20.0"
    assert evidence["version_note"] == "the log shows NCCL 2.18.1, which does not print this wording"


def test_a_stated_release_counts_before_the_logs(twin):
    text = SCENARIOS["a release inside the range keeps the message strong"][0]  # the log shows NCCL 2.21.5
    said = twin.match(text, versions={"nccl": "2.19.3"})
    assert ranked(said)[0] == ("PERF-9001", "context")  # counts for less: no longer a message match
    assert said["results"][0]["evidence"][0]["version_note"] == "you run NCCL 2.19.3, which does not print this wording"
    assert said["versions"] == [{"software": "nccl", "version": "2.19.3", "line": None}]
    assert ranked(twin.match(text, versions={"nccl": "2.22.3"}))[0] == ("PERF-9001", "message")


def test_close_call_says_what_tells_them_apart(twin):
    result = twin.match(SCENARIOS["two close causes: the first says what tells them apart"][0])
    first, second = result["results"][:2]
    versus = first["versus"]
    assert versus["id"] == second["id"] and versus["from"] == first["id"]  # the first page's own look-alike note
    assert versus["tell"] == "beta is slow, alpha stops"
    assert versus["check"] == {"id": "second-check", "title": "Second check",
                               "url": f"{first['url']}#check-second-check"}
    # a clear winner gets no such note
    clear = twin.match("Alpha widget stalled at step 1 on rank r0\nALPHA_WIDGET_DEBUG=1\nBeta gadget slowed to 3 items per second")
    assert "versus" not in clear["results"][0] or clear["results"][1]["score"] >= 0.8 * clear["results"][0]["score"]


@pytest.mark.browser
def test_browser_worker_ranks_the_scenarios_as_the_twin(twin, index, watched, base_url):
    page = watched.page
    page.goto(base_url + "match/")
    page.wait_for_function("typeof window.__Matcher === 'function' || !!document.querySelector('script[data-worker]')")
    got = page.evaluate(
        """async ([index, texts]) => {
          const script = document.querySelector("script[data-worker]")
          if (typeof self.__Matcher !== "function") {
            await new Promise((done, fail) => {
              const s = document.createElement("script")
              s.src = new URL(script.getAttribute("data-worker"), location.href).href
              s.onload = done; s.onerror = fail
              document.head.appendChild(s)
            })
          }
          const matcher = new self.__Matcher(index)
          return texts.map(t => matcher.match(t, {})).concat([matcher.match(texts[3], {}, {nccl: "2.19.3"})])
        }""",
        [index, [text for text, _ in SCENARIOS.values()]],
    )
    texts = [text for text, _ in SCENARIOS.values()]
    for text, result in zip(texts, got):
        assert result == json.loads(json.dumps(twin.match(text))), text
    assert got[-1] == json.loads(json.dumps(twin.match(texts[3], versions={"nccl": "2.19.3"})))
    assert watched.errors == []


def test_keywords_also_match_their_ing_and_ed_forms():
    """A symptom's English words also name it in their -ing and -ed forms; a framework's name is not a verb."""
    spec = {"keywords": ["slow", "freeze", "oom", "hanging", "diverged", "卡住", "out of memory", "cuda_error_*"]}
    assert keywords_of("symptom", spec) == [
        "slow", "freeze", "oom", "hanging", "diverged", "卡住", "out of memory", "cuda_error_*",
        "slowing", "slowed", "freezing", "freezed"]
    assert keywords_of("framework", {"keywords": ["unsloth"]}) == ["unsloth"]


def test_a_hub_shown_for_the_symptom_lifts_the_causes_it_routes_to(index):
    hub = next(r for r in index["refs"] if r["id"] == "PERF-9003")
    assert sorted(index["refs"][n]["id"] for n in hub["routes"]) == ["PERF-9001", "PERF-9002"]
    assert all("routes" not in r for r in index["refs"] if r["kind"] != "triage")
    text = SCENARIOS["a typed symptom with words of its causes: the hub, then the causes it routes to"][0]
    lifted = Matcher(index).match(text)["results"]
    plain = Matcher(dict(index, scoring=dict(index["scoring"], routed=0))).match(text)["results"]
    assert lifted[0]["id"] == "PERF-9003" and lifted[0]["strength"] == "symptom"
    before = {r["id"]: r["score"] for r in plain}
    assert [r["id"] for r in lifted[1:]] == ["PERF-9001", "PERF-9002"]
    for r in lifted[1:]:
        assert r["score"] == round(before[r["id"]] + index["scoring"]["routed"], 3), r["id"]
    # with no hub shown, nothing is lifted
    alone = "stalled step, items per second"
    assert Matcher(index).match(alone)["results"] == Matcher(dict(index, scoring=dict(index["scoring"], routed=0))).match(alone)["results"]


def test_a_clue_short_of_context_counts_for_a_share_in_the_weak_band(index):
    text = SCENARIOS["a lone clue short of context: its page stays in the weak band, below the closest page"][0]
    half = {r["id"]: r for r in Matcher(index).match(text)["results"]}
    whole = {r["id"]: r for r in Matcher(dict(index, scoring=dict(index["scoring"], weak_clue=1))).match(text)["results"]}
    assert half["PERF-9001"]["strength"] == "weak" and half["PERF-9001"]["evidence"][0]["kind"] == "signal"
    assert whole["PERF-9001"]["score"] - half["PERF-9001"]["score"] == pytest.approx((1 - index["scoring"]["weak_clue"]) * 2)
    assert half["PERF-9002"]["strength"] == "weak" and half["PERF-9002"]["score"] == whole["PERF-9002"]["score"]
