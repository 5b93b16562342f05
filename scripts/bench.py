#!/usr/bin/env python3
"""The benchmark: prints build, index, matcher and payload figures from one run.

Figures are compared as ratios within the run (machines here are shared and
noisy); nothing is asserted. Sections:

- build: the real site against a bare Material build of the same pages
  (reference pages copied as plain Markdown, no hooks, no macros);
- scale: build time and match-index size for 100, 1,000 and 5,000 generated
  references (copies of the real ones with new IDs and varied templates);
- matcher: 1 MiB and 10 MiB logs against the ten references and 1,000
  generated ones, in the Python twin and in Chromium, against a naive matcher
  (every compiled pattern over the whole text) and a plain substring scan of
  the anchors (the floor);
- payload: gzip bytes that /match/ loads beyond Material's own assets.

  python scripts/bench.py [--quick] [--json FILE] [--record]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import yaml  # noqa: E402

from catalogue import emit, render  # noqa: E402
from catalogue.load import load_catalogue, split_front_matter  # noqa: E402
from catalogue.match import Matcher, prepare  # noqa: E402
from catalogue.templates import to_regex  # noqa: E402

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
MIB = 1024 * 1024


# ---- inputs ----


def copy_project(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("mkdocs.yml", "overrides", "scripts", "docs"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / name)
    return dest


def generate_references(docs: Path, count: int) -> None:
    """Write ``count`` references derived from the real ones: new IDs and slugs,
    each template given a short numbered word so that patterns differ while the
    anchors stay the real, common ones (the hard case for the matcher)."""
    real = sorted((docs / "references").glob("*.md"))
    real = [p for p in real if p.name != "index.md"]
    texts = [split_front_matter(p.read_text(encoding="utf-8")) for p in real]
    for n in range(count):
        data, body = texts[n % len(texts)]
        data = json.loads(json.dumps(data, default=str))
        tag = f"g{n:04d}"
        data["id"] = f"PERF-{5000 + n:04d}"
        data["title"] = f"{data['title']} (generated {tag})"
        data["related"], data["aliases"] = [], []
        data["lookalikes"] = [l for l in data["lookalikes"] if "url" in l] or [
            {"title": "External", "url": "https://example.com/", "tell": "generated"}] * 2
        while len(data["lookalikes"]) < 2:
            data["lookalikes"].append(dict(data["lookalikes"][0]))
        for item in data["messages"] + data["signals"]:
            item["text"] = f"{item['text']} {tag}"
        path = docs / "references" / f"generated-{tag}.md"
        path.write_text("---\n" + yaml.safe_dump(data, sort_keys=False) + "---\n" + body, encoding="utf-8")


def make_log(size: int, seed: int = 1) -> str:
    """A training-log-like text of ``size`` characters: routine lines with the
    real evaluation excerpts and negatives scattered through it, errors near the end."""
    rng = random.Random(seed)
    excerpts = []
    for path in sorted((ROOT / "tests/data/examples").glob("*.yml")):
        excerpts += [c["text"] for c in (yaml.safe_load(path.read_text()) or {}).get("eval") or []]
    negatives = ROOT / "tests/data/eval-negatives.yml"
    if negatives.exists():
        excerpts += [c["text"] for c in yaml.safe_load(negatives.read_text())["negatives"]]
    lines, total, step = [], 0, 0
    while total < size:
        step += 1
        if excerpts and rng.random() < 0.01:
            line = rng.choice(excerpts).rstrip("\n")
        else:
            line = (f"[rank{rng.randint(0, 7)}] step {step} loss {rng.uniform(1, 3):.4f} lr 3.0e-04 "
                    f"grad_norm {rng.uniform(0, 2):.3f} tokens/s {rng.randint(9000, 12000)} mem {rng.randint(60, 79)}GiB")
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)[:size]


# ---- measurements ----


def best_of(fn, repeat: int) -> float:
    """Best wall time in ms: the least disturbed run on a shared machine."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def build_seconds(project: Path, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        site = Path(tempfile.mkdtemp())
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", str(site)],
                       cwd=project, env=ENV, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
        shutil.rmtree(site)
    return statistics.median(times)


