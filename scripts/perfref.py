#!/usr/bin/env python3
"""perfref: match a log against the Performance Error References, and keep the catalogue.

  perfref match [FILE|-] [--format text|json|markdown] [--framework F] [--hardware H] [--symptom S]
                [--runs SOFTWARE=RELEASE] [--site-url URL] [--follow] [--all]
      Match a log (a file, or standard input) and print the ranked references.
      Exit status as grep's: 0 when a reference fits (a message, a symptom or the
      context), 1 when there is no confident match, 2 on an error.
  perfref check [DOCS]
      Validate every reference without building the site.
  perfref new TITLE --symptom S --hardware H --framework F [--docs DOCS]
      Write a draft reference with the next free ID, every field and section.
  perfref manifest [--docs DOCS] [--out FILE] [--check SITE]
      Add every published ID, slug, title and URL to tests/data/published.json.
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from catalogue import emit, report  # noqa: E402
from catalogue.load import CatalogueError, load_catalogue  # noqa: E402
from catalogue.match import LineJoiner, Matcher, Scan  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
# An installed perfref reads the index built into the package (see setup.py).
PACKAGED_INDEX = Path(__file__).resolve().parent / "catalogue" / "data" / "match-index.json"
SITE_URL_ENV = "PERFREF_SITE_URL"
LOCAL_SITE_URL = "http://127.0.0.1:8000/"


class UsageError(Exception):
    """A bad argument or an unreadable input: one line on standard error, exit status 2."""


def version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version as package_version
        return package_version("perfref")
    except (ImportError, PackageNotFoundError):
        return "source checkout"


def load_index(args) -> dict:
    """The index named by --index, the docs of this checkout, or the one the package ships."""
    if args.index:
        try:
            text = Path(args.index).read_text(encoding="utf-8")
            return json.loads(text)
        except (OSError, ValueError, IndexError) as err:
            raise UsageError(f"cannot read the index {args.index}: {err}") from None
    docs = Path(args.docs)
    if (docs / "references").is_dir():
        try:
            return json.loads(emit.json_text(emit.match_index(load_catalogue(docs))))
        except CatalogueError as err:
            raise UsageError(f"the references in {docs} do not validate ({len(err.problems)} problem(s)); "
                             "run 'perfref check'") from None
    if PACKAGED_INDEX.exists():
        return json.loads(PACKAGED_INDEX.read_text(encoding="utf-8"))
    raise UsageError("no match index: give --index FILE (assets/match-index.json of a built site)")


def site_url(args, index: dict) -> str:
    return args.site_url or os.environ.get(SITE_URL_ENV) or index.get("site_url") or LOCAL_SITE_URL


def stated_context(args, index: dict) -> dict[str, str]:
    stated = {}
    for facet in ("framework", "hardware", "symptom"):
        value = getattr(args, facet)
        if value and value not in index["facets"][facet]:
            raise UsageError(f"unknown {facet} {value!r}; valid: {', '.join(sorted(index['facets'][facet]))}")
        stated[facet] = value
    return stated


CHUNK_BYTES = 4 * 1024 * 1024


def stated_versions(args, index: dict) -> dict[str, str]:
    """--runs nccl=2.21.5 (repeatable): the releases the user runs."""
    said = {}
    for item in args.runs or []:
        name, _, release = item.partition("=")
        if name not in index["software"] or not release:
            raise UsageError(f"--runs takes SOFTWARE=RELEASE with SOFTWARE one of {', '.join(sorted(index['software']))}")
        said[name] = release
    return said


def read_chunks(name: str | None):
    """The input as text chunks of a few MiB (UTF-8, bad bytes replaced): any size, bounded memory."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    try:
        handle = sys.stdin.buffer if name in (None, "-") else open(name, "rb")
    except OSError as err:
        raise UsageError(f"cannot read {name}: {err.strerror or err}") from None
    with handle:
        while True:
            data = handle.read(CHUNK_BYTES)
            if not data:
                break
            yield decoder.decode(data)
    yield decoder.decode(b"", final=True)


def render(result: dict, args, base: str) -> str:
    if args.format == "json":
        return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
    if args.format == "markdown":
        return report.markdown(result, base)
    return report.text(result, base, show_weak=args.all)


