"""The wording watch's reading and matching, on fixture strings (the watch itself needs the network)."""

from __future__ import annotations

import zipfile

import pytest
from conftest import ROOT, team_tool

watch = team_tool("wording_watch")

TEMPLATE_NEW = "CUDA out of memory. Tried to allocate {*}this process has {*}memory in use"
TEMPLATE_VLLM = "Sequence group {id} is preempted by PreemptionMode.RECOMPUTE mode because there is not enough KV cache space."


@pytest.mark.parametrize("template, strings, expected", [
    # printf conversions and Python format fields stand where the template has placeholders
    (TEMPLATE_VLLM, ["Sequence group %s is preempted by %s mode because there is not enough KV cache space. "
                     "This can affect the end-to-end performance."], "found"),
    (TEMPLATE_VLLM, ["Sequence group {} is preempted by {} mode because there is not enough KV cache space."], "found"),
    ("Timed out after {n} seconds waiting for clients. {n}/{n} clients joined",
     ["Timed out after %ld seconds waiting for clients. %d/%d clients joined."], "found"),
    # case and runs of whitespace do not matter; the final full stop is optional
    ("Watchdog caught collective operation timeout", ["[Rank {}] Watchdog  caught COLLECTIVE operation timeout: {}"], "found"),
    # a C++ stream keeps its pieces apart: found, but in parts
    (TEMPLATE_NEW, ["CUDA out of memory. Tried to allocate ", "Including non-PyTorch memory, this process has ", " memory in use. "],
     "found in parts"),
    # the order counts within one string
    ("alpha {n} beta", ["beta %d alpha"], "found in parts"),
    # a reworded message is absent
    ("Got async error event", ["NET/IB : Got non-fatal async event: %s(%d)"], "absent"),
    ("{n}", ["anything"], "not checkable: the template has no literal text"),
])
def test_template_against_format_strings(template, strings, expected):
    assert watch.find_in(watch._parts(template), strings) == expected


HTML_TEMPLATE = ('<div class="{}"><span id="{}">{} {}</span> {} < {} {} {}<a href="{}">{}</a>'
                 '<script>const {} = {}; if ({} < {}) {{ {}({}) }}</script></div>')


@pytest.mark.parametrize("template, string, expected", [
    # the false all-clear this rule stops: a long string full of fields covers a wording only through them
    ("Assertion `srcIndex < srcSelectDimSize` failed", HTML_TEMPLATE, False),
    ("Watchdog caught collective operation timeout", "[{}] {} {} {} {}: {} {}", False),
    ("Watchdog caught collective operation timeout", "{} caught {} operation {}", False),  # two words through fields
    # one word through a field, but most of a short wording: the fields may take at most half of its letters
    ("in evaluation_loop", "in {}", False),
    ("Using PreemptionMode.RECOMPUTE", "Using %s", False),
    # the legitimate shapes: one value the page wrote out, and any number of runs without letters
    ("Sequence group {id} is preempted by PreemptionMode.RECOMPUTE mode because there is not enough KV cache space.",
     "Sequence group %s is preempted by %s mode because there is not enough KV cache space.", True),
    ("Timed out after 1800 seconds waiting for clients. 3/4 clients joined",
     "Timed out after %ld seconds waiting for clients. %d/%d clients joined.", True),
    ("Watchdog caught collective operation timeout", "[Rank {}] {} caught collective operation timeout: {}", True),
])
def test_format_fields_cannot_stand_for_the_wording_wholesale(template, string, expected):
    """A field takes a run without letters any number of times, a run with letters at most once,
    and all the fields together at most half the wording's literal characters."""
    assert watch.aligns(watch._parts(template), string) is expected
    assert (watch.find_in(watch._parts(template), [string]) == "found") is expected


def test_python_sources_give_their_formats():
    source = '''
logger.warning("Sequence group %s is preempted by %s mode because there is not enough KV cache space.", a, b)
raise ValueError(f"The model's max seq len ({max_model_len}) is larger than the maximum number of tokens")
msg = "Detected inf/nan during batch_number=" + str(n)
def evaluation_loop(self, dataloader):
    pass
'''
    strings = watch.strings_of_python(source)
    assert watch.find_in(watch._parts("in evaluation_loop"), strings) == "found"  # a traceback's frame
    assert "The model's max seq len ({}) is larger than the maximum number of tokens" in strings
    assert "Detected inf/nan during batch_number={}" in strings
    assert watch.find_in(watch._parts("The model's max seq len ({n}) is larger than the maximum number of tokens"),
                         strings) == "found"
    assert watch.find_in(watch._parts("Detected inf/nan during batch_number={n}"), strings) == "found"


