"""The page sections rendered from the data: reference pages, catalogue, facet pages.

Everything here returns Markdown (or HTML inside Markdown) from validated data;
nothing in the front matter is typed again in a page body. Links between pages
are written as relative ``.md`` links so that ``mkdocs build --strict`` checks them.
"""

from __future__ import annotations

import re
from html import escape

from .. import wording_checks
from ..load import Catalogue, Page
from ..model import FACETS, SOFTWARE, Versions
from ..templates import readable

CAVEAT = (
    "A matching message alone does not confirm this cause: run the checks before you act on it."
)
FACET_TITLES = {"symptom": "Symptom", "hardware": "Hardware", "framework": "Framework"}
# Stable section anchors: tickets cite them, so they never change (a heading may be reworded).
ANCHORS = {
    "Start here": "start-here",
    "What the sources support": "what-the-sources-support",
    "What you may see": "what-you-may-see",
    "What it looks like in a real log": "real-log-examples",
    "Other clues": "context-signals",  # the anchor keeps its first name: tickets cite it
    "Decision path": "decision-path",
    "Possible causes": "possible-causes",
    "Evidence checks": "evidence-checks",
    "Look-alikes": "look-alikes",
    "Mitigations": "mitigations",
    "Sources": "sources",
    "Related references": "related",
}


