"""Log files on /match/ in Chromium: read whole, in chunks, in the worker, with progress and cancel.

Files are made in the page (Blob parts) so that hundreds of MiB never cross the test
protocol; a smaller file made here checks the worker against the twin's match_stream.
"""

from __future__ import annotations

import json

import pytest

from test_match_browser import DONE, RESULTS, index, open_matcher, paste, twin  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

CAUSE = "Detected clocks event due to thermal violation in GPU 3"
FILLER = "2026-12-01 10:00:00 INFO step 1200 loss 2.31 lr 3e-4 tokens/s 41234 ok\n"  # 72 bytes


def make_file(page, before: int, line: str, after: int, name: str = "train.log") -> None:
    """Make (in the page) a file of `before` filler lines, `line`, `after` filler lines."""
    page.evaluate(
        """([filler, before, line, after, name]) => {
          const block = n => { const parts = []; const big = filler.repeat(10000);
            for (; n >= 10000; n -= 10000) parts.push(big); if (n) parts.push(filler.repeat(n)); return parts }
          window.__file = new File([...block(before), line, ...block(after)], name, { type: "text/plain" })
        }""",
        [FILLER, before, line, after, name],
    )


def choose_file(page) -> None:
    """Choose the made file in input#match-file, as a reader does."""
    page.evaluate("""() => {
      const input = document.getElementById("match-file")
      const dt = new DataTransfer(); dt.items.add(window.__file); input.files = dt.files
      input.dispatchEvent(new Event("change", { bubbles: true }))
    }""")


def open_generated_file(page, before: int, line: str, after: int, name: str = "train.log") -> None:
    make_file(page, before, line, after, name)
    choose_file(page)


def wait_done(page, timeout=120_000):
    page.wait_for_selector(DONE, state="attached", timeout=timeout)
    return page.evaluate("() => document.getElementById('match-results').__lastResult")


def test_a_cause_in_the_middle_of_a_large_file_is_found(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    before = 300_000  # 21.6 MB of filler, then the cause, then as much again
    open_generated_file(page, before, CAUSE + "\n", before)
    result = wait_done(page)
    top = result["results"][0]
    assert top["id"] == "PERF-0006" and top["strength"] == "message"
    assert top["evidence"][0]["line"] == before + 1
    assert result["lines"] == 2 * before + 2 and result["capped"] is False
    assert page.locator(RESULTS).first.get_attribute("data-ref-id") == "PERF-0006"
    assert page.is_hidden("#match-progress-box")
    assert watched.errors == [] and watched.foreign_requests() == []


def test_a_message_across_a_chunk_border_is_found_on_its_line(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    chunk = 4 * 1024 * 1024
    before = chunk // len(FILLER)  # the cause line starts just before the 4 MiB border and runs across it
    open_generated_file(page, before, CAUSE + "\n", 1000)
    assert before * len(FILLER) < chunk < before * len(FILLER) + len(CAUSE)
    top = wait_done(page)["results"][0]
    assert top["id"] == "PERF-0006" and top["evidence"][0]["line"] == before + 1


def test_worker_streams_a_file_as_the_twin_does(watched, base_url, twin):
    """CR LF, a multi-byte character and a message cut by the chunk border: the same result as match_stream."""
    page = watched.page
    open_matcher(page, base_url)
    head = ("step ok: naïve café \r\n" * 200_000).encode()  # 4.6 MB, CR LF line breaks, two-byte characters
    data = head + (CAUSE + "\r\n").encode() + b"tail line\n" * 10
    page.set_input_files("#match-file", files=[{"name": "crlf.log", "mimeType": "text/plain", "buffer": data}])
    got = wait_done(page)
    text = data.decode("utf-8")
    want = twin.match_stream([text[k:k + 1_000_000] for k in range(0, len(text), 1_000_000)])
    assert got == json.loads(json.dumps(want))
    assert got["results"][0]["evidence"][0]["line"] == 200_001


def test_the_worker_reads_only_the_lines_that_can_count_and_gives_the_twins_result(watched, base_url, twin):
    """The worker picks the lines of a file that can count (its line picker) and matches those alone:
    real texts of every evaluation group, repeated among routine lines, with ANSI escapes inside words,
    runs of spaces and tabs, CR LF or lone CR line breaks and a byte-order mark: the twin's result."""
    from test_prefilter import GROUPS, mixed_log

    page = watched.page
    open_matcher(page, base_url)
    for seed, group in enumerate(GROUPS):
        data = ("\ufeff" if seed % 4 == 0 else "").encode() + mixed_log(group, seed).encode()
        page.set_input_files("#match-file", files=[{"name": f"{seed}.log", "mimeType": "text/plain", "buffer": data}])
        got = wait_done(page)
        assert got == json.loads(json.dumps(twin.match_stream([data]))), group
        page.evaluate("() => document.getElementById('match-results').removeAttribute('data-state')")


def test_progress_and_cancel(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    open_generated_file(page, 4_000_000, CAUSE + "\n", 0, "huge.log")  # 288 MB
    page.wait_for_selector("#match-progress-box:not([hidden])", timeout=60_000)
    page.wait_for_function("() => document.getElementById('match-progress').value > 0")
    assert "of 288.4 MiB" in page.text_content("#match-progress-text") or " of " in page.text_content("#match-progress-text")
    page.click("#match-cancel")
    page.wait_for_selector("#match-results[data-state=cancelled]", state="attached")
    assert page.is_hidden("#match-progress-box") and "Cancelled" in page.text_content("#match-status")
    # the page still matches afterwards, with a new worker
    result = paste(page, CAUSE + "\n")
    assert result["results"][0]["id"] == "PERF-0006"


def test_a_200_mib_file_never_blocks_the_main_thread(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    make_file(page, 1_450_000, CAUSE + "\n", 1_450_000, "200mib.log")  # 2 x 104 MB, made before we watch
    page.wait_for_timeout(500)
    page.evaluate("""() => { window.__longest = 0
      new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration) })
        .observe({ type: "longtask", buffered: false }) }""")
    choose_file(page)
    result = wait_done(page, timeout=300_000)
    assert result["results"][0]["id"] == "PERF-0006"
    longest = page.evaluate("window.__longest")
    print(f"\n200 MiB file: longest main-thread task {longest:.0f} ms (budget 250 ms)")
    assert longest <= 1000, "the main thread froze while the worker read the file"  # a loose bound: see test_hardening_browser
