"""Numbers decide: conditions on the numbers a message prints (perfref.numbers), read by both matchers.

Parity with match-worker.js is held by the shared vectors (tests/data/match-vectors.json,
the "numbers decide" ones); these tests pin the parts: parsing, units, boundaries.
"""

from __future__ import annotations

import pytest

from perfref.model import Message, validate
from perfref.numbers import ConditionError, holds, parse_condition, read, value_of
from perfref.templates import TemplateError, captured_names, compile_template, match_line, readable

NEW = ("CUDA out of memory. Tried to allocate {n:request} {*}has a total {*}of {n:total} {*}is allocated by PyTorch, "
       "{*}and {n:unallocated} {*}is reserved by PyTorch but unallocated")
FRAGMENTED = {"when": parse_condition("unallocated >= request and unallocated >= 0.1 * total"),
              "says": "{unallocated} stranded of {total}"}


def read_line(template: str, line: str, spec: dict) -> dict | None:
    lower = line.lower()
    captures: dict = {}
    assert match_line(compile_template(template).segments, lower, None, captures)
    return read(captures, lower, line, spec)


def test_condition_parses_to_linear_comparisons():
    assert parse_condition("total - free - used >= 0.25 * total") == [
        {"left": [[1.0, "total"], [-1.0, "free"], [-1.0, "used"]], "op": ">=", "right": [[0.25, "total"]]}]
    assert [c["op"] for c in parse_condition("a > b and c <= 2")] == [">", "<="]


@pytest.mark.parametrize("bad", ["", "a b", "a >= ", "a >= 0.5 *", "a >= b >= c", "a * 2 >= b"])
def test_unreadable_conditions_are_refused(bad):
    with pytest.raises(ConditionError):
        parse_condition(bad)


def test_units_convert_so_sizes_compare():
    assert value_of("512.00", " mib is free") == (512 * 2**20, 4)
    assert value_of("1,024", " bytes") == (1024, 6)
    assert value_of("3", " blocks") == (3, 0)  # not a unit: the plain number
    assert value_of("1.2.3", " gib") is None


def test_both_oom_wordings_read_by_their_numbers():
    current = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
               "79.15 GiB of which 1.20 GiB is free. Of the allocated memory 50.10 GiB is allocated by PyTorch, "
               "and 25.10 GiB is reserved by PyTorch but unallocated.")
    assert read_line(NEW, current, FRAGMENTED) == {"holds": True, "says": "25.10 GiB stranded of 79.15 GiB"}
    older = ("CUDA out of memory. Tried to allocate 2.00 GiB (GPU 3; 79.15 GiB total capacity; 77.13 GiB already "
             "allocated; 355.31 MiB free; 78.21 GiB reserved in total by PyTorch)")
    template = ("CUDA out of memory. Tried to allocate {n:request} {*}(GPU {n}; {n:total} {*}total capacity; "
                "{n:allocated} {*}already allocated; {*}free; {n:reserved} {*}reserved in total by PyTorch)")
    spec = {"when": parse_condition("reserved - allocated >= request and reserved - allocated >= 0.1 * total"), "says": "x"}
    assert read_line(template, older, spec)["holds"] is False  # 1.08 GiB stranded: under a tenth of 79 GiB


def test_boundaries_are_inclusive_or_strict_as_written():
    assert holds(parse_condition("a >= 0.5 * b"), {"a": 5.0, "b": 10.0})
    assert not holds(parse_condition("a > 0.5 * b"), {"a": 5.0, "b": 10.0})
    assert not holds(parse_condition("a >= 0.5 * b"), {"a": 4.99, "b": 10.0})
    assert holds(parse_condition("a <= b and a < 6"), {"a": 5.0, "b": 5.0})


def test_a_named_capture_reads_as_its_name_and_must_be_a_number():
    assert captured_names(NEW) == ["request", "total", "unallocated"]
    assert readable("free {n:free} of {n}") == "free ‹free› of ‹number›"
    with pytest.raises(TemplateError, match="only numbers"):
        compile_template("held by {id:who} here")
    with pytest.raises(TemplateError, match="twice"):
        compile_template("from {n:a} to {n:a} now")


def _message(**numbers) -> dict:
    return {"text": "Tried to allocate {n:request} {*}of which {n:free} is free", "where": "w",
            "versions": [{"software": "pytorch"}], "numbers": {"says": "{free}", "why": "y", **numbers}}


def test_a_condition_on_a_name_the_template_lacks_fails_with_the_fix():
    with pytest.raises(ValueError, match=r"numbers name total.*write \{n:total\}"):
        Message.model_validate(_message(when="free >= 0.1 * total"))
    assert Message.model_validate(_message(when="free >= request")).numbers.counts == "message"


def test_broken_numbers_fail_the_build_with_file_and_field(catalogue):
    page = catalogue.by_slug("gpu-memory-held-by-another-process")
    data = page.ref.model_dump(mode="json", exclude_none=True)
    data["messages"][0]["numbers"]["when"] = "used >="
    ref, problems = validate(data, page.file, catalogue.facets, catalogue.facets.get("software"))
    assert ref is None
    assert [p.field for p in problems] == ["messages[0].numbers.when"]
    assert page.file in str(problems[0]) and "cannot read the condition" in str(problems[0])


def test_a_run_is_read_at_both_ends_in_bounded_memory():
    from perfref.numbers import TREND_WINDOW, extend, series_of, trend
    series = series_of({"ms": 100.0})
    for value in [100.0] * 20 + [160.0] * 20:
        series = extend(series, series_of({"ms": value}))
    assert series["lines"] == 41 and len(series["first"]) == len(series["last"]) == TREND_WINDOW
    spec = {"when": parse_condition("lines >= 10 and last_ms >= 1.5 * first_ms"), "says": "{first_ms} -> {last_ms} ({lines})"}
    assert trend(series, spec) == {"holds": True, "says": "100 -> 160 (41)"}
    short = extend(series_of({"ms": 100.0}), series_of({"ms": 400.0}))
    assert trend(short, spec)["holds"] is False  # two lines are not a run


def test_a_condition_over_the_run_names_first_and_last():
    message = {"text": "elapsed time per iteration (ms): {n:ms}", "where": "w", "versions": [{"software": "megatron-lm"}],
               "numbers": {"over": "run", "when": "last_ms >= 1.5 * first_ms and lines >= 10", "says": "{last_ms}", "why": "y"}}
    assert Message.model_validate(message).numbers.over == "run"
    message["numbers"]["when"] = "ms >= 1"
    with pytest.raises(ValueError, match="first_x, last_x"):
        Message.model_validate(message)
