"""The template compiler and the line matcher: safe patterns, significant numbers, linear work."""

from __future__ import annotations

import random
import re

import pytest

from perfref.templates import (CLASSES, StepCounter, TemplateError, anchor_of, compile_template, index_anchor, match_line,
                               pattern_segments, to_regex)


def matches(template: str, line: str):
    return match_line(compile_template(template).segments, line.lower())


@pytest.mark.parametrize(
    "template, line, span",
    [
        ("Sequence group {id} is preempted by PreemptionMode.RECOMPUTE mode",
         "WARNING 08-20 10:18:39 scheduler.py:1141] Sequence group 147 is preempted by PreemptionMode.RECOMPUTE mode because",
         (42, 106)),
        ("Running: {n} reqs, Waiting: {n} reqs", "Running: 0 reqs,\tWaiting:  6 reqs", (0, 33)),
        ("GPU KV cache usage: {n}%", "GPU KV cache usage: 99.0%, CPU", (0, 25)),
        ("NVRM: Xid (PCI:{id}): 79, pid={*}GPU has fallen off the bus", "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.", (0, 91)),
        ("literal {{braces}} stay", "literal {braces} stay", (0, 21)),
    ],
)
def test_matches_real_shapes(template, line, span):
    assert matches(template, line) == span


def test_a_final_full_stop_is_optional_but_an_ellipsis_is_not():
    """People quote a message inline without its full stop ("... `NET/IB : No device found` and ...")."""
    assert matches("NET/IB : No device found.", "NCCL INFO NET/IB : No device found.") is not None
    assert matches("NET/IB : No device found.", "I get `NCCL INFO NET/IB : No device found` and") is not None
    assert matches("waiting...", "still waiting.") is None


def test_numbers_written_literally_stay_significant():
    template = "NVRM: Xid (PCI:{id}): 79, pid={n}"
    assert matches(template, "NVRM: Xid (PCI:0000:3b:00): 79, pid=123")
    assert matches(template, "NVRM: Xid (PCI:0000:3b:00): 63, pid=123") is None
    assert matches(template, "NVRM: Xid (PCI:0000:3b:00): 790, pid=123") is None


def test_case_and_whitespace_tolerance():
    assert matches("Invalidate trace cache", "INVALIDATE   TRACE\tcache @ step 3")
    assert matches("Invalidate trace cache", "Invalidatetrace cache") is None


def test_the_space_after_a_colon_may_be_lost():
    """People retype "CUDA error:out of memory"; elsewhere a space stays required."""
    assert matches("CUDA error: out of memory", "RuntimeError: CUDA error:out of memory")
    assert matches("CUDA error: out of memory", "RuntimeError: CUDA error:  out of memory")
    assert matches("CUDA error: out of memory", "RuntimeError: CUDA error: out ofmemory") is None
    pattern = re.compile(to_regex(compile_template("CUDA error: out of memory").segments))
    assert pattern.search("cuda error:out of memory") and not pattern.search("cuda error: outof memory")


def test_placeholders_are_bounded():
    assert matches("widget {n} done", "widget " + "1" * 40 + " done")
    assert matches("widget {n} done", "widget " + "1" * 41 + " done") is None
    assert matches("value {hex} seen", "value 0xDEADbeef seen")
    assert matches("value {hex} seen", "value deadbeef seen") is None


@pytest.mark.parametrize(
    "template, words",
    [
        ("nothing {bogus} here", "unknown placeholder {bogus}"),
        ("{n} widgets stalled", "starts with a placeholder"),
        ("widget {n}{id} stalled", "touch"),
        ("alpha beta {*} {n} gamma", "{*} is followed by another placeholder"),
        ("Xid {n}", "no word of 4 or more"),
        ("abc{n}defg", "no word of 4 or more"),  # 'defg' touches the placeholder
        ("  ", "empty"),
        ("naïve text", "printable ASCII"),
    ],
)
def test_unsafe_or_unclear_templates_are_refused(template, words):
    with pytest.raises(TemplateError, match=re.escape(words)):
        compile_template(template)