def bare_material_project(dest: Path) -> Path:
    """The same pages, already rendered to Markdown, under a bare Material config:
    no hooks, no macros, no validation, no emitted files. The difference is our pipeline."""
    docs = dest / "docs"
    shutil.copytree(ROOT / "docs", docs)
    catalogue = load_catalogue(ROOT / "docs")
    for path, text in render.facet_pages(catalogue).items():
        (docs / path).parent.mkdir(parents=True, exist_ok=True)
        (docs / path).write_text(text, encoding="utf-8")
    for page in catalogue.pages:
        (docs / page.file).write_text(render.reference_markdown(page, catalogue, "http://127.0.0.1:8000/"), encoding="utf-8")
    (docs / "references/index.md").write_text("# All references\n\n" + render.catalogue_html(catalogue), encoding="utf-8")
    (docs / "contributing.md").write_text(re.sub(r"\{\{.*?\}\}|\{% (end)?raw %\}", "", (docs / "contributing.md").read_text()), encoding="utf-8")
    (docs / "index.md").write_text(re.sub(r"\{\{.*?\}\}", "", (docs / "index.md").read_text()), encoding="utf-8")
    (docs / "match.md").write_text("# Match\n")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"\n  - macros:\n(      .*\n)+", "\n", config)
    config = re.sub(r"\nhooks:\n  - scripts/hooks.py\n", "\n", config)
    config = config.replace("  custom_dir: overrides\n", "")
    (dest / "mkdocs.yml").write_text(config, encoding="utf-8")
    return dest


