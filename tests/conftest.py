"""Shared fixtures: a strict build of the real site, a local server, Chromium pages.

The site is built once per session into a temporary folder and served on
127.0.0.1 by a background thread. Browser tests use Debian's Chromium through
Playwright (no browser download) with the flags this machine needs.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from perfref.learned import LEARNED_FILE
from perfref.site.preview import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: F401 (the browser tests import them from here)

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BUILD_ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


@functools.cache
def team_tool(name: str):
    """One of the team's tools in scripts/ (evaluate, bench), imported from its file: they are not a package."""
    spec = importlib.util.spec_from_file_location(f"perfref_tool_{name}", ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def mkdocs_build(project: Path, site_dir: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the strict build of ``project`` (a folder with mkdocs.yml) into ``site_dir``."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=project, env={**BUILD_ENV, **(env or {})}, capture_output=True, text=True,
    )


def copy_project(dest: Path, references: Path | None = None) -> Path:
    """A copy of the project's build inputs; ``references`` replaces docs/references/*.md."""
    for name in ("mkdocs.yml", "overrides", "scripts", "docs"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / name)
    if references is not None:
        (dest / "docs" / LEARNED_FILE).unlink()  # words learned for other references (perfref.learned)
        for old in (dest / "docs/references").glob("*.md"):
            if old.name != "index.md":
                old.unlink()
        for new in references.glob("*.md"):
            shutil.copy(new, dest / "docs/references" / new.name)
    return dest


@pytest.fixture(scope="session")
def catalogue():
    """The real references, loaded and validated."""
    from perfref.load import load_catalogue

    return load_catalogue(DOCS)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The real site, built once with the strict build."""
    site_dir = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT, site_dir)
    assert result.returncode == 0, result.stderr[-4000:]
    return site_dir


@pytest.fixture(scope="session")
def base_url(site) -> str:
    server = serve(site)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class PageWatch:
    """Records every request and every console error of one page."""

    def __init__(self, page, origin: str):
        self.page = page
        self.origin = origin.rstrip("/")
        self.requests: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def foreign_requests(self) -> list[str]:
        return [u for u in self.requests if not (u.startswith(self.origin + "/") or u.startswith(("data:", "blob:")))]


@pytest.fixture
def watched(browser, base_url):
    """A fresh browser context and page, with its requests and console errors recorded."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    watch = PageWatch(page, base_url)
    yield watch
    context.close()
