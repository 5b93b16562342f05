"""Hardening in Chromium: privacy, hostile and very large pastes, print, offline use.

* Privacy: no page, no search and no match sends a request off the site's origin,
  and once the match index is loaded, typing and matching send no request at all.
* Hostile paste: markup, script, control characters, lone surrogates, bidi
  overrides and a 1 MB line are shown as text; nothing runs, nothing breaks.
* Large paste: 8 MiB and 50 MiB are answered (50 MiB from its capped tail, and the
  status says so) while the main thread never freezes, measured with a
  PerformanceObserver for long tasks installed before the page loads. The tests
  print each figure against the 250 ms budget; they assert a bound four times
  looser (shared machines are noisy: a quiet run measures 90-150 ms for 8 MiB,
  a loaded one up to 280 ms), which still fails if matching or layout of the
  whole text lands on the main thread (seconds).
* Print: a reference page prints without navigation and with its evidence checks
  and sources; page.pdf() writes a real PDF.
* Offline: the site served by a plain http.server works with the network cut, and
  the OFFLINE=true build works from file:// (search and match) with no request to
  anything but files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from conftest import ROOT, mkdocs_build

pytestmark = pytest.mark.browser

DONE = "#match-results[data-state=done]"
RESULTS = "#match-results article[data-ref-id]"
REF_PAGE = "references/vllm-preemption-recompute/"
# A real line (tests/data/examples/vllm-preemption-recompute.yml); PERF-0010 answers it.
VLLM_LINE = (
    "WARNING 06-16 21:24:15 scheduler.py:1089] Sequence group 221 is preempted by PreemptionMode.RECOMPUTE mode "
    "because there is not enough KV cache space. This can affect the end-to-end performance. Increase "
    "gpu_memory_utilization or tensor_parallel_size to provide more KV cache memory. total_num_cumulative_preemption=101"
)
LOCAL_SCHEMES = ("data:", "blob:", "about:")
LONG_TASK_BUDGET_MS = 250  # the budget the printed figures are read against
LONG_TASK_LIMIT_MS = 4 * LONG_TASK_BUDGET_MS  # what a test asserts: no freeze, whatever the machine's load

# Installed before any page script: every long task, every long animation frame
# (a frame's rendering work, which the long-task API leaves out), and the time the
# browser spends in DataTransfer.getData (its own clipboard read during a paste).
OBSERVE = """
window.__longtasks = []; window.__frames = []; window.__getData = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longtasks.push(e.duration) })
  .observe({type: "longtask", buffered: true});
