"""The matcher page in Chromium: match-worker.js against the Python twin and the shared vectors.

Every vector is pasted into textarea#match-input on /match/; the listed results
(data-ref-id, data-strength, in order) must equal the twin's and the vector's,
and the worker's whole result object (kept on #match-results as __lastResult)
must equal the twin's. The twin reads the match index of the very site under
test (site/assets/match-index.json), as the worker does.
"""

from __future__ import annotations

import json
import re

import pytest
from test_match_parity import VECTORS, check_vector

from perfref import report
from perfref.match import Matcher

pytestmark = pytest.mark.browser

DONE = "#match-results[data-state=done]"
RESULTS = "#match-results article[data-ref-id]"
SHARED_WATCHDOG = "shared watchdog line and an ECC error: the ECC cause leads, the timeout hub follows"
WATCHDOG_ALONE = "NCCL watchdog timeout alone: the collective-timeout triage reference"


@pytest.fixture(scope="module")
def index(site) -> dict:
    return json.loads((site / "assets" / "match-index.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def twin(index) -> Matcher:
    return Matcher(index)


def vector(name: str) -> dict:
    return next(v for v in VECTORS if v["name"] == name)


def as_json(data):
    """Python's result as the worker's would arrive: plain JSON (13.0 == 13 either way)."""
    return json.loads(json.dumps(data))


def open_matcher(page, base_url: str) -> None:
    page.goto(base_url + "match/")
    page.wait_for_selector("#match-framework option:nth-child(2)", state="attached")  # the index is loaded


def set_context(page, stated: dict | None) -> None:
    for facet in ("framework", "hardware", "symptom"):
        value = (stated or {}).get(facet, "")
        if page.input_value(f"#match-{facet}") != value:
            page.select_option(f"#match-{facet}", value)


def paste(page, text: str) -> dict | None:
    """Set the textarea's value as a paste does, fire input, wait for the run to finish."""
    page.eval_on_selector(
        "#match-input",
        "(el, text) => { el.value = text; el.dispatchEvent(new Event('input', {bubbles: true})) }",
        text,
    )
    page.wait_for_selector(DONE, state="attached")
    return page.evaluate("document.getElementById('match-results').__lastResult")


def listed(page) -> list[tuple[str, str]]:
    return [tuple(x) for x in page.eval_on_selector_all(RESULTS, "els => els.map(e => [e.dataset.refId, e.dataset.strength])")]


def ids_strengths(result: dict) -> list[tuple[str, str]]:
    return [(r["id"], r["strength"]) for r in result["results"]]


def spans(result: dict) -> list:
    return [
        (r["id"], r["strength"], r["score"], [(e["template"], e["line"], e["start"], e["end"], e["count"]) for e in r["evidence"]])
        for r in result["results"]
    ]


def test_lookalike_notes_load_once_on_first_need(watched, base_url, twin):
    """The look-alike notes stay out of the page's first load; the first close call fetches them, once."""
    page = watched.page
    open_matcher(page, base_url)
    paste(page, vector("single message line: DeepSpeed trace cache invalidation")["text"])
    assert not any(u.endswith("/assets/match-tells.js") for u in watched.requests)
    close_call = next(v["text"] for v in VECTORS if "versus" in v)
    got = paste(page, close_call)
    want = as_json(twin.match(close_call))
    assert got["results"][0]["versus"] == want["results"][0]["versus"]
    note = page.locator(".perf-result__versus").first
    assert want["results"][0]["versus"]["tell"][:40] in note.inner_text()
    paste(page, close_call * 2)
    assert sum(u.endswith("/assets/match-tells.js") for u in watched.requests) == 1
    assert watched.errors == [] and watched.foreign_requests() == []


@pytest.mark.parametrize("vec", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector_in_the_page(watched, base_url, twin, vec):
    page = watched.page
    open_matcher(page, base_url)
    set_context(page, vec.get("stated"))
    got = paste(page, vec["text"])
    # A textarea reports CR LF and CR as LF (HTML's API value); the twin gets the same text.
    text = vec["text"].replace("\r\n", "\n").replace("\r", "\n")
    want = as_json(twin.match(text, vec.get("stated")))
    check_vector(want, vec)
    if vec["text"] == "":
        assert got is None and listed(page) == []
    else:
        assert listed(page) == ids_strengths(want)
        assert spans(got) == spans(want)
        assert got == want
        check_vector(got, vec)
    assert watched.errors == []
    assert watched.foreign_requests() == []


def filled(template: str) -> str:
    """A line a template matches: each placeholder replaced by a value of its class."""
    values = {"n": "12", "hex": "0x1f", "id": "worker_3", "path": "/data/run/a.py", "*": "and more"}
    line = re.sub(r"\{([^{}]*)\}", lambda m: values[m.group(1).split(":")[0]], template.replace("{{", "\0").replace("}}", "\1"))
    return line.replace("\0", "{").replace("\1", "}")


def test_worker_equals_the_twin_on_raw_text(watched, base_url, twin, index):
    """Straight to a worker, without the textarea: CR, CR LF and ANSI reach the worker as written.
    Each reference's templates, filled in, make one text more: the worker compiles every template
    from its text (templateSegments), as the twin does (compile_template)."""
    page = watched.page
    open_matcher(page, base_url)
    extra = [
        {"text": "a\rb\r\nc\n\x1b[31mDetected clocks event due to thermal violation in GPU 3\x1b[0m\r"},
        {"text": "Xid 79 \u00e9t\u00e9 \u0130stanbul K\u212a Invalidate trace cache @ step 1: expected module 2, but got module 3"},
        {"text": "stage=1 layers=12\nstage=2 layers=10\nPartitioning pipeline stages with method parameters", "stated": {"symptom": "straggler"}},
    ]
    for number in range(len(index["refs"])):
        extra.append({"text": "\n".join(filled(p["text"]) for p in index["patterns"] if p["ref"] == number)})
    cases = [{"text": v["text"], "stated": v.get("stated") or {}} for v in VECTORS + extra]
    got = page.evaluate(
        """async (cases) => {
          const script = document.querySelector("script[data-worker]")
          const url = name => new URL(script.getAttribute(name), location.href).href
          const worker = new Worker(url("data-worker"))
          const next = () => new Promise(resolve => { worker.onmessage = ev => resolve(ev.data) })
          worker.postMessage({type: "init", index: url("data-index"), tells: url("data-tells")})
          const ready = await next()
          if (ready.type !== "ready") throw new Error(JSON.stringify(ready))
          const out = []
          for (const [k, c] of cases.entries()) {
            worker.postMessage({type: "match", id: k, text: c.text, stated: c.stated})
            const msg = await next()
            out.push(msg.result)
          }
          worker.terminate()
          return out
        }""",
        cases,
    )
    for case, result in zip(cases, got):
        assert result == as_json(twin.match(case["text"], case["stated"])), case["text"][:80]
    assert watched.errors == []


def test_highlight_marks_the_matched_span(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    result = paste(page, vector("CRLF line endings (Windows copy of a Slurm log)")["text"])
    marks = page.eval_on_selector_all("#match-results article mark.perf-hit", "els => els.map(e => e.textContent)")
    wanted = [e["text"][e["start"]:e["end"]] for r in result["results"] for e in r["evidence"]]
    assert marks == wanted and len(marks) >= 3
    first = page.locator(RESULTS).first
    assert first.locator("mark.perf-hit").first.text_content().startswith("This DataLoader will create 16 worker")
    # the line number, the template and the kind are shown beside the line
    evidence = first.locator(".perf-evidence__item").first.text_content()
    assert "Line 3" in evidence and "This DataLoader will create ‹number› worker processes" in evidence
    # a count shows only when a template matched more than one line
    assert first.locator(".perf-evidence__count").count() == 0
    repeated = paste(page, vector("one message repeated 200 times counts once")["text"])
    assert repeated["results"][0]["evidence"][0]["count"] == 200
    assert "×200 lines" in page.locator(RESULTS).first.locator(".perf-evidence__count").first.text_content()


def test_words_learned_from_reports_are_shown_as_what_the_symptom_rests_on(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    result = paste(page, vector("no keyword names a symptom: words its reports use bring the triage reference")["text"])
    item = result["results"][0]["evidence"][0]
    assert item["kind"] == "learned"
    evidence = page.locator(RESULTS).first.locator(".perf-evidence__item").first.text_content()
    assert "Line 2" in evidence and "learned from labelled reports; no keyword names it" in evidence
    assert item["display"] in evidence
    assert page.locator(RESULTS).first.locator("mark.perf-hit").first.text_content() == item["display"].split(", ")[0]
    assert watched.errors == []


def test_result_links_and_checks(watched, base_url, index):
    page = watched.page
    open_matcher(page, base_url)
    result = paste(page, vector("signals only: Unsloth MoE backend settings give a context match")["text"])
    top = result["results"][0]
    article = page.locator(RESULTS).first
    ref_url = base_url + top["url"]
    title = article.locator("h3 a")
    assert title.get_attribute("href") == ref_url
    assert title.text_content() == f"{top['id']}: {top['title']}"
    hrefs = article.locator(".perf-result__checks a").evaluate_all("els => els.map(e => e.href)")
    assert hrefs == [f"{ref_url}#check-{c['id']}" for c in top["checks"]] + [f"{ref_url}#evidence-checks"]
    # the strength in plain words; scores stay in the JSON and the CLI
    assert article.locator(".perf-strength").text_content() == "Possible"
    assert "the context fits" in article.locator(".perf-result__strength").text_content()
    assert "Score" not in article.text_content() and str(top["score"]) not in article.text_content()
    # copy for a ticket: the ID, title and URL, and the checks to run first
    snippet = article.locator('[data-copy-format="markdown"]').get_attribute("data-copy-text")
    assert snippet.startswith(f"[{top['id']}: ") and f"]({ref_url})" in snippet
    assert f"({ref_url}#check-{top['checks'][0]['id']})" in snippet
    assert article.locator('[data-copy-format="jira"]').get_attribute("data-copy-text").startswith(f"[{top['id']}: ")
    assert article.locator('[data-copy-format="url"]').get_attribute("data-copy-text") == ref_url
    # the linked page has the anchors the links point at
    page.goto(hrefs[0])
    assert page.locator(f"#check-{top['checks'][0]['id']}").count() == 1
    assert page.locator("#evidence-checks").count() == 1


def test_context_selects_reweight_the_order(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    text = vector(WATCHDOG_ALONE)["text"]
    before = paste(page, text)
    assert before["results"][0]["id"] == "PERF-0011"
    assert "PERF-0023" not in [r["id"] for r in before["results"] if r["strength"] != "weak"]
    # the selects list the facet labels from the index
    assert "torch.compile" in page.locator("#match-framework").text_content()
    # saying what you know re-weights: the stated hang brings the hang triage reference up,
    # and the stated framework lifts the compile reference among the rest
    page.select_option("#match-framework", "torch-compile")
    page.select_option("#match-symptom", "hang")
    page.wait_for_selector(DONE, state="attached")
    after = page.evaluate("() => document.getElementById('match-results').__lastResult")
    shown = [(r["id"], r["strength"]) for r in after["results"]]
    assert ("PERF-0023", "symptom") in shown
    score = {r["id"]: r["score"] for r in after["results"]}
    old = {r["id"]: r["score"] for r in before["results"]}
    assert score["PERF-0007"] >= old["PERF-0007"] + 3  # a stated facet adds 3
    article = page.locator('#match-results article[data-ref-id="PERF-0023"]')
    context = article.locator(".perf-result__context").text_content()
    assert "Hang or deadlock (you said so)" in context
    # Clear resets the text and the context
    page.click("#match-clear")
    page.wait_for_selector(DONE, state="attached")
    assert listed(page) == [] and page.input_value("#match-framework") == ""
    assert watched.errors == []


def test_no_confident_match_points_to_the_catalogue(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    result = paste(page, vector("shape mismatch: no confident match")["text"])
    assert result["confident"] is False and result["results"]
    none = page.locator("#match-results .perf-match__none")
    assert "No confident match" in none.text_content()
    assert none.locator("a").get_attribute("href") == base_url + "references/"
    # the weak results come after the message, collapsed behind "Show N more"
    children = page.eval_on_selector_all("#match-results > *", "els => els.map(e => e.className)")
    assert children == ["perf-match__none", "perf-match__more"]
    more = page.locator("#match-results details.perf-match__more")
    assert more.get_attribute("open") is None
    weak = [r for r in result["results"] if r["strength"] == "weak"]
    assert more.locator("summary").text_content().startswith(f"Show {len(weak)} more")
    assert set(more.locator("article").evaluate_all("els => els.map(e => e.dataset.strength)")) == {"weak"}
    assert not page.locator(RESULTS).first.is_visible()
    more.locator("summary").click()
    assert page.locator(RESULTS).first.is_visible()
    # a confident match has no such message
    paste(page, vector("Xid 63 row remapping matches the HBM reference")["text"])
    assert page.locator("#match-results .perf-match__none").count() == 0


def test_empty_input_clears_the_results(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    paste(page, vector("ANSI-coloured thermal violation")["text"])
    assert listed(page)
    assert "Read 2 lines" in page.text_content("#match-status")  # two lines and a final line break
    assert paste(page, "") is None
    assert listed(page) == [] and page.inner_text("#match-results") == ""
    assert page.text_content("#match-status") == ""


HOSTILE = (
    "Detected clocks event due to thermal violation in GPU 0 <img src=x onerror=window.__pwned=1>\n"
    "<script>window.__pwned=1</script> <a href=\"javascript:window.__pwned=1\">click</a>\n"
    "<svg onload=window.__pwned=1></svg> <iframe src=\"javascript:window.__pwned=1\"></iframe>\n"
    "CUDA error: uncorrectable ECC error encountered <img src=x onerror=window.__pwned=1>\n"
)


def test_hostile_markup_is_shown_as_text(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    result = paste(page, HOSTILE)
    assert {"PERF-0005", "PERF-0006"} <= {r["id"] for r in result["results"]}
    page.wait_for_timeout(300)
    assert page.evaluate("typeof window.__pwned") == "undefined"
    for tag in ("img", "script", "svg", "iframe"):
        assert page.locator(f"#match-results {tag}").count() == 0, tag
    hrefs = page.eval_on_selector_all("#match-results a", "els => els.map(e => e.href)")
    assert hrefs and all(h.startswith(base_url) for h in hrefs)
    shown = page.locator("#match-results").text_content()
    assert "<img src=x onerror=window.__pwned=1>" in shown
    # clicking the highlighted text does nothing either
    page.locator("#match-results mark.perf-hit").first.click()
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert watched.errors == []
    assert watched.foreign_requests() == []


def test_no_request_after_the_index_is_loaded(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    paste(page, vector("single message line: DeepSpeed trace cache invalidation")["text"])
    loaded = list(watched.requests)
    assert any(u.endswith("/assets/match-index.js") for u in loaded)
    page.click("#match-input")
    page.keyboard.press("Control+A")
    page.keyboard.type("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, x) ran for 5 milliseconds before timing out")
    page.wait_for_selector(DONE, state="attached")
    assert listed(page)[0][0] == "PERF-0011"  # the collective-timeout triage reference, not a cause
    page.select_option("#match-hardware", "h100")
    page.wait_for_selector(DONE, state="attached")
    page.fill("#match-input", vector("vLLM stats line with zero throughput and waiting requests")["text"])
    page.wait_for_selector(DONE, state="attached")
    page.wait_for_timeout(500)
    assert watched.requests == loaded
    assert watched.foreign_requests() == []
    assert watched.errors == []


def test_large_and_capped_input(watched, base_url, twin, index):
    """A 1 MiB log equals the twin; beyond the 10 MiB cap the status says from which line."""
    page = watched.page
    open_matcher(page, base_url)
    block = (
        "[2024-05-06 12:00:00,123] INFO rank3: step 100 loss 2.345 lr 3.0e-4 tokens/s 51234 grad_norm 0.87\n"
        "[2024-05-06 12:00:00,456] INFO rank3: dataloader batch ready; waiting on allreduce bucket 17\n"
    )
    tail = vector(SHARED_WATCHDOG)["text"]
    cap = index["limits"]["input_cap"]
    for repeat in (1024 * 1024 // len(block), cap // len(block) + 1000):
        text = block * repeat + tail
        got = page.evaluate(
            """async ([block, repeat, tail]) => {
              const el = document.getElementById("match-input")
              el.value = block.repeat(repeat) + tail
              el.dispatchEvent(new Event("input", {bubbles: true}))
              await new Promise(r => { const t = setInterval(() => {
                if (document.getElementById("match-results").dataset.state === "done") { clearInterval(t); r() } }, 20) })
              return document.getElementById("match-results").__lastResult
            }""",
            [block, repeat, tail],
        )
        want = as_json(twin.match(text))
        assert got == want
        status = page.text_content("#match-status")
        assert f"Read {want['lines'] - 1} lines" in status  # the text ends with a line break
        if len(text) > cap:
            assert want["capped"] and want["skipped_lines"] > 0
            assert f"Your paste is larger than 10 MiB: only the last part was matched, from line {want['skipped_lines'] + 1}" in status
        else:
            assert not want["capped"] and "larger than" not in status
        assert [r["id"] for r in got["results"][:2]] == [e["id"] for e in vector(SHARED_WATCHDOG)["expect"]]
    assert watched.errors == []


def test_keyboard_reaches_everything(watched, base_url):
    page = watched.page
    open_matcher(page, base_url)
    paste(page, vector("Xid 63 row remapping matches the HBM reference")["text"])
    page.focus("#match-input")
    order = []
    for _ in range(8):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.id || document.activeElement.tagName"))
    assert order[:5] == ["match-framework", "match-hardware", "match-symptom", "match-versions", "match-clear"]
    assert "A" in order[5:]  # then the links of the results
    # the results container takes focus (Ctrl+Enter in the paste box jumps there)
    page.focus("#match-input")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(DONE, state="attached")
    assert page.evaluate("document.activeElement.id") == "match-results"


def test_instant_navigation_binds_once_and_ends_the_worker(watched, base_url, index):
    page = watched.page

    # Material follows a link instantly only if the sitemap lists it, and it matches
    # the sitemap's URLs by protocol and host but not port: point them at this server.
    def sitemap(route):
        response = route.fetch()
        body = re.sub(r"<loc>https?://[^/<]+/", f"<loc>{base_url}", response.text())
        route.fulfill(response=response, body=body)

    page.route("**/sitemap.xml", sitemap)
    page.goto(base_url, wait_until="networkidle")  # instant navigation needs the sitemap first
    assert page.locator("#match-input").count() == 0
    page.evaluate("window.__samePage = true")  # survives instant navigation, not a full load
    page.locator("a[href$='match/']:visible").first.click()
    page.wait_for_selector("#match-input")
    page.wait_for_selector("#match-framework option:nth-child(2)", state="attached")
    assert page.evaluate("window.__samePage") is True  # it was an instant navigation
    paste(page, vector("single message line: DeepSpeed trace cache invalidation")["text"])
    assert listed(page)[0] == ("PERF-0003", "message")
    assert len(page.workers) >= 1
    # leave by instant navigation: the worker goes
    page.locator("a[href$='references/']:visible").first.click()
    page.wait_for_selector("#catalogue-list", state="attached")
    page.wait_for_function("() => !document.getElementById('match-input')")
    page.wait_for_timeout(300)
    assert [w for w in page.workers if "match-worker" in w.url] == []
    # come back: one worker, one binding, results still right
    page.go_back()
    page.wait_for_selector("#match-input")
    assert page.evaluate("window.__samePage") is True
    page.wait_for_selector("#match-framework option:nth-child(2)", state="attached")
    assert page.locator("#match-framework option").count() == 1 + len(index["facets"]["framework"])
    paste(page, vector("Xid 63 row remapping matches the HBM reference")["text"])
    assert listed(page)[0] == ("PERF-0005", "message")
    assert len([w for w in page.workers if "match-worker" in w.url]) == 1
    assert watched.errors == []
    assert watched.foreign_requests() == []


def test_timing_probe_for_the_benchmark(watched, base_url, twin):
    """scripts/bench.py times the worker through window.__perfMatch; it draws nothing."""
    page = watched.page
    open_matcher(page, base_url)
    page.wait_for_function("() => window.__perfMatch && window.__perfMatch.ready")
    text = vector("Xid 63 row remapping matches the HBM reference")["text"]
    timing = page.evaluate("text => window.__perfMatch.time(text)", text)
    assert timing["match"] >= 0 and timing["total"] >= timing["match"]
    assert timing["result"] == as_json(twin.match(text))
    assert page.get_attribute("#match-results", "data-state") == "idle" and listed(page) == []


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}], ids=["desktop", "phone"])
def test_results_come_into_view_after_a_paste(browser, base_url, viewport):
    """A real paste (clipboard, Ctrl+V) brings the first result on screen and moves focus to the results."""
    context = browser.new_context(viewport=viewport, permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        open_matcher(page, base_url)
        text = vector("single message line: DeepSpeed trace cache invalidation")["text"]
        page.evaluate("text => navigator.clipboard.writeText(text)", text)
        page.click("#match-input")
        page.keyboard.press("Control+V")
        page.wait_for_selector(DONE + " article[data-ref-id]", state="attached")
        page.wait_for_function("() => document.activeElement && document.activeElement.id === 'match-results'")
        box = page.locator(RESULTS).first.bounding_box()
        assert box is not None and 0 <= box["y"] < viewport["height"] - 40, box
        # typing does not scroll: the reader keeps the box where it is
        page.evaluate("window.scrollTo(0, 0)")
        page.click("#match-input")
        page.keyboard.type(" ")
        page.wait_for_selector(DONE, state="attached")
        assert page.evaluate("window.scrollY") == 0
    finally:
        context.close()


def test_ticket_snippets_equal_the_cli(watched, base_url, twin):
    """The page's "copy for a ticket" texts are the ones perfref match --format markdown prints (report.py)."""
    page = watched.page
    open_matcher(page, base_url)
    result = paste(page, vector("shared watchdog line and an ECC error: the ECC cause leads, the timeout hub follows")["text"])
    shown = [r for r in result["results"] if r["strength"] != "weak"]
    assert shown
    for r in shown:
        article = page.locator(f'#match-results article[data-ref-id="{r["id"]}"]')
        for fmt in ("markdown", "jira", "url"):
            assert article.locator(f'[data-copy-format="{fmt}"]').get_attribute("data-copy-text") == \
                report.ticket_text(r, fmt, base_url), (r["id"], fmt)


def test_stated_releases_count_before_the_logs(watched, base_url, twin):
    """'Releases you run' on the page: a message those releases do not print counts for less, and says why."""
    page = watched.page
    open_matcher(page, base_url)
    text = vector("NCCL 2.29 log with the affinity line removed in 2.28.3: counts for less")["text"].split("\n", 1)[1]
    paste(page, text)  # the NCCL line alone: no release in the log
    page.fill("#match-versions", "NCCL 2.29.2")
    page.wait_for_selector(DONE, state="attached")
    got = page.evaluate("() => document.getElementById('match-results').__lastResult")
    assert got == json.loads(json.dumps(twin.match(text, versions={"nccl": "2.29.2"})))
    assert got["versions"] == [{"software": "nccl", "version": "2.29.2", "line": None}]
    notes = page.locator("#match-results .perf-evidence__versions").all_text_contents()
    assert any("you run NCCL 2.29.2, which does not print this wording" in n for n in notes)
    page.click("#match-clear")
    assert page.input_value("#match-versions") == ""
    assert watched.errors == []
