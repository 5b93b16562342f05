"""``perfref.py new``: a new reference page with the next free ID and every field.

The page it writes passes the strict build, so an author can preview it at
once; every value the author must supply says ``TODO``. Placeholder sources
point at example.com (reserved by RFC 2606, so never a real source) and must
be replaced before review, like every other TODO.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from pathlib import Path

import yaml

from . import manifest as manifest_mod
from .load import REFERENCES_DIR, RESERVED_SLUGS, load_facets, split_front_matter
from .model import FACETS, ID_PATTERN, SLUG_PATTERN

TODO = "TODO"
_ID_LINE = re.compile(r"^id:\s*[\"']?(PERF-\d{4})\b", re.M)


class ScaffoldError(Exception):
    """The page cannot be written; the message says why and what to do."""


def slugify(title: str) -> str:
    """ASCII, lowercase words joined by '-': "NCCL hangs (v2.18)" -> "nccl-hangs-v2-18"."""
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii").lower()
    return "-".join(re.findall(r"[a-z0-9]+", text))


def _front_matters(docs_dir: Path) -> list[tuple[Path, str, dict]]:
    """(path, text, front matter) of every reference file; a page being edited may not parse."""
    found = []
    for path in sorted((docs_dir / REFERENCES_DIR).glob("*.md")):
        if path.name == "index.md":
            continue
        text = path.read_text(encoding="utf-8")
        try:
            data, _ = split_front_matter(text)
        except yaml.YAMLError:
            data = None
        found.append((path, text, data if isinstance(data, dict) else {}))
    return found


def used_ids(docs_dir: Path, manifest: dict | None = None) -> set[str]:
    """Every ID in a page (published or retired) or in the manifest of published IDs."""
    ids = set(manifest or {})
    for _, text, data in _front_matters(docs_dir):
        value = str(data.get("id", ""))
        if ID_PATTERN.match(value):
            ids.add(value)
        ids.update(_ID_LINE.findall(text))
    return ids


def next_id(docs_dir: Path, manifest: dict | None = None) -> str:
    """Max existing ID + 1: IDs of retired (or even deleted) references are never reused."""
    numbers = [int(i.split("-")[1]) for i in used_ids(docs_dir, manifest) if ID_PATTERN.match(i)]
    number = max(numbers, default=0) + 1
    if number > 9999:
        raise ScaffoldError("every ID up to PERF-9999 is used")
    return f"PERF-{number:04d}"


def used_slugs(docs_dir: Path, manifest: dict | None = None) -> set[str]:
    """Slugs of pages, their aliases, and every references/<slug>/ URL ever published."""
    slugs = set(RESERVED_SLUGS)
    for path, _, data in _front_matters(docs_dir):
        slugs.add(path.stem)
        aliases = data.get("aliases") or []
        slugs.update(str(a) for a in aliases if isinstance(aliases, list))
    for entry in (manifest or {}).values():
        for url in entry.get("urls", []):
            if url.startswith("references/"):
                slugs.add(url.removeprefix("references/").strip("/"))
    return slugs


def _values(values) -> list[str]:
    """Repeated options and comma-separated values, in order, without duplicates."""
    out: list[str] = []
    for value in values or []:
        for part in str(value).split(","):
            part = part.strip()
            if part and part not in out:
                out.append(part)
    return out


def front_matter(ref_id: str, title: str, facets: dict[str, list[str]], today: dt.date) -> dict:
    """Every field of the model, in the order of the Contributing page; TODO marks what to write."""
    def check(n: int, word: str) -> dict:
        return {
            "id": f"todo-{word}-check",
            "title": f"TODO check {n}: what to look at",
            "run": f"TODO the command, config key or metric for check {n}",
            "confirms": "TODO the reading that confirms this cause",
            "refutes": "TODO the reading that rules it out",
        }

    def source(n: int, kind: str) -> dict:
        return {
            "title": f"TODO {kind} source {n} title",
            "url": f"https://example.com/TODO-replace-with-source-{n}",
            "publisher": "TODO publisher",
            "date": str(today.year),
            "supports": "TODO the fact this source supports",
        }

    return {
        "id": ref_id,
        "title": title,
        "summary": "TODO one to three sentences: the failure, its cause, what to do.",
        "status": "draft",
        **facets,
        "messages": [{"text": "TODO replace with the exact message text",
                      "where": "TODO the component that prints it",
                      "versions": [{"software": "pytorch", "since": "0.0.0-TODO"}]}],
        "messages_note": "TODO what the reader sees when nothing is printed, or delete this field",
        "signals": [{"text": "TODO replace with a context signal", "kind": "phrase", "weight": 1}],
        "checks": [check(1, "first"), check(2, "second"), check(3, "third")],
        "lookalikes": [
            {"title": f"TODO look-alike {n}: another reference's slug, or an external page",
             "url": f"https://example.com/TODO-replace-with-lookalike-{n}",
             "tell": "TODO the observation that tells the two apart"}
            for n in (1, 2)
        ],
        "related": [],
        "examples": [{"title": "TODO where this excerpt was published",
                      "url": "https://example.com/TODO-replace-with-example-source",
                      "text": "TODO a few real log lines"}],
        "sources": [source(1, "primary"), source(2, "primary"), source(3, "secondary")],
        "reviewed": today,
        "aliases": [],
    }


BODY = """
## What the sources support