def test_anchor_is_the_longest_free_word():
    assert compile_template("Sequence group {id} is preempted by PreemptionMode.RECOMPUTE").anchor == "preemptionmode"
    assert compile_template("abcdefghij{n} stalled now").anchor == "stalled"
    # a word next to {*} could run on into whatever {*} matches: it is no anchor
    assert compile_template("abcdefghij stall{*}ed widget now").anchor == "abcdefghij"
    assert compile_template("ab stalled{*}abcdefghij widget").anchor == "widget"


def test_the_index_leaves_the_segments_to_the_text_and_the_anchor_to_the_segments():
    """A match index pattern carries its template's text; both matchers compile it (pattern_segments,
    match-worker.js's templateSegments) and find the anchor with anchor_of (anchorOf)."""
    template = "Watchdog caught collective operation timeout: WorkNCCL(SeqNum={n}"
    compiled = compile_template(template)
    assert compiled.as_json() == {}
    assert pattern_segments({"text": template}) == compiled.segments
    assert index_anchor({"text": template}) == anchor_of(compiled.segments) == compiled.anchor == "collective"
    # a template that ends with {*}: its last word touches a placeholder the segments do not show
    open_ended = compile_template("Compiled graph abcdefghij{*}")
    assert open_ended.as_json() == {"anchor": "compiled"}
    assert anchor_of(open_ended.segments) == "abcdefghij"
    assert index_anchor({"text": "Compiled graph abcdefghij{*}", **open_ended.as_json()}) == "compiled"


# ---- The matcher agrees with the equivalent regular expression ----

ALPHABET = "ab01 :_-.x\t"


@pytest.mark.parametrize("template", [
    "abab {n} ba", "a:b {id} xbab", "b.a {hex}, 0aaa", "x {path} :abab", "ab_0 {n}.{id} b", "ab{*}ba {n} abba",
])
def test_matcher_agrees_with_its_regex(template):
    compiled = compile_template(template)
    pattern = re.compile(to_regex(compiled.segments))
    rng = random.Random(7)
    agreed = 0
    for _ in range(3000):
        line = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 30)))
        # plant the template's literal text sometimes, so matches happen
        if rng.random() < 0.5:
            line += template.replace("{n}", "12").replace("{id}", "a.b").replace("{hex}", "0x1f").replace("{path}", "/p").replace("{*}", "zz")
        ours = match_line(compiled.segments, line) is not None
        theirs = pattern.search(line) is not None
        assert ours == theirs, (template, line)
        agreed += ours
    assert agreed > 100  # the test exercised real matches


# ---- Linear by construction: bounded work on adversarial input ----


def _near_miss(compiled) -> str:
    """The template's own first segment, repeated, each copy spoiled at its last character."""
    seg_text = "".join(part.get("lit", "1") for part in compiled.segments[0])
    return (seg_text[:-1] + "\x00") * 2000


@pytest.mark.parametrize("template", [
    "Sequence group {id} is preempted by PreemptionMode.RECOMPUTE mode",
    "Running: {n} reqs, Waiting: {n} reqs, GPU KV cache usage: {n}%",
    "aaaa aaaa {*} aaaa aaaa {*} aaaa aaab",
    "File {path}, line {n}, in {id}",
    "xid {hex} aaaa {id} aaaa {n} aaaa",
])
def test_work_is_linear_in_the_input(template):
    compiled = compile_template(template)
    # the most one start position can cost: every literal, every class at its bound
    per_start = sum(len(p["lit"]) if "lit" in p else CLASSES[p["class"]]["max"] + 3 for seg in compiled.segments for p in seg)
    for line in (_near_miss(compiled), "a" * 8000, "aaaa " * 1600, "1" * 8000):
        counter = StepCounter()
        assert match_line(compiled.segments, line.lower(), counter) is None
        # linear: a bounded cost per start position, plus one scan of the line per segment
        bound = (len(line) + 1) * per_start + 2 * len(line) * len(compiled.segments)
        assert counter.steps <= bound, (template, counter.steps, bound)
