"""Links that must keep working: /id/ and alias redirects (with and without
JavaScript), the manifest of published URLs, copy-link buttons, stable anchors,
"Edit this page", the scaffold, and byte-identical rebuilds.

Most tests use the two synthetic fixture references (tests/fixtures/refs),
built once for the module; the real references are checked wherever the test
does not depend on their content.
"""

from __future__ import annotations

import filecmp
import gzip
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import DOCS, FIXTURES, copy_project, mkdocs_build, serve

from perfref import manifest
from perfref.load import CatalogueError, load_catalogue, split_front_matter
from perfref.scaffold import ScaffoldError, next_id, scaffold, slugify

PERFREF = [sys.executable, "-m", "perfref"]
REFS = FIXTURES / "refs"
SITE_URL = "https://perf.example.org/refs/"  # a sub-path: canonical URLs must keep it
EDIT_ENV = {"SITE_URL": SITE_URL, "REPO_URL": "https://github.com/example/perf-refs", "EDIT_URI": "edit/main/docs/"}
SECTION_ANCHORS = ("evidence-checks", "look-alikes", "sources", "what-you-may-see", "possible-causes", "mitigations")


def perfref(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*PERFREF, *args], capture_output=True, text=True)


def fresh_project(dest: Path, references: Path | None = None) -> Path:
    dest.mkdir()
    return copy_project(dest, references)


def build(project: Path, site_dir: Path, env: dict | None = None) -> Path:
    result = mkdocs_build(project, site_dir, env)
    assert result.returncode == 0, result.stderr[-4000:]
    return site_dir


def page_html(site: Path, url: str) -> str:
    return (site / url / "index.html").read_text(encoding="utf-8")


