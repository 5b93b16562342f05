"""MkDocs hooks: each event hands its work to the plain-Python ``perfref`` package (``perfref.site``).

The catalogue is loaded and validated once per build (``on_pre_build``); every
generated file is added in ``on_files``; reference pages are rendered from
their data in ``on_page_markdown``. Nothing here knows the page layout.
"""

from __future__ import annotations

import logging
import os
import re
from collections import Counter
from pathlib import Path

import rcssmin
import rjsmin
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from perfref import wording_checks
from perfref.load import CatalogueError, load_catalogue
from perfref.site import build_state, csp, emit, render

log = logging.getLogger("mkdocs.hooks.catalogue")

# The offline build's Worker shim for file:// pages (see on_config).
OFFLINE_SHIM = "assets/javascripts/vendor/iframe-worker-shim.js"
SERVING = False  # mkdocs serve (on_startup)
# A relative link to a folder, in an attribute (see on_post_build).
FOLDER_LINK = re.compile(r'(\b(?:href|src|data-[a-z-]+)=")((?![a-zA-Z][a-zA-Z0-9+.-]*:|/|#)[^"?#]*/)([?#][^"]*)?"')


# Start definition of MkDocs hooks


def _offline(config) -> bool:
    offline = config.plugins.get("material/offline") or config.plugins.get("offline")
    return offline is not None and offline.config.enabled


@event_priority(-100)  # after Material's offline plugin has set the build up
def on_config(config, **kwargs):
    """Offline build (OFFLINE=true): nothing from a CDN, and no instant navigation.

    Material's offline plugin appends https://unpkg.com/iframe-worker/shim to
    extra.polyfills; the same file is vendored, unmodified, in
    docs/assets/javascripts/vendor/ and loaded from the site instead, so that a site
    opened from file:// makes no request off the disk. Instant navigation is turned
    off there: on file:// Material 9.8 completes document$ before it ever emits, and
    every script bound to it (catalogue filters, the matcher) would never start.
    Other builds are left as they are.
    """
    if not _offline(config):
        return config
    config.extra["polyfills"] = [
        OFFLINE_SHIM if isinstance(url, str) and url.startswith("https://unpkg.com/iframe-worker") else url
        for url in config.extra.get("polyfills") or []
    ]
    features = config.theme.get("features") or []
    config.theme["features"] = [f for f in features if not f.startswith("navigation.instant")]
    return config


def on_startup(command: str, **kwargs) -> None:
    """Remember whether this is the dev server, whose live-reload script is inline and changes per request."""
    global SERVING
    SERVING = command == "serve"


@event_priority(-100)  # after every plugin has written its files
def on_post_build(config, **kwargs) -> None:
    """Finish the written HTML: folder links for the offline build, then the Content-Security-Policy."""
    site = Path(config.site_dir)
    pages = list(site.rglob("*.html"))
    if not config.use_directory_urls:
        _link_folders_to_files(pages)
    # The dev server's live-reload script and the offline build's Worker shim write inline
    # scripts that no build can hash: there, any inline script may run (requests stay home).
    _add_content_security_policy(pages, hash_scripts=not (SERVING or _offline(config)))


def _add_content_security_policy(pages: list[Path], hash_scripts: bool) -> None:
    """Every page gets a policy that allows the inline scripts it holds.

    An inline script found on two pages or more (Material's) is allowed on every page,
    because instant navigation keeps the first page's policy while it swaps in the
    next page; a page's own inline scripts (a redirect's target) are allowed on it alone.
    """
    # two passes, so that only the hashes (not every page of a large site) are held at once
    own = {path: csp.inline_script_hashes(path.read_text(encoding="utf-8")) for path in pages} if hash_scripts else {}
    seen = Counter(h for hashes in own.values() for h in hashes)
    shared = {h for h, pages_with_it in seen.items() if pages_with_it > 1}
    for path in pages:
        text = csp.policy(shared | own[path] if hash_scripts else None)
        path.write_text(csp.with_policy(path.read_text(encoding="utf-8"), text), encoding="utf-8")


def _link_folders_to_files(pages: list[Path]) -> None:
    """Offline build: a relative link to a folder ("references/x/") points at its page file.

    The catalogue cards, facet chips and facet lists are written as links to folders,
    which a web server answers with the folder's index.html but file:// shows as a
    directory listing. When use_directory_urls is off (the offline plugin turns it
    off), each such link in the built HTML is pointed at the file that exists beside
    it, x.html or else x/index.html; links whose target is neither stay as they are.
    """
    for path in pages:
        text = path.read_text(encoding="utf-8")

        def to_file(m, here=path.parent):
            folder = os.path.normpath(here / m.group(2))
            for suffix, file in ((".html", folder + ".html"), ("index.html", os.path.join(folder, "index.html"))):
                if os.path.isfile(file):
                    link = m.group(2)[:-1] + suffix if suffix == ".html" else m.group(2) + suffix
                    return m.group(1) + link + (m.group(3) or "") + '"'
            return m.group(0)

        fixed = FOLDER_LINK.sub(to_file, text)
        if fixed != text:
            path.write_text(fixed, encoding="utf-8")


def on_pre_build(config, **kwargs) -> None:
    """Load and validate every reference; one error list for all pages fails the build."""
    if not config.site_url:
        raise PluginError("site_url is not set: copy links, the API and redirects need it")
    try:
        build_state.catalogue = load_catalogue(config.docs_dir)
        build_state.wording_checks = wording_checks.load(config.docs_dir)
    except CatalogueError as err:
        for problem in err.problems:
            log.error(str(problem))
        raise PluginError(f"{len(err.problems)} problem(s) in the reference data; see the errors above") from None


def on_files(files: Files, config, **kwargs) -> Files:
    """Add the generated pages and files: facet pages, redirects, the API and the match index."""
    catalogue = build_state.catalogue
    site_url = config.site_url
    generated: dict[str, str | bytes] = {}
    generated.update(render.facet_pages(catalogue))
    generated.update(emit.redirects(catalogue, site_url))
    generated["api/references.json"] = emit.json_text(emit.api_references(catalogue, site_url)) + "\n"
    index = emit.match_index(catalogue)
    generated["assets/match-index.json"] = emit.json_text(index) + "\n"
    generated.update(emit.match_scripts(index))
    # Our own scripts and styles ship minified (the matcher page's payload); the sources stay readable in docs/.
    minifiers = {("assets/javascripts/", ".js"): rjsmin.jsmin, ("assets/stylesheets/", ".css"): rcssmin.cssmin}
    for (folder, suffix), minify in minifiers.items():
        for file in [f for f in files if f.src_uri.startswith(folder) and f.src_uri.endswith(suffix)
                     and "/vendor/" not in f.src_uri and f.abs_src_path]:
            generated.setdefault(file.src_uri, minify(Path(file.abs_src_path).read_text(encoding="utf-8")))
    for path, content in generated.items():
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, path, content=content))
    return files


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str | None:
    """Replace a reference page's Markdown with the page rendered from its data."""
    ref_page = build_state.catalogue.by_file(page.file.src_uri)
    if ref_page is None:
        return None
    page.meta["tags"] = render.search_tags(ref_page)
    # Without SITE_URL the site_url is only the local default: copied links follow the page instead.
    rebase = not os.environ.get("SITE_URL")
    return render.reference_markdown(ref_page, build_state.catalogue, config.site_url, rebase, build_state.wording_checks)


# End definition of MkDocs hooks
