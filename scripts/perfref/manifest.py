"""The manifest of every published ID and URL, and the checks that keep them alive.

``tests/data/published.json`` maps each ID ever published to its current slug
and every URL it has been served at::

    {"PERF-0001": {"slug": "...", "urls": ["references/<slug>/", "id/PERF-0001/", ...]}}

URLs are relative to the site root. The manifest only grows: ``updated`` keeps
every entry and every URL of the old manifest, so a page that is deleted or
renamed without an alias shows up as a URL that no longer resolves, instead of
silently leaving the manifest. ``perfref.py manifest`` rewrites the file; the
tests use ``catalogue_problems`` (no build needed) and ``site_problems`` (a
built site).
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

from .load import Catalogue, Page

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "tests" / "data" / "published.json"
_REFRESH = re.compile(r"""<meta\s+http-equiv=["']refresh["']\s+content=["']\s*\d+\s*;\s*url=([^"']+)["']""", re.I)


def page_urls(page: Page) -> list[str]:
    """The URLs the catalogue serves for one page: its canonical URL, its ID URL, its aliases."""
    return [page.url, f"id/{page.ref.id}/", *(f"references/{alias}/" for alias in page.ref.aliases)]


def load(path: str | Path = DEFAULT_PATH) -> dict[str, dict]:
    path = Path(path)
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def dumps(manifest: dict[str, dict]) -> str:
    """Stable text: sorted by ID, one URL a line, so a diff shows exactly what changed."""
    return json.dumps(dict(sorted(manifest.items())), indent=2, ensure_ascii=False) + "\n"


def updated(old: dict[str, dict], catalogue: Catalogue) -> dict[str, dict]:
    """The old manifest plus everything the catalogue publishes now; nothing is ever dropped."""
    manifest = {ref_id: dict(entry, urls=list(entry["urls"])) for ref_id, entry in old.items()}
    for page in catalogue.listed:
        current = page_urls(page)
        earlier = manifest.get(page.ref.id, {})
        rest = sorted(set(earlier.get("urls", [])) | set(current[2:]))
        rest = [u for u in rest if u not in current[:2]]
        # the first recorded title is the published one: a title never changes
        manifest[page.ref.id] = {"slug": page.slug, "title": earlier.get("title", page.ref.title), "urls": current[:2] + rest}
    return manifest



def catalogue_problems(manifest: dict[str, dict], catalogue: Catalogue) -> list[str]:
    """What the sources break, without a build: deleted IDs, renames without an alias, missing entries."""
    problems = []
    served: dict[str, str] = {}
    by_id = {p.ref.id: p for p in catalogue.pages}
    for page in catalogue.pages:
        for url in page_urls(page):
            served[url] = page.ref.id
    for ref_id, entry in sorted(manifest.items()):
        page = by_id.get(ref_id)
        if page is None:
            problems.append(f"{ref_id} ({entry['slug']}) is published but no page has this ID: "
                            "a reference is never deleted; restore the page and set 'status: retired'")
            continue
        if entry.get("title", page.ref.title) != page.ref.title:
            problems.append(f"{ref_id}: the title was published as {entry['title']!r}: a title never changes; "
                            "restore it (a corrected summary keeps the original in 'originally_published')")
        for url in entry["urls"]:
            owner = served.get(url)
            if owner == ref_id:
                continue
            if owner is None and url.startswith("references/"):
                old = url.removeprefix("references/").rstrip("/")
                problems.append(f"{ref_id}: {url} was published but is no longer served: "
                                f"after a rename, add '{old}' to the aliases of {page.file}")
            else:
                problems.append(f"{ref_id}: {url} was published for {ref_id} but now serves {owner or 'nothing'}")
    for page in catalogue.listed:
        entry = manifest.get(page.ref.id)
        missing = [u for u in page_urls(page) if entry is None or u not in entry["urls"]]
        if entry is None:
            problems.append(f"{page.ref.id} ({page.file}) is not in the manifest: run 'perfref manifest'")
        elif missing or entry["slug"] != page.slug:
            problems.append(f"{page.ref.id}: the manifest is out of date ({', '.join(missing) or 'slug'}): "
                            "run 'perfref manifest'")
    return problems


def _site_file(site_dir: Path, url: str) -> Path:
    path = url.split("#", 1)[0].split("?", 1)[0]
    return site_dir / (path + "index.html" if path.endswith("/") or not path else path)


def site_problems(manifest: dict[str, dict], site_dir: str | Path) -> list[str]:
    """Every manifest URL must be a file of the built site: a page, or a redirect to an existing page."""
    site_dir = Path(site_dir)
    problems = []
    for ref_id, entry in sorted(manifest.items()):
        for url in entry["urls"]:
            file = _site_file(site_dir, url)
            if not file.is_file():
                problems.append(f"{ref_id}: {url} does not resolve in the built site (no {file.relative_to(site_dir)})")
                continue
            m = _REFRESH.search(file.read_text(encoding="utf-8", errors="replace")[:4096])
            if m:
                base = url if url.endswith("/") else url.rsplit("/", 1)[0] + "/"
                target = _normalise(base + m.group(1))
                if target is None or not _site_file(site_dir, target).is_file():
                    problems.append(f"{ref_id}: {url} redirects to {m.group(1)}, which does not resolve")
    return problems


def _normalise(url: str) -> str | None:
    """Resolve ``..`` and ``.`` in a site-relative URL; None when it leaves the site."""
    path = posixpath.normpath(url)
    if path == ".":
        return ""
    if path.startswith(("../", "/")) or path == "..":
        return None
    return path + "/" if url.endswith("/") else path