def test_a_wheel_is_read_whole(tmp_path):
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("demo/core.py", 'print("Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.")\n')
        archive.writestr("demo/_C.so", b"\x00\x01ELF\x00NCCL WARN NET/IB : Got completion from peer %s with status=%s(%d)\x00\xff")
        # an executable without a library's name (Ray's raylet) is read too
        archive.writestr("demo/core/src/raylet", b"\x7fELF\x02\x01 cannot be scheduled right now. You can ignore this message\x00")
        archive.writestr("demo/README.txt", b"cannot be scheduled later")  # not a binary, not a source: skipped
    strings = watch.strings_of_archive(wheel)
    assert watch.find_in(watch._parts("cannot be scheduled right now. You can ignore this message"), strings) == "found"
    assert not any("scheduled later" in string for string in strings)
    assert watch.find_in(watch._parts("Current loss scale already at minimum - cannot decrease scale anymore. Exiting run"),
                         strings) == "found"
    assert watch.find_in(watch._parts("Got completion from peer {*} with status={id}({n})"), strings) == "found"


def test_the_releases_before_a_since():
    assert watch.previous(["2.28.3", "2.27.7", "2.28.7", "2.26.2", "2.29.0rc1"], "2.28.3") == "2.27.7"
    assert watch.previous(["1.0"], "1.0") is None


def test_every_wording_with_software_on_pypi_is_watched():
    """The software the catalogue's version ranges name: those published on PyPI say where (docs/facets.yml)."""
    from perfref.load import load_facets

    facets, problems = load_facets(ROOT / "docs")
    assert problems == []
    named = {w.software for w in watch.wordings(ROOT / "docs", None)}
    for software in ("pytorch", "vllm", "deepspeed", "nccl", "transformers"):
        assert software in named and facets["software"][software]["pypi"], software


def test_a_partial_record_keeps_the_other_software(tmp_path):
    """--record with --software replaces that software's entries and keeps every other's (no network)."""
    from perfref import wording_checks

    def entry(ref_id, software, status, template="Some wording {n}"):
        return {"id": ref_id, "kind": "message", "template": template, "software": software,
                "release": f"{software} 1.0", "status": status, "detail": status}

    old = {"date": "2030-01-01",
           "software": {"vllm": {"date": "2030-01-01", "releases": ["vllm 1.0"]},
                        "pytorch": {"date": "2030-01-01", "releases": ["torch 1.0"]}},
           "wordings": [entry("PERF-0001", "vllm", "found"), entry("PERF-0002", "pytorch", "found"),
                        entry("PERF-0003", "pytorch", "found"), entry("PERF-9999", "vllm", "found")]}
    run = {"date": "2030-02-01", "software": {"pytorch": {"date": "2030-02-01", "releases": ["torch 2.0"]}},
           "wordings": [entry("PERF-0002", "pytorch", "absent")]}
    merged = wording_checks.merge(old, run, page_ids={"PERF-0001", "PERF-0002", "PERF-0003"})
    assert merged["date"] == "2030-02-01"
    assert merged["software"]["vllm"] == old["software"]["vllm"]
    assert merged["software"]["pytorch"]["releases"] == ["torch 2.0"]
    assert [(e["id"], e["software"], e["status"]) for e in merged["wordings"]] == [
        ("PERF-0001", "vllm", "found"), ("PERF-0002", "pytorch", "absent")]  # PERF-0003 was not in the run, PERF-9999 is gone

    # a run of one page (--page PERF-0002) replaces that page's entries only
    page_run = {**run, "wordings": [entry("PERF-0002", "pytorch", "found", template="New wording {n}")]}
    one_page = wording_checks.merge(old, page_run, page_ids={"PERF-0001", "PERF-0002", "PERF-0003"}, pages={"PERF-0002"})
    assert [(e["id"], e["software"], e["template"]) for e in one_page["wordings"]] == [
        ("PERF-0001", "vllm", "Some wording {n}"), ("PERF-0002", "pytorch", "New wording {n}"),
        ("PERF-0003", "pytorch", "Some wording {n}")]

    # the file round-trips through the one loader
    (tmp_path / wording_checks.RECORD).write_text(wording_checks.dump(merged), encoding="utf-8")
    assert wording_checks.load(tmp_path) == merged
    assert wording_checks.load(tmp_path / "nowhere") is None