def python_matcher_figures(index: dict, log: str, repeat: int) -> dict:
    matcher = Matcher(index)
    ours = best_of(lambda: matcher.match(log), repeat)
    lower = prepare(log, index["limits"]).lower
    patterns = [re.compile(to_regex(p["segments"])) for p in index["patterns"]]
    naive = best_of(lambda: [list(p.finditer(lower)) for p in patterns], 1 if len(log) > MIB else max(1, repeat // 2))
    anchors = sorted({p["anchor"] for p in index["patterns"]})
    floor = best_of(lambda: [lower.count(a) for a in anchors], repeat)
    return {"ours_ms": round(ours, 1), "naive_ms": round(naive, 1), "floor_ms": round(floor, 1),
            "naive_over_ours": round(naive / ours, 1), "ours_over_floor": round(ours / floor, 1)}


# The baselines run on the page's main thread (benchmark only): every pattern as a
# RegExp over the whole lowered text, and an indexOf scan of every anchor.
_CHROMIUM_BASELINES = """([log, sources, anchors]) => {
    const lower = log.replace(/[A-Z]+/g, s => s.toLowerCase())
    const regexps = sources.map(s => new RegExp(s, "g"))
    let t = performance.now()
    for (const re of regexps) { re.lastIndex = 0; while (re.exec(lower)) {} }
    const naive = performance.now() - t
    t = performance.now()
    for (const a of anchors) { let at = lower.indexOf(a); while (at >= 0) at = lower.indexOf(a, at + 1) }
    return {naive, floor: performance.now() - t}
}"""


def chromium_matcher_figures(site: Path, logs: dict[str, str], repeat: int, index: dict) -> dict | None:
    """Time the real worker in Debian's Chromium: post the log, wait for the result."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402

    server = serve(site)
    url = f"http://127.0.0.1:{server.server_address[1]}/match/"
    figures = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(url)
        page.wait_for_function("() => window.__perfMatch && window.__perfMatch.ready")
        for name, log in logs.items():
            timings = page.evaluate(
                """async ([log, repeat]) => {
                    const out = []
                    for (let i = 0; i < repeat; i++) out.push(await window.__perfMatch.time(log))
                    return out
                }""",
                [log, repeat],
            )
            sources = [to_regex(p["segments"]) for p in index["patterns"]]
            anchors = sorted({p["anchor"] for p in index["patterns"]})
            base = page.evaluate(_CHROMIUM_BASELINES, [log, sources, anchors])
            ours = min(t["match"] for t in timings)
            figures[name] = {"worker_match_ms": round(ours, 1),
                             "round_trip_ms": round(min(t["total"] for t in timings), 1),
                             "naive_ms": round(base["naive"], 1), "floor_ms": round(base["floor"], 1),
                             "naive_over_ours": round(base["naive"] / ours, 1)}
        browser.close()
    server.shutdown()
    return figures


def payload_figures(site: Path) -> dict:
    """gzip bytes /match/ loads beyond Material's own assets (our JS, CSS, index, lunr)."""
    html = (site / "match/index.html").read_text(encoding="utf-8")
    ours = ["assets/stylesheets/perf.css", "assets/stylesheets/a11y.css", "assets/javascripts/catalogue.js", "assets/javascripts/copy-link.js",
            "assets/javascripts/match-page.js", "assets/javascripts/match-worker.js",
            "assets/javascripts/search-worker.js", "assets/javascripts/lunr.js", "assets/match-index.js"]
    sizes = {name: len(gzip.compress((site / name).read_bytes(), 9)) for name in ours if (site / name).exists()}
    sizes["match/index.html (our part)"] = len(gzip.compress(html[html.find('<form class="perf-match"'):html.find("</article>")].encode(), 9))
    return {"files_gzip_bytes": sizes, "total_gzip_bytes": sum(sizes.values())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and no 5,000-reference build")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--record", action="store_true", help="write the figures to docs/benchmarks.json (the Performance page)")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    out: dict = {"date": time.strftime("%Y-%m-%d"), "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"}
    print(f"# Benchmark {out['date']} on {out['machine']}")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        real = build_seconds(ROOT)
        bare = build_seconds(bare_material_project(tmp / "bare"))
        out["build"] = {"real_s": round(real, 2), "bare_material_s": round(bare, 2), "overhead": round(real / bare, 2)}
        print(f"build: real {real:.2f} s, bare Material {bare:.2f} s, overhead {real / bare:.2f}x")

        out["scale"] = {}
        generated_index = None
        for count in (100, 1000) if args.quick else (100, 1000, 5000):
            project = copy_project(tmp / f"scale{count}")
            generate_references(project / "docs", count)
            seconds = build_seconds(project, repeat=1)
            index = emit.match_index(load_catalogue(project / "docs"))
            size = len(emit.match_index_js(index).encode())
            out["scale"][count] = {"build_s": round(seconds, 2), "index_bytes": size,
                                   "index_gzip_bytes": len(gzip.compress(emit.match_index_js(index).encode(), 6))}
            print(f"scale: {count} generated references: build {seconds:.2f} s, index {size / 1024:.0f} KiB "
                  f"({out['scale'][count]['index_gzip_bytes'] / 1024:.0f} KiB gzip)")
            if count == 1000:
                generated_index = json.loads(emit.json_text(index))
                site_1000 = tmp / "site1000"
                subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", str(site_1000)],
                               cwd=project, env=ENV, check=True, capture_output=True)

        ten = json.loads(emit.json_text(emit.match_index(load_catalogue(ROOT / "docs"))))
        logs = {"1MiB": make_log(MIB), "10MiB": make_log(10 * MIB, seed=2)}
        out["matcher_python"] = {}
        for label, index in (("10 refs", ten), ("1000 refs", generated_index)):
            for name, log in logs.items():
                figures = python_matcher_figures(index, log, repeat if name == "1MiB" else max(1, repeat // 3))
                out["matcher_python"][f"{name} x {label}"] = figures
                print(f"python twin: {name} against {label}: {figures['ours_ms']} ms; naive {figures['naive_ms']} ms "
                      f"({figures['naive_over_ours']}x slower); anchor substring floor {figures['floor_ms']} ms")

        site_10 = tmp / "site10"
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", str(site_10)],
                       cwd=ROOT, env=ENV, check=True, capture_output=True)
        out["matcher_chromium"] = {}
        for label, site, index in (("10 refs", site_10, ten), ("1000 refs", site_1000, generated_index)):
            figures = chromium_matcher_figures(site, logs, repeat, index)
            if figures is None:
                print("chromium: playwright is not installed; skipped")
                break
            for name, f in figures.items():
                out["matcher_chromium"][f"{name} x {label}"] = f
                print(f"chromium worker: {name} against {label}: match {f['worker_match_ms']} ms "
                      f"(round trip with the copy to the worker {f['round_trip_ms']} ms); naive {f['naive_ms']} ms "
                      f"({f['naive_over_ours']}x slower); anchor indexOf floor {f['floor_ms']} ms")

        out["payload"] = payload_figures(site_10)
        print(f"payload: /match/ loads {out['payload']['total_gzip_bytes'] / 1024:.1f} KB gzip beyond Material's assets")
        for name, size in out["payload"]["files_gzip_bytes"].items():
            print(f"  {name}: {size / 1024:.1f} KB")

    for path in filter(None, [args.json, ROOT / "docs/benchmarks.json" if args.record else None]):
        Path(path).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