def cmd_match(args) -> int:
    index = load_index(args)
    stated = stated_context(args, index)
    said = stated_versions(args, index)
    base = site_url(args, index)
    matcher = Matcher(index)
    if args.follow:
        return follow(matcher, args, stated, base, said)
    result = matcher.match_stream(read_chunks(args.file), stated, said)
    sys.stdout.write(render(result, args, base))
    return 0 if result["confident"] else 1


def follow(matcher: Matcher, args, stated: dict, base: str, said: dict) -> int:
    """Watch a growing log; print each reference the first time it fits (or fits more strongly).

    Only the lines added since the last look are read: the evidence so far is kept
    (a Scan), as for a file read in chunks, so a long-running log costs nothing more.
    """
    if args.file in (None, "-"):
        raise UsageError("--follow needs a file name")
    seen: dict[str, str] = {}

    def fresh_start():
        return Scan(), LineJoiner(), codecs.getincrementaldecoder("utf-8")(errors="replace"), 0

    scan, lines, decoder, offset = fresh_start()
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    try:
        while not stop:
            try:
                size = os.path.getsize(args.file)
                if size < offset:  # truncated or rotated: start again
                    scan, lines, decoder, offset = fresh_start()
                if size > offset:
                    with open(args.file, "rb") as handle:
                        handle.seek(offset)
                        data = handle.read(size - offset)
                    offset += len(data)
                    piece = lines.push(decoder.decode(data))  # whole lines only: the last may still be written
                    if piece is not None:
                        result = matcher.result(matcher.scan_piece(piece, scan), stated, said)
                        fresh = [r for r in result["results"] if r["strength"] != "weak"
                                 and seen.get(r["id"]) not in ("message", r["strength"])]
                        if fresh:
                            for r in fresh:
                                seen[r["id"]] = r["strength"]
                            sys.stdout.write(render(dict(result, results=fresh, confident=True), args, base))
                            sys.stdout.flush()
            except FileNotFoundError:
                pass  # not written yet, or being rotated
            time.sleep(args.interval)
    except KeyboardInterrupt:
        pass
    return 0 if seen else 1


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
        raise UsageError(str(err)) from None
    print(f"{ref_id}: wrote {path} (status: draft)")
    print("Replace every TODO (the example.com sources and look-alikes included), add the message examples")
    print("the tests ask for, then set 'status: published' and run 'perfref manifest'.")
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
    parser = argparse.ArgumentParser(prog="perfref", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"perfref {version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="match a log against the references")
    m.add_argument("file", nargs="?", help="log file, or - for standard input (the default)")
    m.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                   help="text for a terminal, json for tools, markdown for a ticket or a CI job summary")
    m.add_argument("--json", dest="format", action="store_const", const="json", help="the same as --format json")
    m.add_argument("--all", action="store_true", help="also list the references with related words only")
    m.add_argument("--site-url", help=f"base of the URLs printed (default: ${SITE_URL_ENV}, else the site the index was built for)")
    m.add_argument("--follow", action="store_true", help="watch FILE as it grows and print each reference when it first fits")
    m.add_argument("--interval", type=float, default=1.0, help=argparse.SUPPRESS)
    m.add_argument("--index", help="a built site's assets/match-index.json (default: this checkout's docs, or the packaged index)")
    m.add_argument("--docs", default=str(DOCS), help=argparse.SUPPRESS)
    for facet in ("framework", "hardware", "symptom"):
        m.add_argument(f"--{facet}", default="", help=f"the {facet} you already know (re-weights the results)")
    m.add_argument("--runs", action="append", metavar="SOFTWARE=RELEASE",
                   help="a release you run, e.g. nccl=2.21.5 (repeatable): a message it cannot print counts for less")
    m.set_defaults(func=cmd_match)
    c = sub.add_parser("check", help="validate every reference")
    c.add_argument("docs", nargs="?", default=str(DOCS))
    c.set_defaults(func=cmd_check)
    n = sub.add_parser("new", help="write a draft reference page with the next free ID")
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
    try:
        return args.func(args)
    except UsageError as err:
        print(f"perfref: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (| head): exit quietly, as grep does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
