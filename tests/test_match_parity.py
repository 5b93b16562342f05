"""The Python twin against the shared test vectors (tests/data/match-vectors.json).

The browser test (test_match_browser.py) holds match-worker.js to the same
vectors and to the twin's whole result objects, so the three agree.
Each vector: name, why, text, optional stated {framework, hardware, symptom},
expect (the top results in rank order: id, strength, and optionally the first
evidence's line and count), confident, and optional versus (the look-alike the
first result names as a close call).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfref.site import emit
from perfref.load import load_catalogue
from perfref.match import Matcher
from perfref.templates import pattern_segments

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
VECTORS_FILE = Path(__file__).resolve().parent / "data" / "match-vectors.json"
VECTORS = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))


def load_index() -> dict:
    """The match index exactly as the browser gets it: emitted, then through JSON."""
    return json.loads(emit.json_text(emit.match_index(load_catalogue(DOCS))))


@pytest.fixture(scope="module")
def index() -> dict:
    return load_index()


@pytest.fixture(scope="module")
def matcher(index) -> Matcher:
    return Matcher(index)


def summary(result: dict, expect: list[dict]) -> list[dict]:
    """The top results, cut to what the vector asserts (id, strength, line, count)."""
    out = []
    for want, got in zip(expect, result["results"]):
        entry = {"id": got["id"], "strength": got["strength"]}
        first = got["evidence"][0] if got["evidence"] else {}
        for key in ("line", "count"):
            if key in want:
                entry[key] = first.get(key)
        out.append(entry)
    return out


def check_vector(result: dict, vector: dict) -> None:
    expect = vector["expect"]
    assert len(result["results"]) >= len(expect), (vector["name"], result["results"])
    assert summary(result, expect) == expect, vector["why"]
    assert result["confident"] is vector["confident"], vector["why"]
    if "versus" in vector:
        assert result["results"][0].get("versus", {}).get("id") == vector["versus"], vector["why"]
    if not vector["text"]:
        assert result["results"] == []


def test_vectors_are_well_formed():
    assert len(VECTORS) >= 12
    names = [v["name"] for v in VECTORS]
    assert len(set(names)) == len(names), "vector names must be unique"
    for v in VECTORS:
        assert set(v) <= {"name", "why", "text", "stated", "expect", "confident", "versus"}, v["name"]
        assert isinstance(v["text"], str) and isinstance(v["confident"], bool)
        assert set(v.get("stated", {})) <= {"framework", "hardware", "symptom"}
        for e in v["expect"]:
            assert set(e) <= {"id", "strength", "line", "count"} and e["strength"] in ("message", "symptom", "context", "weak")


def test_vectors_name_published_references_and_facets(index):
    ids = {r["id"] for r in index["refs"]}
    for v in VECTORS:
        for e in v["expect"]:
            assert e["id"] in ids, f"{v['name']}: {e['id']} is not a published reference"
        for facet, value in v.get("stated", {}).items():
            assert not value or value in index["facets"][facet], f"{v['name']}: unknown {facet} {value!r}"


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_twin_gives_the_expected_ranking(matcher, vector):
    check_vector(matcher.match(vector["text"], vector.get("stated")), vector)


def test_every_segment_starts_with_a_literal(index):
    """templates.match_line reads seg[0]["lit"]; a placeholder right after {*} would crash it."""
    for pattern in index["patterns"]:
        for seg in pattern_segments(pattern):
            assert "lit" in seg[0], f"{pattern['text']!r}: a segment starts with a placeholder"


def test_repeated_message_is_one_piece_of_evidence(matcher):
    line = "Detected clocks event due to thermal violation in GPU 3\n"
    result = matcher.match(line * 10_000)
    top = result["results"][0]
    assert top["id"] == "PERF-0006" and top["strength"] == "message"
    messages = [e for e in top["evidence"] if e["kind"] == "message"]
    assert len(messages) == 1 and messages[0]["count"] == 10_000
    assert result["lines"] == 10_001


def test_capped_input_keeps_the_last_part_from_a_whole_line(index):
    small = dict(index, limits=dict(index["limits"], input_cap=1000))
    matcher = Matcher(small)
    filler = "filler line with nothing to see\n" * 100  # 3200 characters, 100 lines
    message = "Detected clocks event due to thermal violation in GPU 3\n"
    result = matcher.match(filler + message)
    assert result["capped"] is True
    # 3256 characters: the cut at 2256 falls inside filler line 71 (1-based), so
    # matching starts at line 72, the next whole line, and 71 lines are skipped.
    assert result["skipped_lines"] == 71
    assert result["lines"] == 30 + 1  # 29 filler lines, the message, the empty last line
    top = result["results"][0]
    assert top["id"] == "PERF-0006"
    assert top["evidence"][0]["line"] == 101


@pytest.mark.parametrize("size", [1, 7, 64, 4096])
def test_a_streamed_input_ranks_as_the_whole_text(matcher, size):
    """Read in chunks of any size (lines and CR LF cut anywhere), a log gives the whole text's result."""
    for vector in VECTORS:
        text = vector["text"]
        chunks = [text[k:k + size] for k in range(0, len(text), size)]
        assert matcher.match_stream(chunks, vector.get("stated")) == matcher.match(text, vector.get("stated")), vector["name"]


