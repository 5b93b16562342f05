"""Where the first action stands on every reference page, at 1280x800 in Chromium.

The first action is the decision path of a triage reference and the first check's
command of a cause. Prints, per page, its top (px from the top of the page), the
page's height, and whether a provenance section that is not folded stands before
it; then the medians. A layout figure, not a timing: the tests assert the same
measurement (tests/test_reading_order_browser.py).

  python scripts/page_layout.py [SITE_DIR]     (default: build the site into a temporary folder)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from perfref.site.preview import CHROMIUM, CHROMIUM_ARGS, serve

ROOT = Path(__file__).resolve().parents[1]
VIEWPORT = {"width": 1280, "height": 800}
FIRST_SCREENS_PX = 1200  # the first action starts within this

# Works on the new layout and on the layout before it (where the decision path and the
# checks had no start-here block), so that a build of an older commit can be measured.
MEASURE = """() => {
  const top = el => el ? Math.round(el.getBoundingClientRect().top + window.scrollY) : null
  const triage = !!document.querySelector(".perf-meta .perf-kind")
  let first
  if (triage) first = document.getElementById("decision-path")
  else {
    const start = document.getElementById("start-here") || document.getElementById("evidence-checks")
    let node = start && start.nextElementSibling
    while (node && !(node.matches && (node.matches("div.highlight, pre") || node.querySelector("pre")))) node = node.nextElementSibling
    first = node
  }
  const provenance = document.getElementById("what-the-sources-support")
  const fold = provenance && provenance.nextElementSibling
  const folded = !!(fold && fold.tagName === "DETAILS" && !fold.open)
  return {triage, first: top(first), height: document.documentElement.scrollHeight,
          provenance: top(provenance), provenance_folded: folded}
}"""


def measure(site: Path, slugs: list[str], browser=None) -> dict[str, dict]:
    """Each page's figures; ``browser``: a Playwright browser already running (the tests'), else one is started."""
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}/references/"
    try:
        if browser is not None:
            return _measure_in(browser, base, slugs)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            own = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                return _measure_in(own, base, slugs)
            finally:
                own.close()
    finally:
        server.shutdown()


def _measure_in(browser, base: str, slugs: list[str]) -> dict[str, dict]:
    page = browser.new_page(viewport=VIEWPORT)
    try:
        figures = {}
        for slug in slugs:
            page.goto(base + slug + "/")
            figures[slug] = page.evaluate(MEASURE)
        return figures
    finally:
        page.close()


def provenance_before_action(f: dict) -> bool:
    return f["provenance"] is not None and f["provenance"] < f["first"] and not f["provenance_folded"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", help="a built site (default: build one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(args.site) if args.site else Path(tmp) / "site"
        if not args.site:
            subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "--site-dir", str(site)],
                           cwd=ROOT, check=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})
        slugs = sorted(p.name for p in (site / "references").iterdir() if (p / "index.html").is_file())
        figures = measure(site, slugs)
    print(f"{'reference':45} {'kind':6} {'first action':>12} {'page height':>11}  provenance unfolded before it")
    for slug, f in figures.items():
        print(f"{slug:45} {'triage' if f['triage'] else 'cause':6} {f['first']:>10} px {f['height']:>8} px  "
              f"{'yes' if provenance_before_action(f) else 'no'}")
    firsts = [f["first"] for f in figures.values()]
    heights = [f["height"] for f in figures.values()]
    within = sum(x <= FIRST_SCREENS_PX for x in firsts)
    print(f"\n{len(figures)} reference pages at {VIEWPORT['width']}x{VIEWPORT['height']}: first action median "
          f"{statistics.median(firsts):.0f} px (range {min(firsts)}-{max(firsts)}), within {FIRST_SCREENS_PX} px on "
          f"{within}; page height median {statistics.median(heights):.0f} px (range {min(heights)}-{max(heights)}); "
          f"provenance unfolded before the first action on {sum(map(provenance_before_action, figures.values()))}")
    return 0 if within == len(figures) else 1


if __name__ == "__main__":
    sys.exit(main())