def fence(text: str, lang: str = "text") -> str:
    """A fenced code block that no backtick run inside ``text`` can close."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks} {lang}\n{text.rstrip()}\n{ticks}"


def _heading(name: str, level: int = 2, text: str | None = None) -> str:
    return f"{'#' * level} {text or name} {{ #{ANCHORS[name]} }}"


def _folded(summary: str, markdown: str, css: str = "perf-fold") -> list[str]:
    """A section body folded under a one-line summary (open-anchor.js opens it for a link into it)."""
    return [f'<details class="{css}" markdown>', f"<summary>{summary}</summary>", "", markdown, "", "</details>", ""]


def _check_block(number: int, check, software: dict) -> list[str]:
    return [
        f"### {number}. {check.title} {{ #check-{check.id} }}",
        "",
        fence(check.run),
        "",
        *([f"<small>{_versions_html(check.versions, software, 'Holds for')}</small>", ""] if check.versions else []),
        f"**Confirms:** {check.confirms}",
        "",
        f"**Refutes:** {check.refutes}",
        "",
    ]


def facet_link(catalogue: Catalogue, facet: str, value: str, prefix: str) -> str:
    label = catalogue.facets[facet][value]["label"]
    return f"[{label}]({prefix}facets/{facet}/{value}.md){{ .perf-chip .perf-chip--{facet} title=\"{FACET_TITLES[facet]}\" }}"


def version_range(versions: Versions, software: dict) -> str:
    """"NCCL ≥ 2.28.3", "DCGM ≥ 2.2, < 3.3.1": until is the first release that no longer prints it."""
    name = software.get(versions.software, {}).get("label", versions.software)
    bounds = [f"≥ {versions.since}" if versions.since else "", f"< {versions.until}" if versions.until else ""]
    return f"{name} {', '.join(b for b in bounds if b) or '(every release checked)'}"


def versions_text(items: list[Versions], software: dict) -> str:
    return "; ".join(version_range(v, software) for v in items)


def _versions_html(items: list[Versions], software: dict, label: str) -> str:
    if not items:
        return ""
    return f'<span class="perf-versions">{label}: {escape(versions_text(items, software))}</span>'


def checked_text(ref_id: str, text: str, versions: list[Versions], software: dict, record: dict | None) -> str:
    """What the wording watch's last run found for one wording, per software its ranges name.

    "checked in torch 2.9.1 on 2026-12-04: found"; without an entry (the software is
    not on PyPI, the template changed since the run) it says that it was not checked.
    """
    entries = wording_checks.entries_by_wording(record)
    out = []
    for name in dict.fromkeys(v.software for v in versions):
        entry = entries.get(wording_checks.key(ref_id, text, name))
        label = software.get(name, {}).get("label", name)
        if entry:
            date = (record["software"].get(name) or {}).get("date", record["date"])
            status = entry["status"]
            if status == "not checkable":  # the reason's first clause: "not checkable: download failed"
                status = ": ".join(entry.get("detail", status).split(": ")[:2])
            elif "in parts" in entry.get("detail", ""):
                status = "found in parts"
            elif status == "absent":  # the watch reads strings: a message built at run time may be missed
                status = ("not found, as its closed range says" if any(v.until for v in versions if v.software == name)
                          else "absent (not found in the release's strings)")
            out.append(f"checked in {entry['release']} on {date}: {status}")
        elif not software.get(name, {}).get("pypi"):
            out.append(f"not checked by the wording watch: {label} is not published on PyPI")
        elif not record or name not in record.get("software", {}):
            out.append(f"not checked by the wording watch: no recorded run covers {label}")
        else:
            out.append(f"not checked by the wording watch: written or reworded after its run of "
                       f"{record['software'][name]['date']}")
    return "; ".join(out)


def checked_summary(ref, record: dict | None) -> str:
    """One line for the page: the newest releases its wordings were checked against, and when."""
    entries = wording_checks.entries_by_wording(record)
    names = dict.fromkeys(v.software for item in (*ref.messages, *ref.signals) for v in item.versions
                          if wording_checks.key(ref.id, item.text, v.software) in entries)
    if not names:
        return "No wording on this page was checked by the wording watch: each says why."
    by_date: dict[str, list[str]] = {}
    for name in names:
        info = record["software"].get(name) or {"date": record["date"], "releases": []}
        by_date.setdefault(info["date"], []).extend(info["releases"])
    return "Wordings checked against the newest releases " + "; ".join(
        f"on {date}: {', '.join(releases)}" for date, releases in sorted(by_date.items(), reverse=True)) + "."


def _ref_link(page: Page, prefix: str = "") -> str:
    return f"[{page.ref.id}: {page.ref.title}]({prefix}{page.slug}.md)"


def copy_link_html(page: Page, site_url: str, rebase: bool = False) -> str:
    """Buttons that copy a citation for a ticket (the JS lives in copy-link.js).

    ``rebase``: the build has no canonical address (a local preview), so copy-link.js
    puts the address the page is really served from in place of ``site_url``.
    """
    url = f"{site_url.rstrip('/')}/{page.url}"
    label = f"{page.ref.id}: {page.ref.title}"
    # brackets (and Jira's '|') in a title would end the link text early
    markdown_label = re.sub(r"([\[\]])", r"\\\1", label)
    jira_label = re.sub(r"([\[\]|])", r"\\\1", label)
    formats = {
        "markdown": ("Markdown", f"[{markdown_label}]({url})"),
        "jira": ("Jira", f"[{jira_label}|{url}]"),
        "url": ("URL", url),
    }
    buttons = "".join(
        f'<button type="button" class="md-button perf-copy" data-copy-format="{key}" '
        f'data-copy-text="{escape(text)}">{name}</button>'
        for key, (name, text) in formats.items()
    )
    rebased = f' data-rebase="{escape(site_url.rstrip("/") + "/")}"' if rebase else ""
    return (
        f'<div class="perf-cite" role="group" aria-label="Copy a link to {escape(page.ref.id)} for a ticket"{rebased}>'
        f'<span class="perf-cite__label">Copy link for a ticket:</span>{buttons}'
        f'<span class="perf-cite__status" role="status" aria-live="polite"></span></div>'
    )


def reference_markdown(page: Page, catalogue: Catalogue, site_url: str, rebase: bool = False,
                       record: dict | None = None) -> str:
    """A reference page in the order an incident reads it.

    What it is (title, facets, summary), what to do first (a triage page's decision
    path, a cause's settling checks), what it looks like, the causes, the other checks,
    look-alikes, mitigations; then the provenance, folded, and the sources.
    ``record``: the wording watch's record (perfref.wording_checks.load), shown beside each wording.
    """
    ref = page.ref
    software = catalogue.facets[SOFTWARE]
    out = _page_head(page, catalogue, site_url, rebase)

    checks = ref.checks_in_reading_order
    first = ref.first_checks
    if ref.kind == "triage":
        out += [_heading("Decision path", text="Start here: the decision path"), "", page.sections["Decision path"], ""]
    else:
        out += [_heading("Start here", text="Start here: the check" + ("s" if len(first) > 1 else "") + " that settle it"), ""]
        for number, check in enumerate(first, 1):
            out += _check_block(number, check, software)

    out += _what_you_may_see(ref, software, record)
    out += [_heading("Possible causes"), "", page.sections["Possible causes"], ""]

    out += [_heading("Evidence checks"), ""]
    rest = checks[len(first):]
    if first and rest:
        out += ["Run these when the checks under [Start here](#start-here) leave the question open.", ""]
    elif first:
        out += ["The checks that settle it are under [Start here](#start-here).", ""]
    for number, check in enumerate(rest, len(first) + 1):
        out += _check_block(number, check, software)

    out += [_heading("Look-alikes"), ""]
    for look in ref.lookalikes:
        separator = f" Check that separates them: [{_check_title(ref, look.check)}](#check-{look.check})." if look.check else ""
        if look.slug:
            other = catalogue.by_slug(look.slug)
            out.append(f"- {_ref_link(other)}: {look.tell}{separator}")
        else:
            out.append(f"- [{look.title}]({look.url}) (external): {look.tell}{separator}")
    out.append("")

    out += [_heading("Mitigations"), "", page.sections["Mitigations"], ""]

    if "What the sources support" in page.sections:
        out += [_heading("What the sources support"), ""]
        out += _folded("What is confirmed, what is not, and how it was verified", page.sections["What the sources support"])

    out += [_heading("Sources"), ""]
    for number, source in enumerate(ref.sources, 1):
        out.append(
            f"{number}. [{source.title}]({source.url}){{ #source-{number} }}, {escape(source.publisher)}, "
            f"{source.date}. Supports: {source.supports}"
        )
    out.append("")

    related = sorted(set(ref.related) | set(page.backlinks), key=lambda s: catalogue.by_slug(s).ref.id)
    if related:
        out += [_heading("Related references"), ""]
        for slug in related:
            other = catalogue.by_slug(slug)
            note = " (links here)" if slug in page.backlinks and slug not in ref.related else ""
            out.append(f"- {_ref_link(other)}{note}")
        out.append("")

    out.append(f'<p class="perf-reviewed">Last reviewed against its sources on '
               f'<time datetime="{ref.reviewed.isoformat()}">{ref.reviewed.isoformat()}</time>.</p>')
    return "\n".join(out) + "\n"


def _page_head(page: Page, catalogue: Catalogue, site_url: str, rebase: bool) -> list[str]:
    """Title, ID and facets, the summary, the one caveat, the copy-link buttons."""
    ref = page.ref
    chips = " ".join(
        facet_link(catalogue, facet, value, "../")
        for facet in FACETS
        for value in getattr(ref, facet)
    )
    triage = ' <span class="perf-kind">Triage: start here</span>' if ref.kind == "triage" else ""
    out = [
        f"# {ref.title}",
        "",
        f'<p class="perf-meta" markdown><span class="perf-id" data-ref-id="{ref.id}">{ref.id}</span>{triage} {chips}</p>',
        "",
        f'<p class="perf-summary">{escape(ref.summary)}</p>',
        "",
    ]
    if ref.originally_published:
        original = ref.originally_published
        out += _folded("Originally published with another summary",
                       f"“{escape(original.summary)}”\n\nWhat changed and why: {original.changed}", "perf-fold perf-original")
    if ref.status == "draft":
        out += ['!!! warning "Draft"', "    This reference is a draft: it is not listed in the catalogue and the "
                "matcher does not rank it.", ""]
    if ref.status == "retired":
        out += ['!!! danger "Retired reference"', "    This reference is kept so that links to it keep working; "
                "its content is no longer maintained.", ""]
    out += [f'<p class="perf-caveat"><strong>A match is not a diagnosis.</strong> {escape(CAVEAT)}</p>', "",
            copy_link_html(page, site_url, rebase), ""]
    return out


def _what_you_may_see(ref, software: dict, record: dict | None = None) -> list[str]:
    """Each wording on one line with the releases that print it and what the wording watch found in the newest;
    where and how it was verified folds under it."""
    out = [_heading("What you may see"), ""]
    if ref.messages_note:
        out += ['!!! note "When nothing is printed"', f"    {ref.messages_note}", ""]
    out.append('<ul class="perf-messages">')
    for message in ref.messages:
        versions = _versions_html(message.versions, software, "Releases")
        generic = (' <span class="perf-generic">many failures print it: it shows the symptom, not this cause</span>'
                   if message.generic else "")
        numbers = ""
        if message.numbers:
            lead = ("every run prints it; its numbers over the run point here when" if message.numbers.over == "run"
                    else "many failures print it; its numbers point here when")
            numbers = (f' <span class="perf-numbers">{lead} '
                       f'<code>{escape(message.numbers.when)}</code></span>'
                       f'<details class="perf-where"><summary>Why the numbers decide</summary>'
                       f"<p>{escape(message.numbers.why)}</p></details>")
        checked = f' <span class="perf-checked">{escape(checked_text(ref.id, message.text, message.versions, software, record))}</span>'
        out.append(f'<li><code class="perf-template">{escape(readable(message.text))}</code> {versions}{checked}{generic}{numbers}'
                   f'<details class="perf-where"><summary>Where it is printed, how it was verified</summary>'
                   f"<p>{escape(message.where)}</p></details></li>")
    out += ["</ul>", "", f'<p class="perf-checked-summary"><small>{escape(checked_summary(ref, record))}</small></p>', "",
            "<small>‹number›, ‹hex number›, ‹name›, ‹path› and ‹any text› stand for the parts that change "
            "from one log to the next.</small>", ""]
    if ref.examples:
        out += [_heading("What it looks like in a real log"), ""]
        for example in ref.examples:
            out += [fence(example.text), "", f"<small>From [{escape(example.title)}]({example.url})</small>", ""]
    out += [_heading("Other clues"), "", "Metrics, settings, tool readings and phrases that support this "
            "reference without proving it.", "", "| Clue | What it is | Weight (1-5) | Releases |", "| --- | --- | --- | --- |"]
    for signal in ref.signals:
        checked = f" ({checked_text(ref.id, signal.text, signal.versions, software, record)})" if signal.versions else ""
        out.append(f"| {_inline_code(readable(signal.text))} | {signal.kind} | {signal.weight} | "
                   f"{escape(versions_text(signal.versions, software) + checked) or 'not version-specific'} |")
    out.append("")
    return out


def _check_title(ref, check_id: str) -> str:
    return next(c.title for c in ref.checks if c.id == check_id)


def search_tags(page: Page) -> list[str]:
    """Terms that put this page first in site search: its ID, the ID's digits, its config keys and flags.

    Material's search indexes a page's ``tags`` with a large boost (the tags are not shown without
    its tags plugin), so a reader who types "PERF-0003", "perf-3" (search-worker.js turns an ID
    into its digits) or "gpu_memory_utilization" lands on the page that owns it rather than on
    a page that mentions it.
    """
    digits = page.ref.id.split("-")[1]
    keys = [s.text for s in page.ref.signals if s.kind == "config" and "{" not in s.text]
    return [page.ref.id, digits, *keys]


def _inline_code(text: str) -> str:
    """Inline code safe inside a table cell: pipes escaped, backticks fenced."""
    text = text.replace("|", "\\|")
    ticks = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


# ---- Catalogue and facet pages ----


def catalogue_html(catalogue: Catalogue) -> str:
    """The /references/ list: a plain list, plus filters that catalogue.js reveals."""
    selects = []
    for facet in FACETS:
        counts = {value: sum(value in getattr(p.ref, facet) for p in catalogue.listed) for value in catalogue.facets[facet]}
        options = "".join(
            f'<option value="{escape(value)}">{escape(spec["label"])} ({counts[value]})</option>'
            for value, spec in catalogue.facets[facet].items() if counts[value]
        )
        selects.append(
            f'<label class="perf-filter">{FACET_TITLES[facet]} '
            f'<select data-facet="{facet}" name="{facet}"><option value="">Any</option>{options}</select></label>'
        )
    items = []
    for page in catalogue.listed:
        ref = page.ref
        chips = " ".join(
            f'<a class="perf-chip perf-chip--{facet}" href="../facets/{facet}/{value}/">'
            f'{escape(catalogue.facets[facet][value]["label"])}</a>'
            for facet in FACETS
            for value in getattr(ref, facet)
        )
        data = " ".join(f'data-{facet}="{" ".join(getattr(ref, facet))}"' for facet in FACETS)
        retired = ' <span class="perf-retired">retired</span>' if ref.status == "retired" else ""
        if ref.kind == "triage":
            retired += ' <span class="perf-kind">Triage: start here</span>'
        items.append(
            f'<li class="perf-card" data-ref-id="{ref.id}" {data}>'
            f'<a class="perf-card__title" href="{page.slug}/"><span class="perf-id">{ref.id}</span> '
            f"{escape(ref.title)}</a>{retired}"
            f'<p class="perf-card__summary">{escape(ref.summary)}</p><p class="perf-card__chips">{chips}</p></li>'
        )
    return (
        f'<form class="perf-filters" id="catalogue-filters" hidden aria-label="Filter references">'
        f'{"".join(selects)}<button type="reset" class="md-button">Clear</button>'
        f'<output id="catalogue-count" aria-live="polite"></output></form>\n'
        f'<ul class="perf-catalogue" id="catalogue-list">{"".join(items)}</ul>\n'
        f'<p id="catalogue-empty" hidden>No reference has all of these facets. '
        f'<a href="./">Clear the filters</a>.</p>'
    )


def facet_pages(catalogue: Catalogue) -> dict[str, str]:
    """Markdown for facets/index.md and one page per facet value, keyed by path under docs/."""
    pages = {}
    index = ["# Browse by facet", "", "Every reference carries values from three controlled vocabularies.", ""]
    for facet in FACETS:
        index += [f"## {FACET_TITLES[facet]}", ""]
        for value, spec in catalogue.facets[facet].items():
            members = [p for p in catalogue.listed if value in getattr(p.ref, facet)]
            index.append(f"- [{spec['label']}]({facet}/{value}.md) ({len(members)}): {spec['description']}")
            body = [
                "---",
                f"title: \"{FACET_TITLES[facet]}: {spec['label']}\"",
                "---",
                "",
                f"# {FACET_TITLES[facet]}: {spec['label']}",
                "",
                spec["description"],
                "",
            ]
            if members:
                body += [f"- {_ref_link(p, '../../references/')}: {escape(p.ref.summary)}" for p in members]
            else:
                body.append("No reference carries this value yet.")
            body += ["", f"[All references](../../references/index.md) · [All facets](../index.md)", ""]
            pages[f"facets/{facet}/{value}.md"] = "\n".join(body)
        index.append("")
    pages["facets/index.md"] = "\n".join(index)
    return pages


def facet_vocabulary_table(catalogue: Catalogue) -> str:
    rows = ["| facet | value | label | description |", "| --- | --- | --- | --- |"]
    for facet in FACETS:
        for value, spec in catalogue.facets[facet].items():
            rows.append(f"| `{facet}` | `{value}` | {spec['label']} | {spec['description']} |")
    return "\n".join(rows)


def benchmark_tables(data: dict) -> str:
    """The Performance page's tables from one benchmark run (see scripts/bench.py)."""
    out = [
        f"Measured on {data['date']} on {data['machine']}. Times are the best (matcher) or the median "
        "(builds, files) of repeated runs; compare the ratios, which come from one run.",
        "",
        "### Budgets",
        "",
        "| figure | measured | budget | met |",
        "| --- | --- | --- | --- |",
    ]
    for b in data.get("budgets", []):
        met = "n/a" if b["met"] is None else ("yes" if b["met"] else "**no**")
        out.append(f"| {b['name'].strip()} | {b['value']} | {b['budget'] or '-'} | {met} |")
    out += ["", "### Build", "", "| catalogue | this site (s) | bare Material, same pages (s) | overhead |", "| --- | --- | --- | --- |"]
    for label, b in data["build"].items():
        out.append(f"| {label} | {b['real_s']} | {b['bare_material_s']} | {b['overhead']}x |")
    out += ["", "### Size", "", "| catalogue | match index per reference (gzip) | Material's search index per reference (gzip) | `/match/` payload (gzip) |",
            "| --- | --- | --- | --- |"]
    for label, f in data["size"].items():
        out.append(f"| {label} | {f['match_index_gzip_per_ref']:,} B | {f['search_index_gzip_per_ref']:,} B | {f['payload_gzip_bytes'] / 1024:.1f} KB |")
    out += ["", "### Matcher", "", "Times in ms. *Naive*: every compiled pattern over the whole text; *floor*: a plain "
            "substring scan of the anchors.", "",
            "| log x catalogue | Chromium worker | naive | naive / ours | Python twin | naive | naive / ours |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for key, py in data["matcher_python"].items():
        c = data.get("matcher_chromium", {}).get(key, {})
        out.append(f"| {key} | {c.get('worker_match_ms', 'n/a')} | {c.get('naive_ms', 'n/a')} | {c.get('naive_over_ours', 'n/a')}x | "
                   f"{py['ours_ms']} | {py['naive_ms']} | {py['naive_over_ours']}x |")
    s = data.get("streaming")
    if s:
        out += ["", "### A large log file, end to end", "",
                f"A {s['file_mib']} MiB log with its cause in the middle, matched against the real catalogue:", "",
                "| reader | seconds | MiB/s |", "| --- | --- | --- |",
                f"| Chromium worker (chunks of 4 MiB) | {s.get('chromium_s', 'n/a')} | {s.get('chromium_mib_s', 'n/a')} |",
                f"| `perfref match` (chunks of 4 MiB) | {s['cli_s']} | {s['cli_mib_s']} |",
                # figures recorded before #24 hold grep -F -f of the anchors; later ones, the four-word grep
                f"| {'`grep -i -F -e error -e warn -e timeout -e nccl`' if 'grep_anchors_s' in s else '`grep -F -f` of the anchors'} (peer) "
                f"| {s['grep_s']} | {s['grep_mib_s']} |"]
    return "\n".join(out)


def evaluation_tables(data: dict) -> str:
    """The Performance page's accuracy tables (see scripts/evaluate.py)."""
    def pct(x) -> str:
        return "n/a" if x is None else f"{x:.1%}".replace("%", " %")
    def top1(f: dict) -> str:
        low_high = f.get("top1_interval")
        return pct(f["top1"]) + (f" ({low_high[0] * 100:.0f}-{low_high[1] * 100:.0f} %)" if low_high else "")
    names = {"dev": "dev (tuned on)", "test": "test (held out)", "dev-everyday": "dev, everyday classes",
             "test-everyday": "test, everyday classes", "dev-existing": "dev, other classes", "test-existing": "test, other classes",
             "dev-cv": "dev, cross-validated"}
    out = [f"Against the {data['published']} published references. Top-1 carries its 95 % interval: the range "
           "that chance alone allows on this many cases.", "",
           "*Routed first*: the labelled reference first, or the triage reference of its symptom first with "
           "the labelled one in the first three.", "",
           "The matcher reads words learned from the labelled dev texts (`docs/learned-words.json`), so the dev rows "
           "read high; *cross-validated* matches each dev file with words learned from the other dev files only.", "",
           "| set | cases (+ negatives) | top-1 | routed first | top-3 | strong match on a negative | BM25 top-1 | BM25 routed first | BM25 top-3 |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, s in data["sets"].items():
        label = names.get(name) or (f"{name.split('-', 1)[0]}, newest file ({name.split('-', 1)[1]})" if "-fresh-" in name else name)
        out.append(f"| {label} | {s['positives']} (+ {s['negatives']}) | {top1(s['ours'])} | "
                   f"{pct(s['ours'].get('routed1'))} | {pct(s['ours']['top3'])} | {pct(s['ours']['strong_false'])} | "
                   f"{top1(s['bm25'])} | {pct(s['bm25'].get('routed1'))} | {pct(s['bm25']['top3'])} |")
    if data.get("triage"):
        out += ["", "| sample of failure reports | reports (in scope) | answered above \"related words only\" | a fitting cause reference | of those whose thread establishes a cause | strong match that does not fit |",
                "| --- | --- | --- | --- | --- | --- |"]
        for name, t in data["triage"].items():
            label = ("tuned on" + (f" ({name.removeprefix('triage-dev-')})" if name != "triage-dev" else "")
                     if name.startswith("triage-dev") else "held out" if name == "triage-test"
                     else f"held out, fresh ({name.removeprefix('triage-')})" if name.startswith("triage-fresh") else name)
            labelled = t.get("cause_labelled")
            of_labelled = "n/a" if labelled is None else f"{t['cause_found']} of {labelled}"
            out.append(f"| {label} | {t['reports']} ({t['in_scope']}) | {pct(t['answered'])} | {pct(t.get('specific_cause'))} | "
                       f"{of_labelled} | {pct(t['strong_wrong'])} |")
    if data.get("samples_cv"):
        out += ["", f"The samples tuned on, cross-validated (each matched with words learned without it): "
                    f"{pct(data['samples_cv']['answered'])} of {data['samples_cv']['in_scope']} in-scope reports answered above "
                    "\"related words only\"."]
    return "\n".join(out)
