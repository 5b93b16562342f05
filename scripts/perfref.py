#!/usr/bin/env python3
"""perfref: the command-line side of the catalogue.

  perfref.py match [FILE] [--json] [--framework F] [--hardware H] [--symptom S]
      Match a log (a file, or standard input) against the references and print
      the ranked results; --json prints the data the browser shows.
  perfref.py check [DOCS]
      Validate every reference without building the site.
  perfref.py new TITLE --symptom S --hardware H --framework F [--docs DOCS]
      Write a new reference with the next free ID, every field and section.
      Values may be repeated or comma-separated; every TODO must be replaced.
  perfref.py manifest [--docs DOCS] [--out FILE] [--check SITE]
      Add every published ID and URL to tests/data/published.json (entries are
      never removed); with --check, report manifest URLs a built site lacks.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from catalogue import emit  # noqa: E402
from catalogue.load import CatalogueError, load_catalogue  # noqa: E402
from catalogue.match import Matcher  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def load_index(args) -> dict:
    """The emitted index from a built site, or the same index built from the docs now."""
    if args.index:
        text = Path(args.index).read_text(encoding="utf-8")
        return json.loads(text.split("=", 1)[1].rstrip().rstrip(";") if args.index.endswith(".js") else text)
    return json.loads(emit.json_text(emit.match_index(load_catalogue(args.docs))))


def cmd_match(args) -> int:
    raw = sys.stdin.buffer.read() if args.file in (None, "-") else Path(args.file).read_bytes()
    text = raw.decode("utf-8", errors="replace")
    result = Matcher(load_index(args)).match(
        text, {"framework": args.framework, "hardware": args.hardware, "symptom": args.symptom}
    )
    if args.json:
        json.dump(result, sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    if result["capped"]:
        print(f"Input over the cap: matched the last part only (from line {result['skipped_lines'] + 1}).")
    if not result["confident"]:
        print("No confident match. A message match is the strong kind of evidence; browse the catalogue instead.")
    for rank, r in enumerate(result["results"], 1):
        print(f"{rank}. {r['id']} [{r['strength']}, score {r['score']}] {r['title']}")
        print(f"   {r['url']}")
        for e in r["evidence"]:
            times = f" ({e['count']} lines)" if e["count"] > 1 else ""
            print(f"   line {e['line']}{times}, {e['kind']} {e['template']!r}:")
            print(f"     {e['text'][max(0, e['start'] - 60):e['end'] + 60]}")
        for check in r["checks"]:
            print(f"   check: {check['title']} ({r['url']}#check-{check['id']})")
    if result["results"]:
        print("A matching message alone does not confirm a cause: run the evidence checks.")
    return 0


def load_or_report(docs: str, consequence: str = ""):
    """The validated catalogue, or None after printing every problem to standard error."""
    try:
        return load_catalogue(docs)
    except CatalogueError as err:
        print(f"{len(err.problems)} problem(s){consequence}:", file=sys.stderr)
        for problem in err.problems:
            print(f"  {problem}", file=sys.stderr)
        return None


def cmd_check(args) -> int:
    catalogue = load_or_report(args.docs)
    if catalogue is None:
        return 1
    print(f"{len(catalogue.pages)} references, all valid")
    return 0


def _project_manifest(docs: str) -> Path:
    """The manifest of the project that holds ``docs``: <project>/tests/data/published.json."""
    return Path(docs).resolve().parent / "tests" / "data" / "published.json"


def cmd_new(args) -> int:
    from catalogue.scaffold import ScaffoldError, scaffold

    try:
        ref_id, path = scaffold(args.docs, args.title, args.symptom, args.hardware, args.framework,
                                manifest_path=args.manifest or _project_manifest(args.docs))
    except ScaffoldError as err:
        print(f"perfref.py new: {err}", file=sys.stderr)
        return 1
    print(f"{ref_id}: wrote {path}")
    print("Replace every TODO (the example.com sources and look-alikes included) before review,")
    print("then run 'scripts/perfref.py manifest' and add the message examples the tests ask for.")
    return 0


def cmd_manifest(args) -> int:
    from catalogue import manifest

    out = Path(args.out or _project_manifest(args.docs))
    old = manifest.load(out)
    if args.check:
        problems = manifest.site_problems(old, args.check)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        print(f"{len(problems)} problem(s) in {args.check}" if problems else f"every URL of {out} resolves in {args.check}")
        return 1 if problems else 0
    catalogue = load_or_report(args.docs, "; the manifest is unchanged")
    if catalogue is None:
        return 1
    new = manifest.updated(old, catalogue)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(manifest.dumps(new), encoding="utf-8")
    added = sorted(set(new) - set(old))
    print(f"{out}: {len(new)} ID(s){', added ' + ', '.join(added) if added else ''}")
    problems = manifest.catalogue_problems(new, catalogue)
    for problem in problems:
        print(f"  {problem}", file=sys.stderr)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="perfref.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="match a log against the references")
    m.add_argument("file", nargs="?", help="log file (default: standard input)")
    m.add_argument("--json", action="store_true", help="print the results as JSON")
    m.add_argument("--index", help="a built match-index.json or .js (default: built from the docs)")
    m.add_argument("--docs", default=str(DOCS), help=argparse.SUPPRESS)
    for facet in ("framework", "hardware", "symptom"):
        m.add_argument(f"--{facet}", default="", help=f"the {facet} you already know (re-weights the results)")
    m.set_defaults(func=cmd_match)
    c = sub.add_parser("check", help="validate every reference")
    c.add_argument("docs", nargs="?", default=str(DOCS))
    c.set_defaults(func=cmd_check)
    n = sub.add_parser("new", help="write a new reference page with the next free ID")
    n.add_argument("title", help="the published title (the slug is made from it)")
    for facet in ("symptom", "hardware", "framework"):
        n.add_argument(f"--{facet}", action="append", required=True, metavar=facet.upper(),
                       help=f"a {facet} value; repeat it or separate values with commas")
    n.add_argument("--docs", default=str(DOCS), help="the docs folder (default: this project's)")
    n.add_argument("--manifest", help="published IDs never to reuse (default: <project>/tests/data/published.json)")
    n.set_defaults(func=cmd_new)
    mf = sub.add_parser("manifest", help="(re)write the manifest of published IDs and URLs")
    mf.add_argument("--docs", default=str(DOCS), help="the docs folder (default: this project's)")
    mf.add_argument("--out", help="the manifest file (default: <project>/tests/data/published.json)")
    mf.add_argument("--check", metavar="SITE", help="check a built site against the manifest instead of writing it")
    mf.set_defaults(func=cmd_manifest)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
