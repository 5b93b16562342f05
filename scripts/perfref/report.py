"""Match results as text for people: the terminal, a ticket (Markdown or Jira), a plain URL.

The matcher page builds the same ticket snippets in match-page.js (ticketText);
a browser test holds the two to the same text for the same result.
"""

from __future__ import annotations

import re

LINE_CHARS = 300  # of a matched line quoted in a ticket
LINES_QUOTED = 3


def absolute(site_url: str, url: str) -> str:
    return site_url.rstrip("/") + "/" + url.lstrip("/")


def _escape(text: str, chars: str) -> str:
    return re.sub(f"([{re.escape(chars)}])", r"\\\1", text)


def ticket_text(result: dict, fmt: str, site_url: str) -> str:
    """One result as a ticket snippet: ID, title, URL, the matched lines, the first checks."""
    url = absolute(site_url, result["url"])
    if fmt == "url":
        return url
    label = f"{result['id']}: {result['title']}"
    lines = [e for e in result["evidence"] if e["kind"] == "message"][:LINES_QUOTED]
    checks = [(c["title"], f"{url}#check-{c['id']}") for c in result["checks"]]
    if fmt == "jira":
        out = [f"[{_escape(label, '[]|')}|{url}] ({result['label']})"]
        out += [f"* line {e['line']}: {{noformat}}{e['text'][:LINE_CHARS]}{{noformat}}" for e in lines]
        out += ["Checks to run first:"] if checks else []
        out += [f"* [{_escape(title, '[]|')}|{link}]" for title, link in checks]
        return "\n".join(out)
    out = [f"[{_escape(label, '[]')}]({url}) ({result['label']})"]
    out += [f"- line {e['line']}: `{e['text'][:LINE_CHARS].replace('`', chr(39))}`" for e in lines]
    out += ["", "Checks to run first:"] if checks else []
    out += [f"- [{_escape(title, '[]')}]({link})" for title, link in checks]
    return "\n".join(out)


def markdown(match: dict, site_url: str) -> str:
    """The whole answer as Markdown, for a ticket or a CI job summary."""
    shown = [r for r in match["results"] if r["strength"] != "weak"]
    if not shown:
        return ("**No confident match.** No message that a known failure prints, no symptom line and not "
                f"enough context matched. Browse the catalogue: {absolute(site_url, 'references/')}\n")
    parts = [ticket_text(r, "markdown", site_url) for r in shown]
    parts.append("_A matching message alone does not confirm a cause: run the evidence checks._")
    return "\n\n".join(parts) + "\n"


def text(match: dict, site_url: str, show_weak: bool = False) -> str:
    """The answer for a terminal: each result's strength in words, its evidence and first checks."""
    out = []
    if match["capped"]:
        out.append(f"Input over the cap: matched the last part only (from line {match['skipped_lines'] + 1}).")
    for v in match.get("versions", []):
        out.append(f"The log shows {v['software']} {v['version']} (line {v['line']}).")
    if not match["confident"]:
        out.append("No confident match: no message that a known failure prints, no symptom line and not enough "
                   f"context. Browse the catalogue: {absolute(site_url, 'references/')}")
    weak = 0
    for rank, r in enumerate(match["results"], 1):
        if r["strength"] == "weak" and not show_weak:
            weak += 1
            continue
        url = absolute(site_url, r["url"])
        out.append(f"{rank}. {r['id']} {r['title']}")
        out.append(f"   {r['label']} (score {r['score']})")
        out.append(f"   {url}")
        versus = r.get("versus")
        if versus:
            out.append(f"   Close call with {versus['id']}: {versus['tell']}")
            if "check" in versus:
                out.append(f"   The check that separates them: {versus['check']['title']} "
                           f"({absolute(site_url, versus['check']['url'])})")
        for e in r["evidence"]:
            times = f" ({e['count']} lines)" if e["count"] > 1 else ""
            what = (f"words that name this symptom ({e['symptoms'][0].replace('-', ' ')})" if e["kind"] == "named"
                    else f"words that reports of this symptom use ({e['symptoms'][0].replace('-', ' ')}), learned from "
                         "labelled reports; no keyword names it" if e["kind"] == "learned"
                    else f"words for what this failure is about, beside its symptom ({', '.join(v.replace('-', ' ') for v in e['symptoms'])})"
                    if e["kind"] == "subject"
                    else f"context, just before the symptom on line {e['near']}" if e.get("near")
                    else "context" if e["kind"] != "message"
                    else "a line many failures print, whose numbers point here" if e.get("numbers", {}).get("holds")
                    else "a line many failures print" if e.get("generic")
                    else "a line of this symptom" if r["kind"] == "triage" else "a message this failure prints")
            out.append(f"   line {e['line']}{times}, {what}: {e['display']}")
            out.append(f"     {e['text'][max(0, e['start'] - 60):e['end'] + 60]}")
            if e.get("numbers"):
                out.append(f"     the numbers: {e['numbers']['says']}")
            if e.get("versions"):
                out.append(f"     this wording: {e['versions']}")
            if e.get("version_note"):
                out.append(f"     counts for less: {e['version_note']}")
        for check in r["checks"]:
            out.append(f"   check: {check['title']} ({url}#check-{check['id']})")
    if weak:
        out.append(f"({weak} more with related words only; --all shows them)")
    if match["confident"]:
        out.append("A matching message alone does not confirm a cause: run the evidence checks.")
    return "\n".join(out) + "\n"