def test_record_run_with_software_merges_into_the_record(tmp_path):
    """The --record path of a --software run, on a copy of docs/: the other software's entries stay."""
    import json
    import shutil

    from perfref import wording_checks
    from perfref.load import load_facets

    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    ref_id = watch.wordings(docs, {"pytorch"})[0].ref_id
    kept = {"id": ref_id, "kind": "message", "template": "kept", "software": "pytorch", "release": "torch 1.0",
            "status": "found", "detail": "found"}
    (docs / wording_checks.RECORD).write_text(json.dumps(
        {"date": "2030-01-01", "software": {"pytorch": {"date": "2030-01-01", "releases": ["torch 1.0"]}},
         "wordings": [kept]}), encoding="utf-8")
    vllm = watch.wordings(docs, {"vllm"})[0]
    new = {"id": vllm.ref_id, "kind": vllm.kind, "template": vllm.template, "software": "vllm",
           "release": "vllm 9.9", "status": "absent", "detail": "absent"}
    known = load_facets(docs)[0]["software"]
    watch.record_run(docs, [new], {"vllm": "9.9"}, known, {"vllm"})
    record = wording_checks.load(docs)
    assert kept in record["wordings"] and new in record["wordings"]
    assert record["software"]["pytorch"]["releases"] == ["torch 1.0"]
    assert record["software"]["vllm"]["releases"] == ["vllm 9.9"]


def test_a_line_put_together_at_run_time_is_looked_for_as_the_release_holds_it(tmp_path, monkeypatch, capsys):
    """"CUDA error: unknown error" is PyTorch's "CUDA error: %s" filled by the CUDA runtime: no string of
    the torch wheel holds it whole. A range's ``watch`` template is what the watch looks for instead."""
    import shutil

    import re

    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    wording = '  - text: "CUDA error: unknown error"\n'
    # whatever the real pages say: PERF-0027 (cuda-runtime-error) names a watch, PERF-0014 (gpu-fallen-off-bus) does not
    for name, versions in (("cuda-runtime-error", '      - {software: pytorch, watch: "CUDA error: {*}"}\n'),
                           ("gpu-fallen-off-bus", "      - {software: pytorch}\n")):
        page = docs / "references" / f"{name}.md"
        text = page.read_text(encoding="utf-8")
        assert wording in text
        head, tail = text.split(wording, 1)
        tail = re.sub(r"      - \{software: pytorch.*\}\n", lambda _: versions, tail, count=1)
        page.write_text(head + wording + tail, encoding="utf-8")

    monkeypatch.setattr(watch, "pip_index", lambda project: ("9.9.9", ("9.9.9",)))
    monkeypatch.setattr(watch, "download", lambda project, version, cache: tmp_path / "release.whl")
    monkeypatch.setattr(watch, "strings_of_archive", lambda path: ["CUDA error: %s", "unrelated %d"])
    watch.main(["--software", "pytorch", "--docs", str(docs), "--cache", str(tmp_path / "cache")])
    lines = [line for line in capsys.readouterr().out.splitlines() if line.endswith("| CUDA error: unknown error")]
    by_page = {line.split()[0]: line for line in lines}
    assert "found (looked for as the release holds it: 'CUDA error: {*}')" in by_page["PERF-0027"]
    assert "absent" in by_page["PERF-0014"]  # the same wording on a page without `watch` is looked for whole


def test_a_wording_the_pypi_release_cannot_hold_is_not_checkable_with_the_pages_reason(tmp_path, monkeypatch, capsys):
    """Megatron-LM's training loop is not in the megatron-core wheel: such a range says so (``unwatched``),
    the watch reports it as not checkable with that reason, which is no failure to check (exit 2)."""
    monkeypatch.setattr(watch, "pip_index", lambda project: ("9.9.9", ("9.9.9",)))
    monkeypatch.setattr(watch, "download", lambda project, version, cache: tmp_path / "release.whl")
    monkeypatch.setattr(watch, "strings_of_archive", lambda path: [])  # the wheel holds none of the wordings
    code = watch.main(["--software", "megatron-lm", "--cache", str(tmp_path / "cache")])
    lines = [line for line in capsys.readouterr().out.splitlines() if "| elapsed time per iteration (ms)" in line]
    assert lines and "not checkable: printed by Megatron-LM's training loop (megatron/training)" in lines[0]
    assert code == 1  # the wordings of megatron-core itself are absent from this empty release: the watch says so