def rewrite_front_matter(path: Path, change) -> None:
    """Edit one page's front matter as data: ``change(data)`` modifies it in place."""
    data, body = split_front_matter(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text("---\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True) + "---\n" + body, encoding="utf-8")


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    """The fixture references: project, catalogue and a strict build with the publishing variables set."""
    root = tmp_path_factory.mktemp("linking")
    project = fresh_project(root / "project", REFS)
    site = build(project, root / "site", EDIT_ENV)
    return {"root": root, "project": project, "site": site, "catalogue": load_catalogue(project / "docs")}


@pytest.fixture(scope="module")
def fx_url(fx):
    server = serve(fx["site"])
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="module")
def real_catalogue():
    return load_catalogue(DOCS)


def real_pages_or_skip(real_catalogue):
    if not real_catalogue.pages:
        pytest.skip("docs/references/ holds no reference yet")
    return real_catalogue.pages


# ---- /id/ and alias redirects ----


def redirect_cases(catalogue) -> list[tuple[str, str, str]]:
    """(redirect URL, target URL, title) for every /id/ page and every alias."""
    cases = []
    for page in catalogue.pages:
        cases.append((f"id/{page.ref.id}/", page.url, page.ref.title))
        cases += [(f"references/{alias}/", page.url, page.ref.title) for alias in page.ref.aliases]
    return cases


def assert_redirects(browser, base: str, cases, javascript: bool) -> None:
    context = browser.new_context(java_script_enabled=javascript)
    try:
        page = context.new_page()
        for source, target, title in cases:
            page.goto(base + source, wait_until="commit")
            page.wait_for_url(base + target, timeout=10_000)
            page.wait_for_load_state("domcontentloaded")
            assert page.inner_text("article h1").strip().removesuffix("¶") == title, source
    finally:
        context.close()


def test_fixture_has_an_alias(fx):
    # the redirect tests below are only meaningful if both kinds of redirect exist
    kinds = {source.split("/")[0] for source, _, _ in redirect_cases(fx["catalogue"])}
    assert kinds == {"id", "references"}


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_id_and_alias_urls_land_on_their_page(browser, fx, fx_url, javascript):
    assert_redirects(browser, fx_url, redirect_cases(fx["catalogue"]), javascript)


@pytest.mark.browser
def test_redirect_keeps_the_anchor_with_javascript(browser, fx_url):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(fx_url + "id/PERF-9001/#evidence-checks", wait_until="commit")
        page.wait_for_url(fx_url + "references/alpha-widget-stall/#evidence-checks")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_real_id_and_alias_urls_land_on_their_page(request, browser, real_catalogue, javascript):
    real_pages_or_skip(real_catalogue)
    base_url = request.getfixturevalue("base_url")
    assert_redirects(browser, base_url, redirect_cases(real_catalogue), javascript)


def test_redirect_pages_work_without_javascript(fx):
    for source, target, _ in redirect_cases(fx["catalogue"]):
        text = page_html(fx["site"], source)
        assert '<meta http-equiv="refresh" content="0; url=../../' + target + '">' in text
        assert f'<link rel="canonical" href="{SITE_URL}{target}">' in text
        assert f'<a href="../../{target}">' in text


# ---- The manifest of published IDs and URLs ----


def test_every_current_reference_is_in_the_manifest(real_catalogue):
    published = manifest.load(manifest.DEFAULT_PATH)
    problems = manifest.catalogue_problems(published, real_catalogue)
    assert not problems, "\n".join(problems)
    # running the command would change nothing: the committed file is current and in its stable form
    assert manifest.updated(published, real_catalogue) == published, "run: .venv/bin/perfref manifest"
    assert manifest.DEFAULT_PATH.read_text(encoding="utf-8") == manifest.dumps(published)


def test_every_manifest_url_resolves_in_the_build(request):
    published = manifest.load(manifest.DEFAULT_PATH)
    if not published:
        pytest.skip("nothing is published yet")
    problems = manifest.site_problems(published, request.getfixturevalue("site"))
    assert not problems, "\n".join(problems)


def test_manifest_check_reports_removed_and_renamed_pages(tmp_path):
    project = fresh_project(tmp_path / "project", REFS)
    refs, out = project / "docs/references", tmp_path / "published.json"

    site = build(project, tmp_path / "site1")
    result = perfref("manifest", "--docs", str(project / "docs"), "--out", str(out))
    assert result.returncode == 0, result.stderr
    written = manifest.load(out)
    assert written["PERF-9001"] == {
        "slug": "alpha-widget-stall",
        "title": "Alpha widget stalls",
        "urls": ["references/alpha-widget-stall/", "id/PERF-9001/", "references/old-alpha/"],
    }
    assert written["PERF-9002"]["urls"] == ["references/beta-gadget-slow/", "id/PERF-9002/"]
    assert manifest.site_problems(written, site) == []
    assert perfref("manifest", "--out", str(out), "--check", str(site)).returncode == 0

    # Remove a page (and the links to it, so the build still passes): every URL it had is reported.
    (refs / "alpha-widget-stall.md").unlink()
    rewrite_front_matter(refs / "beta-gadget-slow.md", lambda d: d["lookalikes"].__setitem__(
        0, {"title": "Elsewhere", "url": "https://widgets.test/elsewhere", "tell": "different"}))
    site = build(project, tmp_path / "site2")
    problems = manifest.site_problems(written, site)
    assert len(problems) == 3 and all(p.startswith("PERF-9001: ") for p in problems), problems
    for url in written["PERF-9001"]["urls"]:
        assert any(url in p for p in problems), url
    check = perfref("manifest", "--out", str(out), "--check", str(site))
    assert check.returncode == 1 and "references/alpha-widget-stall/ does not resolve" in check.stderr
    # rewriting the manifest does not paper over the deletion: the entry stays, the command fails
    rewrite = perfref("manifest", "--docs", str(project / "docs"), "--out", str(out))
    assert rewrite.returncode == 1 and "never deleted" in rewrite.stderr and "status: retired" in rewrite.stderr
    assert "PERF-9001" in manifest.load(out)

    # Restore it as retired and rename the other without an alias: the old URL is reported.
    for name in ("alpha-widget-stall.md", "beta-gadget-slow.md"):
        shutil.copy(REFS / name, refs / name)
    rewrite_front_matter(refs / "alpha-widget-stall.md", lambda d: d.update(
        status="retired", related=["beta-gadget-renamed"],
        lookalikes=[{"slug": "beta-gadget-renamed", "tell": "t"}, d["lookalikes"][1]]))
    (refs / "beta-gadget-slow.md").rename(refs / "beta-gadget-renamed.md")
    site = build(project, tmp_path / "site3")
    assert manifest.site_problems(written, site) == [
        "PERF-9002: references/beta-gadget-slow/ does not resolve in the built site "
        "(no references/beta-gadget-slow/index.html)"]
    catalogue = load_catalogue(project / "docs")
    assert any("add 'beta-gadget-slow' to the aliases" in p for p in manifest.catalogue_problems(written, catalogue))

    # The alias brings the old URL back; the retired page kept its URLs all along.
    rewrite_front_matter(refs / "beta-gadget-renamed.md", lambda d: d.update(aliases=["beta-gadget-slow"]))
    site = build(project, tmp_path / "site4")
    assert manifest.site_problems(written, site) == []
    rewrite = perfref("manifest", "--docs", str(project / "docs"), "--out", str(out))
    assert rewrite.returncode == 0, rewrite.stderr
    assert manifest.load(out)["PERF-9002"] == {
        "slug": "beta-gadget-renamed",
        "title": "Beta gadget is slow",
        "urls": ["references/beta-gadget-renamed/", "id/PERF-9002/", "references/beta-gadget-slow/"],
    }
    assert manifest.site_problems(manifest.load(out), site) == []


# ---- Copy-link buttons, anchors, edit link, review date ----


def expected_copies(page, site_url: str) -> dict[str, tuple[str, str]]:
    url = f"{site_url}{page.url}"
    label = f"{page.ref.id}: {page.ref.title}"
    return {"markdown": ("Markdown", f"[{label}]({url})"), "jira": ("Jira", f"[{label}|{url}]"), "url": ("URL", url)}


def click_and_read(page, fmt: str) -> tuple[str, str]:
    status = page.locator(".perf-cite__status")
    page.evaluate("() => { document.querySelector('.perf-cite__status').textContent = '' }")
    page.click(f'button[data-copy-format="{fmt}"]')
    page.wait_for_function("() => document.querySelector('.perf-cite__status').textContent !== ''")
    return page.evaluate("() => navigator.clipboard.readText()"), status.inner_text().strip()


@pytest.mark.browser
def test_copy_link_buttons_copy_exact_citations(browser, fx, fx_url):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        for ref_page in fx["catalogue"].pages:
            page.goto(fx_url + ref_page.url)
            for fmt, (name, text) in expected_copies(ref_page, SITE_URL).items():
                copied, status = click_and_read(page, fmt)
                assert copied == text, fmt
                assert status == f"Copied the {name} link.", fmt
    finally:
        context.close()


@pytest.mark.browser
def test_copy_link_on_a_real_reference(watched, base_url, real_catalogue):
    ref_page = real_pages_or_skip(real_catalogue)[0]
    page = watched.page
    page.goto(base_url + ref_page.url)
    # a build with SITE_URL copies canonical links; a local build (no SITE_URL) copies the
    # address the page is served from, here the test server's, not the build's default
    site_url = os.environ.get("SITE_URL", "").rstrip("/") + "/" if os.environ.get("SITE_URL") else base_url
    if not os.environ.get("SITE_URL"):
        assert page.get_attribute(".perf-cite", "data-rebase") == "http://127.0.0.1:8000/"
        assert not base_url.startswith("http://127.0.0.1:8000/")
    for fmt, (name, text) in expected_copies(ref_page, site_url).items():
        copied, status = click_and_read(page, fmt)
        assert (copied, status) == (text, f"Copied the {name} link."), fmt
    assert watched.errors == []


def anchors(text: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', text))


def assert_reference_page(site: Path, page) -> None:
    text = page_html(site, page.url)
    found = anchors(text)
    missing = [a for a in SECTION_ANCHORS if a not in found]
    missing += [f"check-{c.id}" for c in page.ref.checks if f"check-{c.id}" not in found]
    assert not missing, f"{page.file}: missing anchors {missing}"
    day = page.ref.reviewed.isoformat()
    assert re.search(rf'<p class="perf-reviewed">[^<]*<time datetime="{day}">{day}</time>', text), page.file
    for fmt in ("markdown", "jira", "url"):
        assert f'data-copy-format="{fmt}"' in text, page.file


def test_fixture_pages_have_stable_anchors_and_review_date(fx):
    for page in fx["catalogue"].pages:
        assert_reference_page(fx["site"], page)


def test_real_pages_have_stable_anchors_and_review_date(request, real_catalogue):
    pages = real_pages_or_skip(real_catalogue)
    site = request.getfixturevalue("site")
    for page in pages:
        assert_reference_page(site, page)


def test_edit_link_points_at_the_page_source(fx):
    for page in fx["catalogue"].pages:
        text = page_html(fx["site"], page.url)
        href = f"{EDIT_ENV['REPO_URL']}/{EDIT_ENV['EDIT_URI']}{page.file}"
        assert re.search(rf'<a href="{re.escape(href)}"[^>]*rel="edit"', text), page.file
    # generated pages have no source file to edit, and so no edit link
    assert "/edit/main/" not in page_html(fx["site"], "facets")


# ---- The scaffold ----


def test_slugify():
    assert slugify("NCCL all-reduce hangs: after 30 min (v2.18)") == "nccl-all-reduce-hangs-after-30-min-v2-18"
    assert slugify("  Déjà vu — GPU  ") == "deja-vu-gpu"


def test_scaffold_writes_a_page_that_builds(tmp_path):
    project = fresh_project(tmp_path / "project", REFS)
    docs = project / "docs"
    result = perfref("new", "Gamma: the thing hangs (v2)", "--symptom", "hang,timeout", "--hardware", "nvidia-gpu",
                     "--framework", "pytorch", "--framework", "nccl", "--docs", str(docs))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("PERF-9003: ")
    path = docs / "references/gamma-the-thing-hangs-v2.md"
    catalogue = load_catalogue(docs)  # valid data
    new = catalogue.by_slug("gamma-the-thing-hangs-v2")
    assert new.file == "references/gamma-the-thing-hangs-v2.md" and path.exists()
    ref = new.ref
    assert (ref.id, ref.title, ref.status) == ("PERF-9003", "Gamma: the thing hangs (v2)", "draft")
    assert (ref.symptom, ref.hardware, ref.framework) == (["hang", "timeout"], ["nvidia-gpu"], ["pytorch", "nccl"])
    # every value an author must write is marked
    todo = [ref.summary, ref.messages_note, *(m.text for m in ref.messages), *(s.text for s in ref.signals),
            *(c.title for c in ref.checks), *(c.run for c in ref.checks), *(s.title for s in ref.sources),
            *(s.url for s in ref.sources), *(look.tell for look in ref.lookalikes), *new.sections.values()]
    assert all("TODO" in value for value in todo)
    site = build(project, tmp_path / "site")
    assert "PERF-9003" in page_html(site, "references/gamma-the-thing-hangs-v2")
    assert (site / "id/PERF-9003/index.html").exists()

    # an existing slug (or alias) and an unknown facet value are refused, and nothing is written
    for title in ("Alpha widget stall", "Old alpha"):
        refused = perfref("new", title, "--symptom", "hang", "--hardware", "nvidia-gpu", "--framework", "pytorch",
                          "--docs", str(docs))
        assert refused.returncode == 2 and "already used" in refused.stderr
    refused = perfref("new", "Delta", "--symptom", "hangs", "--hardware", "nvidia-gpu", "--framework", "pytorch",
                      "--docs", str(docs))
    assert refused.returncode == 2 and "unknown symptom" in refused.stderr
    assert not (docs / "references/delta.md").exists()

    # a draft is built but not listed, matched or recorded; publishing it with the scaffold's text is refused
    assert "gamma-the-thing-hangs-v2" not in (site / "references/index.html").read_text(encoding="utf-8")
    assert all(p.slug != "gamma-the-thing-hangs-v2" for p in catalogue.published + catalogue.listed)
    path.write_text(path.read_text(encoding="utf-8").replace("status: draft", "status: published"), encoding="utf-8")
    with pytest.raises(CatalogueError) as refused_publish:
        load_catalogue(docs)
    fields = {p.field for p in refused_publish.value.problems}
    assert {"summary", "sources[0].url", "examples[0].url", "body"} <= fields
    assert all("placeholder" in p.message for p in refused_publish.value.problems)


def test_scaffold_never_reuses_an_id(tmp_path):
    project = fresh_project(tmp_path / "project", REFS)
    docs = project / "docs"
    rewrite_front_matter(docs / "references/beta-gadget-slow.md", lambda d: d.update(status="retired"))
    assert next_id(docs) == "PERF-9003"  # the highest ID is retired: still not reused
    published = {"PERF-9007": {"slug": "gone", "urls": ["references/gone/", "id/PERF-9007/"]}}
    assert next_id(docs, published) == "PERF-9008"  # an ID in the manifest counts even without its page
    out = tmp_path / "published.json"
    out.write_text(manifest.dumps(published), encoding="utf-8")
    with pytest.raises(ScaffoldError, match="already used"):
        scaffold(docs, "Gone", ["hang"], ["nvidia-gpu"], ["pytorch"], manifest_path=out)
    ref_id, _ = scaffold(docs, "Epsilon", ["hang"], ["nvidia-gpu"], ["pytorch"], manifest_path=out)
    assert ref_id == "PERF-9008"


# ---- Reproducible build ----


def _normalised(path: Path) -> bytes:
    """The file's bytes, with the build date taken out of the sitemap only.

    MkDocs writes the build date (today, in UTC, or SOURCE_DATE_EPOCH) as every
    page's <lastmod> in sitemap.xml and as the gzip header's mtime of
    sitemap.xml.gz (mkdocs/commands/build.py, utils.get_build_date). Two builds
    that straddle midnight UTC differ there and nowhere else; every other byte
    of every file must be equal.
    """
    data = path.read_bytes()
    if path.name == "sitemap.xml.gz":
        assert data[:4] == b"\x1f\x8b\x08\x08"  # gzip, deflate, FNAME: the mtime is bytes 4-7
        return data[:4] + data[8:] + _normalised_sitemap(gzip.decompress(data))
    if path.name == "sitemap.xml":
        return _normalised_sitemap(data)
    return data


def _normalised_sitemap(data: bytes) -> bytes:
    return re.sub(rb"<lastmod>\d{4}-\d{2}-\d{2}</lastmod>", b"<lastmod>BUILD-DATE</lastmod>", data)


def assert_identical(one: Path, two: Path) -> None:
    files_one = sorted(p.relative_to(one).as_posix() for p in one.rglob("*") if p.is_file())
    files_two = sorted(p.relative_to(two).as_posix() for p in two.rglob("*") if p.is_file())
    assert files_one == files_two
    differ = [f for f in files_one if not filecmp.cmp(one / f, two / f, shallow=False)
              and _normalised(one / f) != _normalised(two / f)]
    assert not differ, f"these files differ between two builds of the same sources: {differ}"


def test_two_builds_are_byte_identical(fx):
    # another folder and another hash seed: nothing may depend on either
    again = build(fx["project"], fx["root"] / "site-again", {**EDIT_ENV, "PYTHONHASHSEED": "12345"})
    assert_identical(fx["site"], again)


def test_two_builds_of_the_real_site_are_byte_identical(tmp_path, real_catalogue):
    real_pages_or_skip(real_catalogue)
    project = fresh_project(tmp_path / "project")
    one = build(project, tmp_path / "one", {"PYTHONHASHSEED": "1"})
    two = build(project, tmp_path / "two", {"PYTHONHASHSEED": "2"})
    assert_identical(one, two)
