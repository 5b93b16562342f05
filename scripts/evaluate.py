#!/usr/bin/env python3
"""Score the matcher on the labelled evaluation set and print the figures.

Positives: the ``eval`` excerpts in tests/data/examples/<slug>.yml (real text
from public issues and forums, each labelled with its reference). Negatives:
tests/data/eval-negatives.yml (real look-alike text that belongs to no
reference). Prints top-1 and top-3 accuracy, the share of negatives given a
``message``-strength match, and every miss, so that a change can be judged.
Targets: top-1 >= 90 %, top-3 >= 98 %, strong false matches <= 5 %.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from catalogue import emit  # noqa: E402
from catalogue.load import load_catalogue  # noqa: E402
from catalogue.match import Matcher  # noqa: E402

DATA = ROOT / "tests" / "data"


def evaluate(docs: Path = ROOT / "docs") -> dict:
    catalogue = load_catalogue(docs)
    matcher = Matcher(json.loads(emit.json_text(emit.match_index(catalogue))))
    positives, negatives = [], []
    for page in catalogue.published:
        path = DATA / "examples" / f"{page.slug}.yml"
        data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
        for case in data.get("eval") or []:
            result = matcher.match(case["text"])
            ranked = [r["id"] for r in result["results"]]
            positives.append({
                "expect": page.ref.id, "name": case["name"], "ranked": ranked[:3],
                "strength": result["results"][0]["strength"] if result["results"] else None,
            })
    for case in yaml.safe_load((DATA / "eval-negatives.yml").read_text(encoding="utf-8"))["negatives"]:
        result = matcher.match(case["text"])
        strong = [r["id"] for r in result["results"] if r["strength"] == "message"]
        negatives.append({"name": case["name"], "strong": strong, "top": [r["id"] for r in result["results"][:3]]})
    n = len(positives) or 1
    return {
        "positives": len(positives),
        "negatives": len(negatives),
        "top1": sum(p["ranked"][:1] == [p["expect"]] for p in positives) / n,
        "top3": sum(p["expect"] in p["ranked"] for p in positives) / n,
        "strong_false": sum(bool(c["strong"]) for c in negatives) / (len(negatives) or 1),
        "cases": positives,
        "negative_cases": negatives,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print every case as JSON")
    args = parser.parse_args()
    report = evaluate()
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    print(f"positives {report['positives']}, negatives {report['negatives']}")
    print(f"top-1 accuracy       {report['top1']:.1%}  (target >= 90%)")
    print(f"top-3 accuracy       {report['top3']:.1%}  (target >= 98%)")
    print(f"strong false matches {report['strong_false']:.1%}  (target <= 5%)")
    for p in report["cases"]:
        if p["ranked"][:1] != [p["expect"]]:
            print(f"  miss: {p['expect']} {p['name']!r}: ranked {p['ranked']} ({p['strength']})")
    for c in report["negative_cases"]:
        if c["strong"]:
            print(f"  false strong match: {c['name']!r}: {c['strong']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