def test_a_streamed_file_has_no_cap(index):
    """A pasted text is matched in its last input_cap characters; a file, all of it, with true line numbers."""
    small = dict(index, limits=dict(index["limits"], input_cap=1000))
    matcher = Matcher(small)
    message = "Detected clocks event due to thermal violation in GPU 3\n"
    text = message + "filler line with nothing to see\n" * 100
    pasted = matcher.match(text)
    streamed = matcher.match_stream(text[k:k + 50] for k in range(0, len(text), 50))
    assert pasted["capped"] and all(r["id"] != "PERF-0006" or r["strength"] != "message" for r in pasted["results"])
    top = streamed["results"][0]
    assert not streamed["capped"] and streamed["lines"] == 102
    assert top["id"] == "PERF-0006" and top["evidence"][0]["line"] == 1


def vector_named(name: str) -> dict:
    return next(v for v in VECTORS if v["name"] == name)


def test_a_subject_says_where_it_was_named_and_which_symptom_it_sat_beside(matcher):
    text = vector_named("a cause's subject named beside its symptom: possible, after the symptom's triage reference")["text"]
    cause = next(r for r in matcher.match(text)["results"] if r["id"] == "PERF-0034")
    item = next(e for e in cause["evidence"] if e["kind"] == "subject")
    assert item["text"][item["start"]:item["end"]] == item["template"] == "dataloader"
    assert item["text"] == text.split("\n")[0]  # quoted as written, not lowered
    assert (item["line"], item["symptoms"]) == (1, ["slow-throughput"])
    assert cause["label"].startswith("Possible:")


def test_a_subject_is_read_in_the_end_of_the_text_the_full_text_reads(matcher, index):
    """Only the last ``fulltext_chars`` characters: a subject named early in a long log is not read."""
    said = "When I run the training code, the process is too slow; the time is spent on the dataloader.\n"
    filler = "step done\n" * (index["limits"]["fulltext_chars"] // 10 + 1)
    early = {r["id"]: r["strength"] for r in matcher.match(said + filler)["results"]}
    late = {r["id"]: r["strength"] for r in matcher.match(filler + said)["results"]}
    assert late["PERF-0034"] == "context"
    assert early.get("PERF-0034", "weak") == "weak"


def test_a_keyword_that_ends_with_a_star_names_every_word_that_begins_so(matcher):
    """job-interruption's cuda_error_* names CUDA_ERROR_ILLEGAL_ADDRESS and every other driver error name, as a
    whole word only, and not the name a whole keyword takes (cuda_error_out_of_memory is out of memory)."""
    def symptoms(text):
        return {r["value"] for r in matcher.match(text)["revealed"] if r["facet"] == "symptom"}
    assert symptoms("CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered\n") == {"job-interruption"}
    assert symptoms("cudaErrorMisalignedAddress\n") == {"job-interruption"}
    assert symptoms("MY_CUDA_ERROR_HANDLER installed\n") == set()  # not the start of the word
    assert symptoms("cuda_error_\n") == set()  # the start alone is no error's name
    assert symptoms("from device: CUDA_ERROR_OUT_OF_MEMORY\n") == {"out-of-memory"}
    assert symptoms("CUDA_ERROR_OUT_OF_MEMORY, then CUDA_ERROR_LAUNCH_FAILED\n") == {"out-of-memory", "job-interruption"}


def test_a_hub_that_words_bring_shows_where_they_stand(matcher):
    """A triage reference shown because the text names its symptom in words carries the first place they
    stand (kind "named": the keyword, the words as written, the line); not beside its own line's evidence,
    and never in a line that a triage reference's message explains."""
    first = matcher.match("step 10 ok\nAfter epoch 3 it hangs and nothing prints.\n")["results"][0]
    assert first["strength"] == "symptom" and first["evidence"] == [{
        "kind": "named", "template": "hangs", "display": "hangs", "line": 2, "start": 17, "end": 22,
        "text": "After epoch 3 it hangs and nothing prints.", "count": 1, "symptoms": ["hang"]}]
    line = "numba.cuda.cudadrv.driver.CudaAPIError: Call to cuMemcpyDtoH results in CUDA_ERROR_LAUNCH_FAILED\n"
    cuda = matcher.match("epoch 1\n" + line)["results"][0]
    named = [e for e in cuda["evidence"] if e["kind"] == "named"]
    assert cuda["id"] == "PERF-0027" and [(e["template"], e["display"], e["line"]) for e in named] == [
        ("cuda_error_*", "CUDA_ERROR_LAUNCH_FAILED", 2)]
    # the hub's own clue on the same line already shows it: no second item for that line
    hang = matcher.match("the training hangs after epoch 3\n")["results"][0]
    assert hang["strength"] == "symptom" and [e["kind"] for e in hang["evidence"]] == ["signal"]
    # words inside a line a triage reference's message explains belong to that message
    for result in matcher.match("[12345.678901] Out of memory: Killed process 4242 (python)\n")["results"]:
        assert all(e["kind"] != "named" for e in result["evidence"]), result["id"]