try {
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.__frames.push(e.duration) })
    .observe({type: "long-animation-frame", buffered: true});
} catch (err) {}
const getData = DataTransfer.prototype.getData;
DataTransfer.prototype.getData = function () {
  const t0 = performance.now();
  try { return getData.apply(this, arguments) } finally { window.__getData.push(performance.now() - t0) }
};
"""

# A log of `mib` MiB, made in the page: ordinary training lines, the vLLM warning last.
MAKE_LOG = """([mib, tail]) => {
  const line = "[2024-05-06 12:00:00,123] INFO rank3: step 100 loss 2.345 lr 3.0e-4 tokens/s 51234 grad_norm 0.87\\n"
  window.__log = line.repeat(Math.ceil(mib * 1048576 / line.length)) + tail + "\\n"
  return window.__log.length
}"""


def open_matcher(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#match-framework option:nth-child(2)", state="attached")  # the index is loaded


def set_and_wait(page, text: str) -> None:
    page.eval_on_selector(
        "#match-input", "(el, text) => { el.value = text; el.dispatchEvent(new Event('input', {bubbles: true})) }", text
    )
    page.wait_for_selector(DONE, state="attached")


def listed(page) -> list[str]:
    return page.eval_on_selector_all(RESULTS, "els => els.map(e => e.dataset.refId)")


def search(page, query: str) -> list[str]:
    page.click("input.md-search__input")
    page.fill("input.md-search__input", "")
    page.keyboard.type(query)  # Material listens for key events
    page.wait_for_selector("li.md-search-result__item", state="attached")
    hrefs = page.eval_on_selector_all("li.md-search-result__item > a", "els => els.map(e => e.href)")
    page.keyboard.press("Escape")
    return hrefs


# ---------------------------------------------------------------- privacy


def test_no_request_leaves_the_origin(watched, base_url):
    page = watched.page
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    for path in ("", "references/", REF_PAGE):
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
    hits = search(page, "PreemptionMode.RECOMPUTE")
    assert any("vllm-preemption-recompute" in h for h in hits)
    open_matcher(page, base_url + "match/")
    set_and_wait(page, VLLM_LINE)
    assert listed(page)[0] == "PERF-0010"
    page.wait_for_load_state("networkidle")
    assert watched.requests, "nothing was recorded"
    assert watched.foreign_requests() == []
    assert sockets == []
    assert watched.errors == []


def test_matching_sends_nothing_once_the_index_is_loaded(watched, base_url):
    page = watched.page
    open_matcher(page, base_url + "match/")
    page.wait_for_load_state("networkidle")
    before = list(watched.requests)
    assert any(u.endswith("/assets/match-index.js") for u in before)
    page.click("#match-input")
    page.keyboard.type("Sequence group 7 is preempted by PreemptionMode.RECOMPUTE mode because there is not enough KV cache space")
    page.wait_for_selector(DONE + " article", state="attached")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.evaluate("t => navigator.clipboard.writeText(t)", VLLM_LINE)
    page.keyboard.press("Control+V")  # a real paste, through the page's paste handler
    page.wait_for_selector(DONE + " article", state="attached")
    page.select_option("#match-framework", "vllm")
    page.wait_for_selector(DONE, state="attached")
    page.keyboard.press("Control+Enter")
    page.wait_for_timeout(400)
    assert page.input_value("#match-input") == VLLM_LINE
    assert listed(page)[0] == "PERF-0010"
    # a log file, opened in the file input, is read by the worker: no upload, no request
    page.evaluate("line => { const dt = new DataTransfer(); dt.items.add(new File(['x\\n'.repeat(300000) + line], 'big.log'));"
                  " const input = document.getElementById('match-file'); input.files = dt.files;"
                  " input.dispatchEvent(new Event('change', {bubbles: true})) }", VLLM_LINE)
    page.wait_for_function("() => /the file big.log/.test(document.getElementById('match-status').textContent)")
    assert listed(page)[0] == "PERF-0010"
    page.wait_for_timeout(300)
    assert watched.requests == before
    assert watched.errors == []


# ---------------------------------------------------------------- hostile paste

MARKUP = [
    '<img src=x onerror="window.__pwned=1">',
    "<script>window.__pwned=1</script>",
    '<a href="javascript:window.__pwned=1">x</a>',
    "<svg onload=window.__pwned=1>",
    '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    "<style>*{display:none}</style>",
]

# Each case is a JavaScript expression that builds the text in the page (so that lone
# surrogates survive the trip); every case also holds a line that PERF-0010 matches.
LINE = json.dumps(VLLM_LINE)
MESSAGE = VLLM_LINE[VLLM_LINE.index("Sequence"):VLLM_LINE.index("KV cache space") + 14]  # the matched span
HOSTILE = {
    "markup on matched lines": json.dumps(" ".join(MARKUP[:3]) + " " + MESSAGE + " " + " ".join(MARKUP[3:]) + "\n"
                                          + "\n".join(m + " " + VLLM_LINE + " " + m for m in MARKUP)),
    "1 MB on one line": f"'x'.repeat(1000000) + ' ' + {LINE} + '\\n' + {LINE}",
    "NUL and control characters": (
        "Array.from({length: 32}, (_, c) => String.fromCharCode(c)).join('') + '\\x7f\\x85\\u2028\\u2029\\ufeff\\ufffe\\uffff '"
        f" + {LINE}.replace('Sequence', 'Seq\\x00uence') + '\\n\\x1b[31m' + {LINE} + '\\x1b[0m\\x00'"
    ),
    "lone UTF-16 surrogates": f"'a\\uD800b ' + {LINE}.replace('group 221', 'group \\uDC00221') + '\\n\\uDBFF' + {LINE} + '\\uD800'",
    "bidi overrides": f"'\\u202E' + {LINE} + '\\u202C\\n\\u2067\\u202D\\u200F' + {LINE}.split('').reverse().join('') + '\\u202E'",
}


@pytest.mark.parametrize("case", list(HOSTILE), ids=list(HOSTILE))
def test_hostile_paste_is_shown_as_text(watched, base_url, case):
    page = watched.page
    open_matcher(page, base_url + "match/")
    page.evaluate(
        "() => { const el = document.getElementById('match-input'); el.value = " + HOSTILE[case] + ";"
        " el.dispatchEvent(new Event('input', {bubbles: true})) }"
    )
    page.wait_for_selector(DONE, state="attached")
    page.wait_for_timeout(200)
    assert "PERF-0010" in listed(page)
    assert page.evaluate("typeof window.__pwned") == "undefined"
    for tag in ("img", "script", "svg", "iframe", "style", "object", "embed"):
        assert page.locator(f"#match-results {tag}").count() == 0, tag
    hrefs = page.eval_on_selector_all("#match-results a", "els => els.map(e => e.href)")
    assert hrefs and all(h.startswith(base_url) for h in hrefs)
    shown = page.text_content("#match-results")
    if case == "markup on matched lines":
        for m in MARKUP:
            assert m in shown  # as text, in the excerpt of the matched line
    if case == "bidi overrides":
        assert "\u202e" in shown
        assert page.evaluate("document.dir || document.documentElement.dir") in ("", "ltr")
        # the highlighted span is isolated from the override before it
        assert page.eval_on_selector("#match-results mark.perf-hit", "m => getComputedStyle(m).unicodeBidi") == "isolate"
    # the page still works: a plain line after the hostile one gets its answer
    set_and_wait(page, VLLM_LINE)
    assert listed(page)[0] == "PERF-0010"
    page.locator("#match-results mark.perf-hit").first.click()
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert watched.errors == []
    assert watched.foreign_requests() == []


def test_hostile_markup_through_a_real_paste(watched, base_url):
    """The same markup through the clipboard and Ctrl+V: the browser inserts plain text."""
    page = watched.page
    open_matcher(page, base_url + "match/")
    text = "\n".join(m + " " + VLLM_LINE for m in MARKUP)
    page.evaluate("t => navigator.clipboard.writeText(t)", text)
    page.focus("#match-input")
    page.keyboard.press("Control+V")
    page.wait_for_selector(DONE + " article", state="attached")
    assert page.input_value("#match-input") == text
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("#match-results img, #match-results script, #match-results svg").count() == 0
    assert watched.errors == []


# ---------------------------------------------------------------- large paste


def measured(page) -> dict:
    return page.evaluate(
        "() => ({longest: Math.max(0, ...window.__longtasks), frame: Math.max(0, ...window.__frames),"
        " second: window.__longtasks.slice().sort((a, b) => b - a)[1] || 0,"
        " getData: Math.max(0, ...window.__getData), status: document.getElementById('match-status').textContent,"
        " box: document.getElementById('match-input').value.length})"
    )


def start_measuring(page) -> None:
    page.wait_for_timeout(300)  # let the page's own start-up tasks end
    page.evaluate("window.__longtasks.length = 0; window.__frames.length = 0; window.__getData.length = 0; window.__t0 = performance.now()")


def wait_answered(page) -> float:
    page.wait_for_function(
        "() => document.getElementById('match-results').dataset.state === 'done' && document.querySelector('#match-results article')",
        polling=20, timeout=60_000,
    )
    took = page.evaluate("performance.now() - window.__t0")
    page.wait_for_timeout(300)  # tasks that follow the answer count too
    return took


def measure(page, act):
    """Run ``act`` (it hands the text to the page) between the measurements; return (ms to answer, figures, act's result)."""
    start_measuring(page)
    result = act()
    took = wait_answered(page)
    return took, measured(page), result


def ctrl_v(page) -> None:
    """Paste the text already on the clipboard into the box, as a person does."""
    page.focus("#match-input")
    page.keyboard.press("Control+V")


@pytest.fixture
def large(browser, base_url):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.add_init_script(OBSERVE)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    open_matcher(page, base_url + "match/")
    yield page
    assert errors == []
    context.close()


def check_answer(page, got: dict, capped: bool) -> None:
    assert listed(page)[0] == "PERF-0010"
    assert got["status"].startswith("Read ")
    assert ("Your paste is larger than 10 MiB: only the last part was matched" in got["status"]
            or "Your file is larger than 10 MiB: only the last part was matched" in got["status"]) == capped
    assert got["box"] <= 64 * 1024  # the box holds only the end of it


def test_8_mib_paste(large):
    """8 MiB, both ways: set into the textarea by a script, and Ctrl+V from the clipboard."""
    page = large
    page.evaluate(MAKE_LOG, [8, VLLM_LINE])
    took, got, _ = measure(page, lambda: page.evaluate("() => { const el = document.getElementById('match-input'); el.value = window.__log; el.dispatchEvent(new Event('input', {bubbles: true})) }"))
    print(f"\n8 MiB textarea: answered in {took:.0f} ms, longest task {got['longest']:.0f} ms, longest frame {got['frame']:.0f} ms")
    check_answer(page, got, capped=False)
    assert got["longest"] < LONG_TASK_LIMIT_MS
    assert got["frame"] < LONG_TASK_LIMIT_MS  # rendering included: the box never lays out 8 MiB

    page.click("#match-clear")
    page.evaluate("navigator.clipboard.writeText(window.__log)")
    took, got, _ = measure(page, lambda: ctrl_v(page))
    print(f"8 MiB Ctrl+V: answered in {took:.0f} ms, longest task {got['longest']:.0f} ms (clipboard read {got['getData']:.0f} ms)")
    check_answer(page, got, capped=False)
    assert "The box shows only the end of your 8.0 MiB paste" in got["status"]
    assert got["longest"] < LONG_TASK_LIMIT_MS


def test_50_mib_log_file(large):
    """50 MiB as a file (the file input; a dropped file takes the same path): the worker reads all of it."""
    page = large
    page.evaluate(MAKE_LOG, [50, VLLM_LINE])
    page.evaluate("window.__file = new File([window.__log], 'rank0.log', {type: 'text/plain'})")
    took, got, _ = measure(page, lambda: page.evaluate("() => { const dt = new DataTransfer(); dt.items.add(window.__file); const input = document.getElementById('match-file');"
                                                        " input.files = dt.files; input.dispatchEvent(new Event('change', {bubbles: true})) }"))
    print(f"\n50 MiB file: answered in {took:.0f} ms, longest task {got['longest']:.0f} ms, longest frame {got['frame']:.0f} ms")
    check_answer(page, got, capped=False)  # a file is never capped: it is read whole, in chunks
    assert "the file rank0.log (50.0 MiB)" in got["status"]
    assert got["longest"] < LONG_TASK_LIMIT_MS
    assert got["frame"] < LONG_TASK_LIMIT_MS

    # the same file dropped on the box
    page.click("#match-clear")
    took, got, _ = measure(page, lambda: page.evaluate("() => { const dt = new DataTransfer(); dt.items.add(window.__file);"
                                                        " document.getElementById('match-input').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true})) }"))
    print(f"50 MiB dropped file: answered in {took:.0f} ms, longest task {got['longest']:.0f} ms")
    check_answer(page, got, capped=False)
    assert got["longest"] < LONG_TASK_LIMIT_MS


def test_50_mib_paste(large):
    """50 MiB by Ctrl+V and set into the textarea by a script: answered from the capped tail.

    Here one task is the browser's own: reading 50 MiB from the clipboard
    (DataTransfer.getData, ~300 ms on this machine, before our handler can act) or
    assigning 50 MiB to textarea.value (~500 ms). The test asserts the part of the
    longest task that is not that browser work stays under the limit.
    """
    page = large
    page.evaluate(MAKE_LOG, [50, VLLM_LINE])
    page.evaluate("navigator.clipboard.writeText(window.__log)")
    took, got, _ = measure(page, lambda: ctrl_v(page))
    print(f"\n50 MiB Ctrl+V: answered in {took:.0f} ms, longest task {got['longest']:.0f} ms, of which clipboard read {got['getData']:.0f} ms")
    check_answer(page, got, capped=True)
    assert "The box shows only the end of your 50.0 MiB paste" in got["status"]
    assert got["longest"] - got["getData"] < LONG_TASK_LIMIT_MS  # our share of the task that read the clipboard
    assert got["second"] < LONG_TASK_LIMIT_MS  # and no other task is long

    page.click("#match-clear")
    took, got, setter = measure(page, lambda: page.evaluate("() => { const el = document.getElementById('match-input'); const t0 = performance.now(); el.value = window.__log;"
                                                             " const t1 = performance.now(); el.dispatchEvent(new Event('input', {bubbles: true})); return [t1 - t0, performance.now() - t1] }"))
    print(f"50 MiB textarea: answered in {took:.0f} ms, longest task {got['longest']:.0f} ms: the browser's value setter "
          f"{setter[0]:.0f} ms, then our input handler {setter[1]:.0f} ms (most of it the browser dropping 50 MiB from the box)")
    check_answer(page, got, capped=True)
    assert took < 10_000  # the box no longer lays out 50 MiB (over 20 s before)


# ---------------------------------------------------------------- print


def test_reference_page_prints_without_navigation(browser, base_url, tmp_path):
    context = browser.new_context()
    page = context.new_page()
    page.goto(base_url + REF_PAGE)
    page.emulate_media(media="print")
    shown = page.evaluate(
        """sels => Object.fromEntries(sels.map(s => [s, [...document.querySelectorAll(s)].some(e => {
             const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden" })]))""",
        [".md-header", ".md-sidebar--primary", ".md-sidebar--secondary", ".md-footer", ".md-top", "button[data-copy-format]",
         ".md-search", ".md-clipboard",
         "#evidence-checks", "h3[id^=check-]", "#sources", "#sources + *", "article h1"],
    )
    for hidden in (".md-header", ".md-sidebar--primary", ".md-sidebar--secondary", ".md-footer", ".md-top",
                   "button[data-copy-format]", ".md-search", ".md-clipboard"):
        assert not shown[hidden], hidden
    for kept in ("#evidence-checks", "h3[id^=check-]", "#sources", "#sources + *", "article h1"):
        assert shown[kept], kept
    checks = page.eval_on_selector_all("h3[id^=check-]", "els => els.filter(e => e.offsetHeight > 0).length")
    assert checks >= 3
    pdf = page.pdf(path=str(tmp_path / "reference.pdf"), format="A4", print_background=True)
    assert pdf.startswith(b"%PDF-") and len(pdf) > 20_000
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages >= 2
    context.close()


# ---------------------------------------------------------------- offline


def test_served_by_http_server_with_the_network_cut(browser, base_url, site):
    """Everything but the local server is refused; nothing may fail or go elsewhere."""
    context = browser.new_context()
    refused, failed, requested, errors = [], [], [], []

    def route(r):
        if r.request.url.startswith(base_url):
            r.continue_()
        else:
            refused.append(r.request.url)
            r.abort("internetdisconnected")

    context.route("**/*", route)
    page = context.new_page()
    page.on("request", lambda r: requested.append(r.url))
    page.on("requestfailed", lambda r: failed.append(f"{r.url} {r.failure}"))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    for path in ("", "references/", REF_PAGE, "facets/"):
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
    assert any("vllm-preemption-recompute" in h for h in search(page, "preemption"))
    open_matcher(page, base_url + "match/")
    set_and_wait(page, VLLM_LINE)
    assert listed(page)[0] == "PERF-0010"
    page.wait_for_load_state("networkidle")
    assert refused == [] and errors == []
    assert real_failures(failed, lambda path: site / path.lstrip("/") / ("index.html" if path.endswith("/") else "")) == []
    assert all(u.startswith(base_url) or u.startswith(LOCAL_SCHEMES) for u in requested)
    context.close()


def real_failures(failed: list[str], to_file) -> list[str]:
    """Failed requests, less loads cut short by the next navigation (net::ERR_ABORTED)
    of files that are there (a favicon, say)."""
    return [f for f in failed
            if not (f.endswith("net::ERR_ABORTED") and to_file(unquote(urlparse(f.split()[0]).path)).is_file())]


@pytest.fixture(scope="module")
def offline_site(tmp_path_factory) -> Path:
    site_dir = tmp_path_factory.mktemp("offline-site")
    result = mkdocs_build(ROOT, site_dir, env={"OFFLINE": "true"})
    assert result.returncode == 0, result.stderr[-4000:]
    return site_dir


def remote_resources(page_html: str) -> list[str]:
    """Tags that would make the browser load something from another host."""
    tags = re.findall(r"<(?:script|link|img|iframe|source|video|audio|object|embed)\b[^>]*>", page_html)
    return [t for t in tags if re.search(r'\b(?:src|href|data)="(?:https?:)?//', t) and not re.search(r'rel="(?:canonical|alternate)"', t)]


def folder_links(page_html: str) -> list[str]:
    """Relative links to a folder: the offline build must have none."""
    return re.findall(r'\b(?:href|src)="((?![a-zA-Z][a-zA-Z0-9+.-]*:|/|#)[^"?#]*/)(?:[?#][^"]*)?"', page_html)


def test_offline_build_names_nothing_remote(offline_site):
    shim = offline_site / "assets/javascripts/vendor/iframe-worker-shim.js"
    assert shim.is_file() and "MIT" in shim.read_text(encoding="utf-8")[:2000]
    for path in offline_site.rglob("*"):
        if path.suffix in (".html", ".js", ".css"):
            text = path.read_text(encoding="utf-8")
            if path.suffix == ".html":
                assert "unpkg.com" not in text, path
            assert remote_resources(text) == [], path
            if path.suffix == ".html":
                assert folder_links(text) == [], path  # file:// shows a folder as a listing, not its page
    index = (offline_site / "index.html").read_text(encoding="utf-8")
    assert '<script src="assets/javascripts/vendor/iframe-worker-shim.js"' in index
    assert "navigation.instant" not in index
    assert (offline_site / "search/search_index.js").is_file()


def test_offline_build_works_from_file_urls(browser, offline_site):
    context = browser.new_context()
    page = context.new_page()
    requested, failed, errors = [], [], []
    page.on("request", lambda r: requested.append(r.url))
    page.on("requestfailed", lambda r: failed.append(f"{r.url} {r.failure}"))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    root = offline_site.as_uri() + "/"

    page.goto(root + "index.html")
    page.goto(root + "references/index.html")
    page.wait_for_selector("#catalogue-filters:not([hidden])")  # the page's scripts run
    page.select_option("select[data-facet=framework]", "vllm")
    assert page.locator("#catalogue-list > li:not([hidden])").count() >= 1
    page.goto(root + "references/vllm-preemption-recompute.html")
    hits = search(page, "PreemptionMode.RECOMPUTE")
    assert any(h.startswith(root + "references/vllm-preemption-recompute.html") for h in hits)

    open_matcher(page, root + "match.html")
    set_and_wait(page, "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for 600000 milliseconds before timing out")
    assert listed(page)[0] == "PERF-0011"  # a bare watchdog line: the collective-timeout triage reference
    set_and_wait(page, VLLM_LINE)
    assert listed(page)[0] == "PERF-0010"
    page.select_option("#match-framework", "vllm")
    page.wait_for_selector(DONE, state="attached")
    link = page.eval_on_selector(RESULTS + " h3 a", "a => a.href")
    assert link == root + "references/vllm-preemption-recompute.html"
    # search on the matcher page too: Material's worker (through the shim) and ours (in the page) side by side
    assert any("vllm-preemption-recompute" in h for h in search(page, "preemption"))
    set_and_wait(page, VLLM_LINE + "\n" + VLLM_LINE)
    assert listed(page)[0] == "PERF-0010"
    page.click(RESULTS + " h3 a")
    page.wait_for_load_state()
    assert page.url.startswith(root + "references/") and page.url.endswith(".html")

    assert real_failures(failed, lambda path: Path(path)) == [] and errors == []
    assert all(u.startswith("file:") or u.startswith(LOCAL_SCHEMES) for u in requested), [
        u for u in requested if not u.startswith("file:")]
    context.close()