TODO what the sources confirm, what they do not, and what differs from the published summary.

## Possible causes

1. TODO the most likely cause, with its mechanism.

## Mitigations

TODO what to change, and the version in which a fix landed where one did.
"""


class _Dumper(yaml.SafeDumper):
    """Block mappings; lists of plain values on one line, as the existing pages write them."""

    def represent_list(self, data):
        flow = all(isinstance(item, str) for item in data)
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _Dumper.represent_list)


def render_page(data: dict) -> str:
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000, default_flow_style=False)
    header = ("# Written by 'perfref new' as a draft. Replace every TODO (see the Contributing page); the\n"
              "# example.com URLs are placeholders, never real sources. Then set status: published.\n")
    return f"---\n{header}{text}---\n{BODY}"


def scaffold(docs_dir: str | Path, title: str, symptom, hardware, framework,
             manifest_path: str | Path | None = manifest_mod.DEFAULT_PATH,
             today: dt.date | None = None) -> tuple[str, Path]:
    """Write docs/references/<slug>.md; return its ID and path. Raises ScaffoldError, writing nothing."""
    docs_dir = Path(docs_dir)
    title = " ".join(str(title).split())
    if not title:
        raise ScaffoldError("the title is empty")
    slug = slugify(title)
    if not slug or not SLUG_PATTERN.match(slug):
        raise ScaffoldError(f"cannot make a slug from {title!r}: use letters or digits in the title")
    manifest = manifest_mod.load(manifest_path) if manifest_path else {}
    if slug in used_slugs(docs_dir, manifest):
        raise ScaffoldError(f"the slug {slug!r} is already used (a page, an alias or a published URL): choose another title")
    vocabulary, problems = load_facets(docs_dir)
    if problems:
        raise ScaffoldError("; ".join(map(str, problems)))
    chosen = {"symptom": _values(symptom), "hardware": _values(hardware), "framework": _values(framework)}
    for facet in FACETS:
        if not chosen[facet]:
            raise ScaffoldError(f"give at least one --{facet} ({', '.join(vocabulary[facet])})")
        unknown = [v for v in chosen[facet] if v not in vocabulary[facet]]
        if unknown:
            raise ScaffoldError(f"unknown {facet} value(s) {', '.join(unknown)}; known: {', '.join(vocabulary[facet])}")
    ref_id = next_id(docs_dir, manifest)
    path = docs_dir / REFERENCES_DIR / f"{slug}.md"
    page = render_page(front_matter(ref_id, title, chosen, today or dt.date.today()))
    with open(path, "x", encoding="utf-8") as f:  # "x": never overwrite a page
        f.write(page)
    return ref_id, path
