/* The matcher page (/match/): the paste box, the context selects and the results.
 *
 * Matching runs in match-worker.js; this file only sends the text and draws what
 * comes back, with DOM nodes and textContent (pasted text never meets innerHTML).
 * Contract: #match-results carries data-state="running" while a run is pending and
 * "done" after each finished run; each result is an <article> with data-ref-id and
 * data-strength, in rank order. The last result object is kept on the results
 * element as `__lastResult` (the tests compare it with the Python twin), and
 * window.__perfMatch.time(text) times one worker run (scripts/bench.py uses it).
 *
 * Large texts stay out of the paste box. A browser lays out all of a textarea's
 * text on the main thread: 8 MiB in a textarea blocks the page for about two
 * seconds and 50 MiB for over twenty (Chromium 156, measured on a bare page). So a
 * paste, a drop or an input event that brings more than BOX_LIMIT characters keeps
 * the text in memory, shows only its last PREVIEW characters in the box, and sends
 * the whole text to the worker; a log file (chosen in #match-file or dropped on the
 * box) is read by the worker itself, and the page reads only its end for the box.
 * Editing the box afterwards matches what the box shows.
 *
 * Bound to Material's instant navigation: the script may be evaluated again on
 * each visit, but it subscribes to document$ once and binds each page once; the
 * worker of a page that was left is terminated.
 */
