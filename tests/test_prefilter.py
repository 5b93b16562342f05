"""Grep-fast (#24): the Hyperscan prefilter never changes a result.

Real logs (the evaluation texts, dev and test, and the triage reports) are
repeated and interleaved with routine lines, written with CR LF or lone CR, with
ANSI escapes inside words, runs of spaces and tabs where one space was, non-ASCII text and bad UTF-8 bytes, and read both ways:
the prefiltered stream (bytes or text, cut at awkward chunk sizes) against the
whole text matched line by line without the prefilter. Without the engine, the
matcher reads every line and gives the same results.
"""

from __future__ import annotations

import importlib
import random
import re
from pathlib import Path

import pytest
import yaml

from perfref.match import Matcher

from test_match_parity import load_index

match_module = importlib.import_module("perfref.match")  # perfref.match is also the library's function

EVAL = Path(__file__).resolve().parent / "data" / "eval"


def eval_texts() -> list[tuple[str, str]]:
    out = []
    for path in sorted(EVAL.glob("*/*.yml")) + sorted(EVAL.glob("*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data.get("cases") or data.get("reports") or []:
            out.append((f"{path.parent.name}/{path.stem}", case["text"]))
    return out


TEXTS = eval_texts()
GROUPS = sorted({name for name, _ in TEXTS})


def noise(rng: random.Random, step: int) -> str:
    return rng.choice([
        f"[rank{rng.randint(0, 7)}] step {step} loss {rng.uniform(1, 3):.4f} lr 3.0e-04 grad_norm {rng.uniform(0, 2):.3f}",
        f"[rank{rng.randint(0, 7)}] step {step} loss: {rng.uniform(1, 3):.2f} (not nan) tokens/s {rng.randint(9000, 12000)}",
        "epoch 3 / 10 — 训练正常 ✓ validation accuracy 0.91",
        "",
        "\t  ",
    ])


def with_escapes(text: str, rng: random.Random) -> str:
    """ANSI escapes around lines and inside words (prepare strips them: the words still count)."""
    def cut(m: re.Match) -> str:
        word = m.group()
        return word[:3] + "\x1b[1;31m" + word[3:] if rng.random() < 0.3 else word
    return "\x1b[0m" + re.sub(r"[A-Za-z_]{6,}", cut, text)


def respaced(text: str, rng: random.Random) -> str:
    """Spacing as aligned or tab-separated logs print it: a template's space matches any run of spaces or tabs."""
    return re.sub(r"(?<=\S) (?=\S)", lambda m: rng.choice([" ", "  ", "\t", " \t", "   "]), text)


def mixed_log(group: str, seed: int) -> str:
    """The group's texts, repeated and interleaved with routine lines, with the hazards of real logs."""
    rng = random.Random(seed)
    texts = [text for name, text in TEXTS if name == group]
    lines, step = [], 0
    for _ in range(3):
        for text in rng.sample(texts, len(texts)):
            for _ in range(rng.randint(0, 30)):
                step += 1
                lines.append(noise(rng, step))
            if rng.random() < 0.3:
                text = with_escapes(text, rng)
            if rng.random() < 0.3:
                text = respaced(text, rng)
            lines.append(text.rstrip("\n"))
    log = "\n".join(lines)
    if seed % 3 == 1:
        log = log.replace("\n", "\r\n")
    elif seed % 3 == 2:
        log = "\n".join(line + ("\r" if k % 5 == 0 else "\n") for k, line in enumerate(log.split("\n")))
    return log


def cut(data, size: int) -> list:
    return [data[k:k + size] for k in range(0, len(data), size)]


@pytest.fixture(scope="module")
def index() -> dict:
    return load_index()


@pytest.fixture(scope="module")
def fast(index) -> Matcher:
    matcher = Matcher(index)
    if matcher.prefilter is None:
        pytest.skip("the hyperscan wheel is not installed here")
    return matcher


@pytest.fixture(scope="module")
def plain(index) -> Matcher:
    return Matcher(index, prefilter=False)


@pytest.mark.parametrize("group", GROUPS)
def test_prefiltered_stream_gives_the_whole_texts_result(fast, plain, group):
    for seed in range(3):
        log = mixed_log(group, seed)
        whole = plain.match(log)
        assert not whole["capped"]
        data = log.encode()
        for size in (4093, 65_536 + 3, 1 << 22):
            assert fast.match_stream(cut(data, size)) == whole, (group, seed, size, "bytes")
        assert fast.match_stream(cut(log, 7919)) == whole, (group, seed, "text")


def test_every_real_text_alone_gives_the_same_result(fast, plain):
    for name, text in TEXTS:
        assert fast.match_stream([text.encode()]) == plain.match(text), name
        assert fast.match_stream(cut(text.encode(), 13)) == plain.match(text), name


def test_a_long_pasted_text_is_prefiltered_and_capped_as_before(index, monkeypatch):
    small = dict(index, limits=dict(index["limits"], input_cap=20_000))
    fast, plain = Matcher(small), Matcher(small, prefilter=False)
    if fast.prefilter is None:
        pytest.skip("the hyperscan wheel is not installed here")
    monkeypatch.setattr(match_module, "PREFILTER_MIN", 0)
    for seed, group in enumerate(GROUPS):
        log = mixed_log(group, seed)
        got = fast.match(log)
        assert got == plain.match(log), group
        assert got["capped"]


def test_bad_bytes_and_non_ascii_read_as_the_decoded_text(fast, plain):
    log = mixed_log(GROUPS[0], 4).encode()
    broken = (b"\xff\xfe bad bytes \xe8\xb6\n" + log[: len(log) // 2] + "\n训练卡住了 超时 (NCCL)\n".encode()
              + b"\xc3" + log[len(log) // 2:] + b"\n\xe8")
    whole = plain.match(broken.decode("utf-8", "replace"))
    for size in (3, 4096, 1 << 20):
        assert fast.match_stream(cut(broken, size)) == whole, size


def test_without_the_engine_the_results_are_the_same(fast, plain):
    """The fallback (no wheel) reads every line; the stream and the whole text agree with the prefiltered stream."""
    for seed, group in enumerate(GROUPS):
        log = mixed_log(group, seed)
        data = log.encode()
        assert plain.match_stream(cut(data, 65_536)) == fast.match_stream(cut(data, 65_536)), group
        assert plain.match_stream(cut(log, 65_536)) == plain.match(log), group


def test_without_the_wheel_the_matcher_reads_every_line(index, monkeypatch):
    from perfref import prefilter

    monkeypatch.setattr(prefilter, "hyperscan", None)
    matcher = Matcher(index)
    assert matcher.prefilter is None
    log = mixed_log(GROUPS[0], 0)
    assert matcher.match_stream(cut(log.encode(), 4096)) == Matcher(index, prefilter=False).match(log)


def test_the_compiled_database_is_cached(index, tmp_path, monkeypatch):
    from perfref import prefilter

    if prefilter.hyperscan is None:
        pytest.skip("the hyperscan wheel is not installed here")
    monkeypatch.setenv("PERFREF_CACHE", str(tmp_path))
    first = prefilter.build(index)
    # two databases: context words once per piece, and as literals for pieces with ANSI escapes
    assert first is not None and len(list(tmp_path.glob("prefilter-*.hsdb"))) == 2
    again = prefilter.build(index)  # loaded from the cache: it must scan
    data = b"ok\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nok\n"
    assert again.select(data) == first.select(data) and list(first.select(data)[0]) == [3]


def test_context_words_reveal_their_facets_without_picking_the_line(fast, plain):
    """A word that only says which framework or hardware a text is about (not a symptom) is reported
    once per piece, as a whole word, and the line it stands in is not picked for it."""
    line = "launching with DeepSpeed on H100"
    lines, revealed = fast.prefilter.select((line + "\n").encode())
    lower = line.lower()
    assert revealed and revealed == plain.revealed_in(lower, match_module.words_of(lower))
    assert lines == {}
    assert fast.prefilter.select(b"deepspeedy xh100\n") == ({}, set())  # whole words only
    # an escape the matcher strips joins "nfs" to the next word: in such a piece the line is read instead
    log = "1533  DNl  nfs\x1b[1;31m_start_io_read\nlaunching with DeepSpeed on H100\n"
    assert fast.prefilter.select(log.encode())[1] == set()
    assert fast.match_stream([log.encode()]) == plain.match(log)


def test_copies_of_a_line_a_series_reads_keep_their_place_in_the_run(fast, plain):
    """A line read over the run (numbers.over == "run") is never folded into its copies: where each copy
    stands decides the first and last windows. Identical lines interleave here, within a chunk and across."""
    times = [1400.0] * 6 + [2400.0] * 5 + [1400.0] * 2 + [2400.0] * 5
    lines = [f"elapsed time per iteration (ms): {t:.1f}" for t in times]
    log = "\n".join(line + "\nstep done" for line in lines) + "\n"
    whole = plain.match(log)
    assert any("numbers" in e for r in whole["results"] for e in r["evidence"])
    for size in (40, 4096, 1 << 20):
        assert fast.match_stream(cut(log.encode(), size)) == whole, size


@pytest.mark.parametrize("line", ["the job ran out\tof   memory at step 51", "an Out-Of-Memory error at step 51"])
def test_a_keyword_phrase_is_found_with_any_spaces_or_hyphens_between_its_words(fast, plain, line):
    log = "\n".join(["step 1 ok"] * 50 + [line] + ["step 52 ok"] * 50) + "\n"
    whole = plain.match(log)
    assert {"facet": "symptom", "value": "out-of-memory"} in whole["revealed"]
    assert fast.match_stream(cut(log.encode(), 64)) == whole