(function () {
  "use strict"
  if (window.__perfMatchPage) return
  window.__perfMatchPage = true

  var DEBOUNCE_MS = 250
  var BOX_LIMIT = 256 * 1024 // characters: a longer text is kept out of the paste box
  var PREVIEW = 64 * 1024 // characters of its end that the box shows instead
  var KEEP_BOM = new TextDecoder("utf-8", { ignoreBOM: true })
  var FACET_NAMES = { framework: "Framework", hardware: "Hardware", symptom: "Symptom" }
  var EXCERPT = 200 // characters shown on each side of a highlighted span
  var active = null

  function el(tag, attrs, children) {
    var node = document.createElement(tag)
    if (attrs) Object.keys(attrs).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k]
      else if (k === "className") node.className = attrs[k]
      else node.setAttribute(k, attrs[k])
    })
    ;(children || []).forEach(function (child) {
      if (child === null || child === undefined) return
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child)
    })
    return node
  }

  function teardown() {
    if (!active) return
    clearTimeout(active.timer)
    if (active.worker) active.worker.terminate()
    active = null
    window.__perfMatch = null
  }

  function setup() {
    var input = document.getElementById("match-input")
    if (active && active.input === input) return
    teardown()
    if (!input || input.getAttribute("data-bound")) return
    var results = document.getElementById("match-results")
    var status = document.getElementById("match-status")
    var config = document.querySelector("script[data-worker]")
    if (!results || !status || !config) return
    input.setAttribute("data-bound", "1")

    var here = location.href
    function resolve(name) {
      return new URL(config.getAttribute(name), here).href
    }
    var base = resolve("data-base")
    var catalogue = resolve("data-catalogue")
    var selects = Array.prototype.slice.call(document.querySelectorAll("#match-form select[data-facet]"))
    var form = document.getElementById("match-form")
    // matching follows each change; the form is never sent anywhere
    if (form) form.addEventListener("submit", function (event) { event.preventDefault() })
    var clear = document.getElementById("match-clear")
    var fileInput = document.getElementById("match-file")
    var progressBox = document.getElementById("match-progress-box")
    var progressBar = document.getElementById("match-progress")
    var progressText = document.getElementById("match-progress-text")
    var cancel = document.getElementById("match-cancel")
    var versionsInput = document.getElementById("match-versions")
    var software = {} // name -> label, from the index
    var labels = {} // facet -> value -> label
    var limits = null
    var state = { input: input, worker: null, timer: 0 }
    var wanted = 0, busy = false, needsSend = false, ready = false
    // The text being matched when it is not the box's: {text} or {file}, with its
    // size, what brought it ("paste", "drop", "box", "file") and whether it ends
    // with a line break.
    var outside = null
    var timings = new Map(), timingSeq = 0
    var reveal = false // scroll the next answer into view (after a paste, a drop or a file)
    active = state

    /* For scripts/bench.py: time one run of the worker without drawing it. */
    var probe = window.__perfMatch = {
      ready: false,
      time: function (text, given) {
        return new Promise(function (resolve, reject) {
          if (!ready) return reject(new Error("the match index is not loaded yet"))
          var id = "time-" + ++timingSeq
          timings.set(id, { resolve: resolve, reject: reject, t0: performance.now() })
          state.worker.postMessage({ type: "match", id: id, text: String(text), stated: given || {} })
        })
      },
      /* The same for a File or Blob, read by the worker in chunks. */
      timeFile: function (file, given) {
        return new Promise(function (resolve, reject) {
          if (!ready) return reject(new Error("the match index is not loaded yet"))
          var id = "time-" + ++timingSeq
          timings.set(id, { resolve: resolve, reject: reject, t0: performance.now() })
          state.worker.postMessage({ type: "match", id: id, file: file, stated: given || {} })
        })
      }
    }

    function setState(value) {
      results.setAttribute("data-state", value)
      results.setAttribute("aria-busy", value === "running" ? "true" : "false")
    }

    /* "nccl 2.21.5, PyTorch=2.5.1": software names (or labels) from the index, each with a release. */
    function statedVersions() {
      var out = {}
      if (!versionsInput) return out
      versionsInput.value.split(/[,;]+/).forEach(function (item) {
        var m = /^\s*([A-Za-z][\w.-]*?)\s*[= ]\s*v?(\d+(?:\.\d+)*)\s*$/.exec(item)
        if (!m) return
        var name = m[1].toLowerCase()
        Object.keys(software).forEach(function (key) {
          if (key === name || software[key].toLowerCase() === name) out[key] = m[2]
        })
      })
      return out
    }

    function stated() {
      var out = {}
      selects.forEach(function (select) { out[select.getAttribute("data-facet")] = select.value })
      return out
    }

    // The match index links to folders ("references/x/"); a build without directory
    // URLs (the offline one, for file://) has references/x.html instead.
    var pageFiles = config.getAttribute("data-pages") === "files"

    function refHref(ref, hash) {
      var url = new URL(ref.url, base)
      if (pageFiles && /\/$/.test(url.pathname)) url.pathname = url.pathname.replace(/\/$/, ".html")
      if (hash) url.hash = hash
      return url.href
    }

    /* ---- Running ---- */

    function schedule(delay) {
      clearTimeout(state.timer)
      setState("running")
      state.timer = setTimeout(request, delay)
    }

    function request() {
      clearTimeout(state.timer)
      wanted++
      if (outside === null && input.value === "") {
        needsSend = false
        showEmpty()
        return
      }
      needsSend = true
      setState("running")
      if (!ready) status.textContent = "Loading the match index…"
      pump()
    }

    function pump() {
      if (!ready || busy || !needsSend) return
      needsSend = false
      busy = true
      var msg = { type: "match", id: wanted, stated: stated(), versions: statedVersions() }
      if (outside && outside.file) msg.file = outside.file // read by the worker
      else msg.text = outside ? outside.text : input.value
      state.worker.postMessage(msg)
    }

    /* ---- Large texts and files ---- */

    function endsWithBreak(text) {
      var last = text.charCodeAt(text.length - 1)
      return last === 10 || last === 13
    }

    /* The last PREVIEW characters of text for the box, from a line start if there is one. */
    function previewOf(text) {
      var from = Math.max(0, text.length - PREVIEW)
      var newline = text.indexOf("\n", from)
      return newline >= 0 && newline < text.length - 1 ? text.slice(newline + 1) : text.slice(from)
    }

    function keepText(text, how) {
      reveal = true
      outside = { text: text, size: text.length, how: how, newline: endsWithBreak(text) }
      input.value = previewOf(text) // a plain assignment fires no input event
      schedule(DEBOUNCE_MS)
    }

    function keepFile(file) {
      reveal = true
      if (fileInput && fileInput.files[0] !== file) fileInput.value = ""
      setState("running")
      clearTimeout(state.timer)
      status.textContent = "Reading " + file.name + "…"
      var small = file.size <= BOX_LIMIT
      // decoded as the worker and the Python twin decode a file: a byte-order mark stays a character
      var read = (small ? file : file.slice(Math.max(0, file.size - PREVIEW * 2))).arrayBuffer().then(function (buffer) {
        return KEEP_BOM.decode(buffer)
      })
      var mine = outside = { file: file, size: file.size, how: "file", name: file.name, newline: false }
      read.then(function (text) {
        if (outside !== mine) return
        if (small) {
          outside = null
          input.value = text
        } else {
          mine.newline = endsWithBreak(text)
          input.value = previewOf(text)
        }
        request()
      }, function (err) {
        if (outside === mine) outside = null
        failed("the file could not be read (" + err.message + ")")
      })
    }

    function sizeLabel(n, unit) {
      return n >= 1048576 ? (n / 1048576).toFixed(1) + " MiB" : n >= 1024 ? Math.round(n / 1024) + " KiB" : n + " " + unit
    }

    function outsideNote() {
      if (!outside) return ""
      var what = outside.file
        ? "the file " + outside.name + " (" + sizeLabel(outside.size, "bytes") + ")"
        : "your " + sizeLabel(outside.size, "characters") + " " + (outside.how === "drop" ? "drop" : "paste")
      return " The box shows only the end of " + what + "; editing the box matches just what it shows."
    }

    function showEmpty() {
      results.__lastResult = null
      results.replaceChildren()
      status.textContent = ""
      setState("done")
    }

    function failed(message) {
      busy = false
      status.textContent = "The matcher could not run: " + message
      setState("done")
    }

    /* Where no worker can start (Chromium refuses workers on file://, and the offline
     * build's iframe shim answers only the last worker it started: Material's search),
     * match-worker.js runs in this page instead: the same code and the same messages,
     * answered on the main thread a task later. A file is read here first. */
    function inPageWorker() {
      var fake = { onmessage: null, onerror: null, dead: false }
      var loaded = ["data-index", "data-tells", "data-worker"].reduce(function (chain, name) {
        return chain.then(function () {
          return new Promise(function (done, fail) {
            var script = document.createElement("script")
            script.src = resolve(name)
            script.onload = done
            script.onerror = function () { fail(new Error("could not load " + config.getAttribute(name))) }
            document.head.appendChild(script)
          })
        })
      }, Promise.resolve())
      function reply(msg) {
        if (!fake.dead && msg && fake.onmessage) fake.onmessage({ data: msg })
      }
      fake.postMessage = function (data) {
        loaded.then(function () {
          if (data.file === undefined) return data
          return data.file.arrayBuffer().then(function (buffer) {
            return { type: data.type, id: data.id, text: KEEP_BOM.decode(buffer), stated: data.stated }
          })
        }).then(function (data) {
          setTimeout(function () { if (!fake.dead) reply(window.__matchAnswer(data)) }, 0)
        }, function (err) {
          reply({ type: "error", id: data.id, message: err.message })
        })
      }
      fake.terminate = function () { fake.dead = true }
      return fake
    }

    function start() {
      var worker = null
      if (location.protocol !== "file:") {
        try {
          worker = new Worker(resolve("data-worker"))
        } catch (err) {
          worker = null // e.g. a policy that forbids workers: run in the page
        }
      }
      if (!worker) worker = inPageWorker()
      state.worker = worker
      worker.onmessage = function (ev) {
        if (active !== state) return
        var msg = ev.data
        var timing = timings.get(msg.id)
        if (timing && msg.type === "progress") return
        if (timing) {
          timings.delete(msg.id)
          if (msg.type === "result") {
            timing.resolve({ match: msg.ms, total: performance.now() - timing.t0, result: msg.result })
          } else {
            timing.reject(new Error(msg.message))
          }
          return
        }
        if (msg.type === "ready") {
          ready = true
          probe.ready = true
          limits = msg.limits
          software = msg.software || {}
          fillSelects(msg.facets)
          pump()
        } else if (msg.type === "progress") {
          if (msg.id === wanted) showProgress(msg)
        } else if (msg.type === "result") {
          busy = false
          hideProgress()
          if (msg.id === wanted) {
            render(msg.result, msg.ms)
            setState("done")
          } else {
            pump()
          }
        } else if (msg.type === "error") {
          hideProgress()
          failed(msg.message)
        }
      }
      worker.onerror = function (ev) {
        ev.preventDefault()
        if (active === state) failed(ev.message || "the worker stopped")
      }
      worker.postMessage({ type: "init", index: resolve("data-index"), tells: resolve("data-tells") })
    }

    /* A file's progress: bytes read of the whole and, from the rate so far, the time left. */
    function showProgress(msg) {
      if (!progressBox) return
      progressBox.hidden = false
      progressBar.max = msg.total
      progressBar.value = msg.read
      var left = msg.read && msg.read < msg.total ? (msg.total - msg.read) * msg.ms / msg.read / 1000 : 0
      progressText.textContent = "Read " + sizeLabel(msg.read, "bytes") + " of " + sizeLabel(msg.total, "bytes") +
        (left >= 1 ? ", about " + Math.round(left) + " s left" : "")
    }

    function hideProgress() {
      if (progressBox) progressBox.hidden = true
    }

    /* Cancel a file being read: the worker is busy reading, so it is replaced by a new one. */
    function cancelRead() {
      if (!busy) return
      state.worker.terminate()
      busy = false
      ready = false
      needsSend = false
      wanted++
      hideProgress()
      status.textContent = "Cancelled: the file was not matched. Open it again to read all of it."
      results.replaceChildren()
      results.__lastResult = null
      results.setAttribute("data-state", "cancelled")
      results.setAttribute("aria-busy", "false")
      start()
    }
    if (cancel) cancel.addEventListener("click", cancelRead)

    function fillSelects(facets) {
      selects.forEach(function (select) {
        var facet = select.getAttribute("data-facet")
        var values = (facets[facet] || []).slice().sort(function (a, b) {
          return a.label.localeCompare(b.label)
        })
        labels[facet] = {}
        var keep = select.value
        while (select.options.length > 1) select.remove(1)
        values.forEach(function (v) {
          labels[facet][v.value] = v.label
          select.appendChild(el("option", { value: v.value, text: v.label }))
        })
        if (keep) select.value = keep
      })
    }

    /* ---- Drawing ---- */

    function facetLabel(facet, value) {
      return (labels[facet] && labels[facet][value]) || value
    }

    function plural(n, one, many) {
      return n + " " + (n === 1 ? one : many)
    }

    function capLabel() {
      var cap = limits ? limits.input_cap : 10 * 1024 * 1024
      return cap % 1048576 === 0 ? cap / 1048576 + " MiB" : cap + " characters"
    }

    function matchedLine(ev) {
      var text = ev.text, s = ev.start, e = ev.end
      var from = Math.max(0, s - EXCERPT), to = Math.min(text.length, e + EXCERPT)
      return el("pre", { className: "perf-evidence__line" }, [
        el("code", null, [
          from > 0 ? "…" : null,
          text.slice(from, s),
          el("mark", { className: "perf-hit", text: text.slice(s, e) }),
          text.slice(e, to),
          to < text.length ? "…" : null
        ])
      ])
    }

    function evidenceWhat(ev, r) {
      if (ev.kind === "named") {
        return "words that name this symptom (" + facetLabel("symptom", ev.symptoms[0]).toLowerCase() + "): "
      }
      if (ev.kind === "learned") {
        return "words that reports of this symptom use (" + facetLabel("symptom", ev.symptoms[0]).toLowerCase() +
          "), learned from labelled reports; no keyword names it: "
      }
      if (ev.kind === "subject") {
        return "words for what this failure is about, beside its symptom (" +
          ev.symptoms.map(function (v) { return facetLabel("symptom", v).toLowerCase() }).join(", ") + "): "
      }
      if (ev.kind !== "message") {
        return ev.near ? "context this failure leaves, just before the symptom on line " + ev.near + ": "
          : "context this failure leaves: "
      }
      if (ev.version_note) return "a message this failure prints in other releases: "
      if (ev.numbers) {
        return ev.numbers.holds ? "a line many failures print, whose numbers point to this cause: "
          : "a line many failures print; its numbers do not point to this cause: "
      }
      if (ev.generic) return "a line many failures print (the symptom, not this cause): "
      return r.kind === "triage" ? "a line of this symptom: " : "a message this failure prints: "
    }

    function evidenceList(r) {
      if (!r.evidence.length) return null
      return el("ul", { className: "perf-evidence" }, r.evidence.map(function (ev) {
        return el("li", { className: "perf-evidence__item" }, [
          el("p", { className: "perf-evidence__what" }, [
            el("span", { className: "perf-evidence__lineno", text: "Line " + ev.line }),
            ": " + evidenceWhat(ev, r),
            el("code", { className: "perf-evidence__template", text: ev.display }),
            ev.count > 1 ? el("span", { className: "perf-evidence__count", text: " ×" + ev.count + " lines" }) : null
          ]),
          matchedLine(ev),
          ev.numbers ? el("p", { className: "perf-evidence__numbers", text: "The numbers: " + ev.numbers.says + "." }) : null,
          ev.versions || ev.version_note ? el("p", { className: "perf-evidence__versions" }, [
            ev.versions ? "This wording: " + ev.versions + "." : null,
            ev.version_note ? " Counts for less: " + ev.version_note + "." : null
          ]) : null
        ])
      }))
    }

    function contextLine(r) {
      if (!r.context.length) return null
      var parts = ["Context agrees: "]
      r.context.forEach(function (c, k) {
        if (k) parts.push("; ")
        parts.push(FACET_NAMES[c.facet] || c.facet)
        parts.push(" ")
        parts.push(el("strong", { text: facetLabel(c.facet, c.value) }))
        parts.push(c.stated ? " (you said so)" : " (seen in the text)")
      })
      return el("p", { className: "perf-result__context" }, parts)
    }

    function checksLine(r) {
      var parts = []
      if (r.checks.length) {
        parts.push(r.kind === "triage" ? "Start with: " : "Check first: ")
        r.checks.forEach(function (c, k) {
          if (k) parts.push(", ")
          parts.push(el("a", { href: refHref(r, "check-" + c.id), text: c.title }))
        })
        parts.push(". ")
      }
      parts.push(el("a", { href: refHref(r, "evidence-checks"), text: "All evidence checks for " + r.id }))
      return el("p", { className: "perf-result__checks" }, parts)
    }

    function versusNote(r) {
      var v = r.versus
      if (!v) return null
      var other = { url: v.slug ? "references/" + v.slug + "/" : "" }
      return el("div", { className: "perf-result__versus", role: "note" }, [
        el("p", null, [
          el("strong", { text: "Close call with " + v.id + ". " }),
          "What tells them apart: " + v.tell + " ",
          el("a", { href: refHref(other), text: "Read " + v.id + ": " + v.title })
        ]),
        v.check ? el("p", null, [
          "The check that separates them: ",
          el("a", { href: new URL(v.check.url, base).href, text: v.check.title })
        ]) : null
      ])
    }

    /* The ticket snippets: the same text perfref match --format markdown prints. */
    function ticketText(r, format) {
      var url = refHref(r)
      if (format === "url") return url
      var lines = r.evidence.filter(function (ev) { return ev.kind === "message" }).slice(0, 3)
      var checks = r.checks.map(function (c) { return [c.title, refHref(r, "check-" + c.id)] })
      var label = r.id + ": " + r.title
      if (format === "jira") {
        return ["[" + label.replace(/([\[\]|])/g, "\\$1") + "|" + url + "] (" + r.label + ")"]
          .concat(lines.map(function (ev) { return "* line " + ev.line + ": {noformat}" + ev.text.slice(0, 300) + "{noformat}" }))
          .concat(checks.length ? ["Checks to run first:"] : [])
          .concat(checks.map(function (c) { return "* [" + c[0].replace(/([\[\]|])/g, "\\$1") + "|" + c[1] + "]" }))
          .join("\n")
      }
      return ["[" + label.replace(/([\[\]])/g, "\\$1") + "](" + url + ") (" + r.label + ")"]
        .concat(lines.map(function (ev) { return "- line " + ev.line + ": `" + ev.text.slice(0, 300).replace(/`/g, "'") + "`" }))
        .concat(checks.length ? ["", "Checks to run first:"] : [])
        .concat(checks.map(function (c) { return "- [" + c[0].replace(/([\[\]])/g, "\\$1") + "](" + c[1] + ")" }))
        .join("\n")
    }

    function copyControls(r) {
      var formats = [["markdown", "Markdown"], ["jira", "Jira"], ["url", "URL"]]
      return el("div", { className: "perf-cite", role: "group", "aria-label": "Copy " + r.id + " for a ticket" },
        [el("span", { className: "perf-cite__label", text: "Copy for a ticket:" })].concat(formats.map(function (f) {
          return el("button", {
            type: "button", className: "md-button perf-copy", "data-copy-format": f[0],
            "data-copy-text": ticketText(r, f[0]), text: f[1]
          })
        }), [el("span", { className: "perf-cite__status", role: "status", "aria-live": "polite" })]))
    }

    function resultNode(r, rank) {
      var colon = r.label.indexOf(":")
      return el("article", {
        className: "perf-result",
        "data-ref-id": r.id,
        "data-strength": r.strength,
        "aria-label": "Result " + rank + ": " + r.id
      }, [
        el("h3", { className: "perf-result__title" }, [
          el("a", { href: refHref(r), text: r.id + ": " + r.title })
        ]),
        el("p", { className: "perf-result__strength" }, [
          el("span", { className: "perf-strength", text: colon > 0 ? r.label.slice(0, colon) : r.label }),
          colon > 0 ? " " + r.label.slice(colon + 1).trim() : null
        ]),
        versusNote(r),
        evidenceList(r),
        contextLine(r),
        checksLine(r),
        copyControls(r)
      ])
    }

    function noConfidentMatch() {
      return el("div", { className: "perf-match__none", role: "note" }, [
        el("p", null, [
          el("strong", { text: "No confident match." }),
          " No message that a known failure prints, no symptom line and not enough context matched this text. "
        ]),
        el("p", null, [
          el("a", { href: catalogue, className: "perf-match__browse", text: "Browse the catalogue" }),
          " by symptom, hardware and framework, or search the site for a word from your log " +
          "(the search box at the top; the / key jumps to it)."
        ])
      ])
    }

    function render(result, ms) {
      results.__lastResult = result
      var nodes = []
      var strong = result.results.filter(function (r) { return r.strength !== "weak" })
      var weak = result.results.filter(function (r) { return r.strength === "weak" })
      if (!result.confident) nodes.push(noConfidentMatch())
      strong.forEach(function (r, k) { nodes.push(resultNode(r, k + 1)) })
      if (weak.length) {
        var more = el("details", { className: "perf-match__more" }, [
          el("summary", { text: "Show " + plural(weak.length, "more reference", "more references") +
            " with related words only" })
        ])
        weak.forEach(function (r, k) { more.appendChild(resultNode(r, strong.length + k + 1)) })
        nodes.push(more)
      }
      results.replaceChildren.apply(results, nodes)

      // result.lines counts the empty line after a final line break; a reader does not
      var read = result.lines - ((outside ? outside.newline : /\n$/.test(input.value)) ? 1 : 0)
      var parts = ["Read " + plural(read, "line", "lines") + "; "]
      parts.push(strong.length
        ? plural(strong.length, "reference fits", "references fit")
        : "no confident match")
      if (weak.length) parts.push(", " + weak.length + " more with related words only")
      parts.push(" (matched in " + Math.max(0, ms).toFixed(ms < 10 ? 1 : 0) + " ms).")
      if (result.capped) {
        parts.push(" Your " + (outside && outside.file ? "file" : "paste") + " is larger than " + capLabel() +
          ": only the last part was matched, from line " + (result.skipped_lines + 1) + ".")
      }
      parts.push(outsideNote())
      status.textContent = parts.join("")
      if (reveal) {
        reveal = false
        bringIntoView()
      }
    }

    /* After a paste, a drop or a file, the answer is below the box: show its start and
     * move focus there, so that keyboard and screen-reader users land on it too. */
    function bringIntoView() {
      var target = results.firstElementChild || results
      var rect = target.getBoundingClientRect()
      if (rect.top < 0 || rect.top > window.innerHeight - 120) {
        status.scrollIntoView({ block: "start" })
      }
      results.focus({ preventScroll: true })
    }

    /* ---- Events ---- */

    input.addEventListener("input", function () {
      // A text too large for the box (set by a script, or a paste that the handler
      // below did not see) leaves it before the browser lays it out.
      if (input.value.length > BOX_LIMIT) return keepText(input.value, "box")
      outside = null
      schedule(DEBOUNCE_MS)
    })
    function carries(data, type) {
      return !!data && Array.prototype.indexOf.call(data.types || [], type) >= 0
    }
    input.addEventListener("paste", function (ev) {
      var data = ev.clipboardData
      if (!data) return
      if (data.files && data.files.length && !carries(data, "text/plain")) {
        ev.preventDefault()
        return keepFile(data.files[0])
      }
      var text = data.getData("text/plain")
      reveal = true
      if (text.length <= BOX_LIMIT) return // the browser inserts it as usual
      ev.preventDefault() // a large paste replaces the box's text
      keepText(text, "paste")
    })
    input.addEventListener("dragover", function (ev) {
      if (carries(ev.dataTransfer, "Files")) ev.preventDefault() // take a dropped file instead of opening it
    })
    input.addEventListener("drop", function (ev) {
      var data = ev.dataTransfer
      if (!data) return
      if (data.files && data.files.length) {
        ev.preventDefault()
        return keepFile(data.files[0])
      }
      var text = data.getData("text/plain")
      if (text.length <= BOX_LIMIT) return
      ev.preventDefault()
      keepText(text, "drop")
    })
    if (fileInput) fileInput.addEventListener("change", function () {
      if (fileInput.files.length) keepFile(fileInput.files[0])
    })
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
        ev.preventDefault()
        request()
        results.focus()
      }
    })
    selects.forEach(function (select) {
      select.addEventListener("change", function () { schedule(DEBOUNCE_MS) })
    })
    if (versionsInput) versionsInput.addEventListener("input", function () { schedule(DEBOUNCE_MS) })
    if (clear) clear.addEventListener("click", function () {
      outside = null
      if (fileInput) fileInput.value = ""
      input.value = ""
      if (versionsInput) versionsInput.value = ""
      selects.forEach(function (select) { select.value = "" })
      request()
      input.focus()
    })

    start()
    if (input.value !== "") request()
  }

  function subscribe() {
    if (typeof document$ !== "undefined") document$.subscribe(setup)
    else setup()
  }
  // On a full load this script runs inside the page content, before Material's bundle
  // defines document$; on instant navigation it is evaluated again (and returns above).
  if (typeof document$ !== "undefined") subscribe()
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", subscribe)
  else subscribe()
})()
